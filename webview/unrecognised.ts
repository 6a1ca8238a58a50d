import * as l10n from '@vscode/l10n';
import type { UnrecognisedDTO } from '../src/protocol/protocol.js';
import { dump } from './bytesPane.js';
import { button, h } from './dom.js';
import { formatSize } from './l10n.js';
import { notify } from './rpc.js';

/** What the editor shows when no reader recognises the file. */
export function renderUnrecognised(root: HTMLElement, u: UnrecognisedDTO, hexEditor: boolean): void {
  const actions = h(
    'div',
    { class: 'actions' },
    button(l10n.t('Reopen with Text Editor'), () => notify({ topic: 'command', payload: { command: 'reopenAsText' } })),
    hexEditor ? button(l10n.t('Reopen with Hex Editor'), () => notify({ topic: 'command', payload: { command: 'reopenAsHex' } })) : null,
  );
  root.replaceChildren(
    h(
      'section',
      { class: 'unrecognised', role: 'alert' },
      h('h1', { text: l10n.t('Not a Binlens format') }),
      h('p', { text: `${u.fileName} (${formatSize(u.size)}): ${u.reason}` }),
      actions,
      h('h2', { text: l10n.t('First bytes') }),
      h('pre', { class: 'bytes', tabindex: 0, role: 'region', 'aria-label': l10n.t('first bytes of the file'), text: dump(0, u.head) }),
    ),
  );
}
