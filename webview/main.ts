import type { OpenResultDTO } from '../src/protocol/protocol.js';
import { App } from './app.js';
import { CompareView } from './compare.js';
import { markFirstScreen } from './firstScreen.js';
import { useBundle } from './l10n.js';
import { notify, onNotice } from './rpc.js';
import { renderUnrecognised } from './unrecognised.js';

const root = document.getElementById('app')!;
let app: App | undefined;

function init(opened: OpenResultDTO, hexEditor: boolean): void {
  if (opened.kind === 'opened') app = new App(root, opened.doc, hexEditor);
  else {
    app = undefined;
    renderUnrecognised(root, opened, hexEditor);
    markFirstScreen();
  }
}

onNotice((n) => {
  switch (n.topic) {
    case 'init':
      useBundle(n.payload.l10n);
      init(n.payload, n.payload.hexEditor);
      break;
    case 'rowCount':
      app?.setRowCount(n.payload.table, n.payload.known, n.payload.complete);
      break;
    case 'status':
      app?.announce(n.payload.text);
      break;
    case 'top':
      app?.showTop(n.payload);
      break;
    case 'compare':
      useBundle(n.payload.l10n);
      app = undefined;
      new CompareView(root, n.payload);
      break;
    case 'reveal':
      app?.reveal(n.payload);
      break;
  }
});

// The page arrives with a translated "Opening…" (src/host/webviewHtml.ts) that stays until init.
notify({ topic: 'ready', payload: null });
