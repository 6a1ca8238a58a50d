import * as vscode from 'vscode';
import { RpcServer, type Message, type Transport } from '../shared/rpc.js';
import type { HostNotice, OpenResultDTO, ViewNotice, ViewOps } from '../shared/protocol.js';
import { validateViewRequest } from '../shared/validate.js';
import type { Engine, EngineFactory } from './engineClient.js';
import { toErrorDTO } from './errors.js';
import { webviewHtml } from './webviewHtml.js';

export const VIEW_TYPE = 'binlens.viewer';
export const ANY_VIEW_TYPE = 'binlens.any';
export const HEX_EDITOR_ID = 'ms-vscode.hexeditor';
export const HEX_VIEW_TYPE = 'hexEditor.hexedit';

/** An open file: its engine worker holds the decoded document; reopened when the file changes. */
export class BinlensDocument implements vscode.CustomDocument {
  private readonly changed = new vscode.EventEmitter<OpenResultDTO>();
  readonly onDidReload = this.changed.event;
  private readonly watcher: vscode.FileSystemWatcher | undefined;
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;

  private constructor(
    readonly uri: vscode.Uri,
    readonly engine: Engine,
    public opened: OpenResultDTO,
  ) {
    if (uri.scheme === 'file') {
      const folder = vscode.Uri.joinPath(uri, '..');
      const name = uri.path.split('/').pop() ?? '';
      this.watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, name));
      const reload = () => this.scheduleReload();
      this.watcher.onDidChange(reload);
      this.watcher.onDidCreate(reload);
    }
  }

  static async open(uri: vscode.Uri, createEngine: EngineFactory): Promise<BinlensDocument> {
    const engine = createEngine();
    try {
      return new BinlensDocument(uri, engine, await engine.open('doc', uri));
    } catch (e) {
      engine.dispose();
      throw e;
    }
  }

  /** Several writes in a row (a writer appending) give one reload. */
  private scheduleReload(): void {
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => void this.reload(), 300);
  }

  async reload(): Promise<void> {
    try {
      this.opened = await this.engine.open('doc', this.uri);
    } catch (e) {
      this.opened = { kind: 'unrecognised', fileName: this.uri.path.split('/').pop() ?? '', size: 0, reason: toErrorDTO(e).message, head: '' };
    }
    this.changed.fire(this.opened);
  }

  dispose(): void {
    clearTimeout(this.reloadTimer);
    this.watcher?.dispose();
    this.changed.dispose();
    this.engine.dispose();
  }
}

export interface HostCommands {
  verify(uri: vscode.Uri): Thenable<unknown>;
  convert(uri: vscode.Uri): Thenable<unknown>;
  saveIntact(uri: vscode.Uri): Thenable<unknown>;
  openAsText(uri: vscode.Uri): Thenable<unknown>;
}

/**
 * One provider for every format: the registry (inside the engine) decides what a file is, and
 * the webview renders whatever summary, tree, tables and panels the format offers.
 */
export class BinlensEditorProvider implements vscode.CustomReadonlyEditorProvider<BinlensDocument> {
  private readonly active = new Set<{ document: BinlensDocument; panel: vscode.WebviewPanel }>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly createEngine: EngineFactory,
    private readonly commands: HostCommands,
  ) {}

  /** The document of the focused Binlens editor, for palette and editor-title commands. */
  activeUri(): vscode.Uri | undefined {
    for (const e of this.active) if (e.panel.active) return e.document.uri;
    return undefined;
  }

  openCustomDocument(uri: vscode.Uri): Promise<BinlensDocument> {
    return BinlensDocument.open(uri, this.createEngine);
  }

  resolveCustomEditor(document: BinlensDocument, panel: vscode.WebviewPanel): void {
    const webview = panel.webview;
    webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist')] };
    webview.html = webviewHtml(webview, this.extensionUri);
    const entry = { document, panel };
    this.active.add(entry);

    const transport: Transport = {
      post: (message) => void webview.postMessage(message),
      listen: (handler) => {
        const sub = webview.onDidReceiveMessage((m: Message) => handler(m));
        return () => sub.dispose();
      },
    };
    const notify = (n: HostNotice) => transport.post({ kind: 'notify', topic: n.topic, payload: n.payload });
    const engine = document.engine.rpc;
    const server = new RpcServer<ViewOps>(
      transport,
      {
        children: (p, { signal }) => engine.call('children', { doc: 'doc', ...p }, { signal }),
        page: (p, { signal }) => engine.call('page', { doc: 'doc', ...p }, { signal }),
        table: (p, { signal }) => engine.call('table', { doc: 'doc', ...p }, { signal }),
        count: async (p, { signal, emit }) => {
          const result = await engine.call('count', { doc: 'doc', ...p }, { signal, onEvent: emit });
          notify({ topic: 'rowCount', payload: { table: p.table, ...result } });
          return result;
        },
        bytes: (p, { signal }) => engine.call('bytes', { doc: 'doc', ...p }, { signal }),
        panel: (p, { signal }) => engine.call('panel', { doc: 'doc', ...p }, { signal }),
        search: (p, { signal, emit }) => engine.call('search', { doc: 'doc', ...p }, { signal, onEvent: emit }),
        top: (_p, { signal }) => engine.call('top', { doc: 'doc' }, { signal }),
      },
      toErrorDTO,
      validateViewRequest,
    );
    // The webview translates its own strings with the host's bundle (undefined in English): the same one in the web build.
    const init = () =>
      notify({ topic: 'init', payload: { ...document.opened, hexEditor: vscode.extensions.getExtension(HEX_EDITOR_ID) !== undefined, l10n: vscode.l10n.bundle } });
    const notices = webview.onDidReceiveMessage((m: Message) => {
      if (m.kind !== 'notify') return;
      void this.onNotice(m as ViewNotice & { kind: 'notify' }, document, init);
    });
    const reloads = document.onDidReload(init);
    panel.onDidDispose(() => {
      this.active.delete(entry);
      server.dispose();
      notices.dispose();
      reloads.dispose();
    });
  }

  private async onNotice(n: ViewNotice, document: BinlensDocument, init: () => void): Promise<void> {
    switch (n.topic) {
      case 'ready':
        init();
        return;
      case 'command': {
        const uri = document.uri;
        const command = n.payload?.command;
        if (command === 'verify') await this.commands.verify(uri);
        else if (command === 'convert') await this.commands.convert(uri);
        else if (command === 'saveIntact') await this.commands.saveIntact(uri);
        else if (command === 'openAsText') await this.commands.openAsText(uri);
        else if (command === 'reopenAsText') await vscode.commands.executeCommand('vscode.openWith', uri, 'default');
        else if (command === 'reopenAsHex') await vscode.commands.executeCommand('vscode.openWith', uri, HEX_VIEW_TYPE);
        return;
      }
      case 'revealBytes': {
        const offset = n.payload?.offset;
        if (!Number.isSafeInteger(offset) || vscode.extensions.getExtension(HEX_EDITOR_ID) === undefined) return;
        await vscode.env.clipboard.writeText(`0x${offset.toString(16)}`);
        await vscode.commands.executeCommand('vscode.openWith', document.uri, HEX_VIEW_TYPE, vscode.ViewColumn.Beside);
        void vscode.window.showInformationMessage(vscode.l10n.t('Offset 0x{0} is on the clipboard: use Go to Offset (Ctrl+G) in the Hex Editor.', offset.toString(16)));
        return;
      }
    }
  }
}
