import * as vscode from 'vscode';
import { RpcServer, type Message } from '../protocol/rpc.js';
import type { CheckDTO, HostNotice, OpenResultDTO, TopDTO, RevealDTO, ViewNotice, ViewOps } from '../protocol/protocol.js';
import { validateViewRequest } from '../protocol/validate.js';
import { DistrictsMemory } from './districtsMemory.js';
import { askForGraph, askForReference, askForShapes } from './pickGraph.js';
import { saveExport } from './saveExport.js';
import type { Engine, EngineFactory } from './engineClient.js';
import type { OpenForVerify } from './verifyCommand.js';
import { toErrorDTO } from './errors.js';
import { webviewHtml } from './webviewHtml.js';
import { webviewTransport } from './webviewTransport.js';

export const VIEW_TYPE = 'binlens.viewer';
export const ANY_VIEW_TYPE = 'binlens.any';
export const HEX_EDITOR_ID = 'ms-vscode.hexeditor';
export const HEX_VIEW_TYPE = 'hexEditor.hexedit';
/** How long openAt waits for a file's page before going on without it. */
const PAGE_READY_MS = 10_000;

/** An open file: its engine worker holds the decoded document; reopened when the file changes. */
export class BinlensDocument implements vscode.CustomDocument, OpenForVerify {
  private readonly changed = new vscode.EventEmitter<OpenResultDTO>();
  readonly onDidReload = this.changed.event;
  private readonly checked = new vscode.EventEmitter<TopDTO>();
  /** Fresh top rows once a Verify of this file has handed its document what failed, for each of its editors' trees. */
  readonly onDidCheck = this.checked.event;
  private readonly watcher: vscode.FileSystemWatcher | undefined;
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  /** Reloads started: findings of a verify begun before the last one are about bytes no longer shown. */
  private reloads = 0;

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
    engine.onStale?.(() => void this.reload());
  }

  static async open(uri: vscode.Uri, createEngine: EngineFactory): Promise<BinlensDocument> {
    const engine = createEngine('editor');
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
    this.reloads++;
    try {
      this.opened = await this.engine.open('doc', this.uri);
    } catch (e) {
      this.opened = { kind: 'unrecognised', fileName: this.uri.path.split('/').pop() ?? '', size: 0, reason: toErrorDTO(e).message, head: '' };
    }
    this.changed.fire(this.opened);
  }

  /**
   * Verify runs on a job thread (verifyCommand.ts), never in this document's engine: that is a view
   * thread other editors page from, and a 2 GB verify there made their pages 3-10 times slower. What
   * failed comes here afterwards, so the tree marks it (the engine's `findings`) and the editors get
   * the fresh top rows. Dropped if the file was opened again since the verify began.
   */
  findingsSink(): (failed: readonly CheckDTO[]) => Promise<void> {
    const reloads = this.reloads;
    return async (failed) => {
      if (this.reloads !== reloads) return;
      const top = await this.engine.rpc.call('findings', { doc: 'doc', checks: [...failed] });
      if (this.reloads === reloads) this.checked.fire(top);
    };
  }

  dispose(): void {
    clearTimeout(this.reloadTimer);
    this.watcher?.dispose();
    this.changed.dispose();
    this.checked.dispose();
    this.engine.dispose();
  }
}

/** A Binlens editor on screen: its page is up once it has said 'ready'. */
interface Shown {
  readonly document: BinlensDocument;
  readonly panel: vscode.WebviewPanel;
  readonly notify: (n: HostNotice) => void;
  ready: boolean;
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
  private readonly active = new Set<Shown>();
  /** Places to show once the file's editor has its page up (a compare view's reveal), by URI. */
  private readonly pendingReveal = new Map<string, RevealDTO>();
  /** Who waits for a file's page to be up (openAt), by URI. */
  private readonly readyWaiters = new Map<string, () => void>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly createEngine: EngineFactory,
    private readonly commands: HostCommands,
    /** The districts panel's picked graphs and attribute choices (workspace state). */
    private readonly districts = new DistrictsMemory(undefined),
  ) {}

  /** The document of the focused Binlens editor, for palette and editor-title commands. */
  activeUri(): vscode.Uri | undefined {
    for (const e of this.active) if (e.panel.active) return e.document.uri;
    return undefined;
  }

  /**
   * Opens the file in the Binlens editor in this column and shows that place of it: now, in a
   * page that is up, else when the page says it is ready (a new editor, or one whose page was
   * dropped while hidden). Resolves once the page is up (or after PAGE_READY_MS), so a caller
   * opening two files loads one page at a time: two new pages loading at once in code-server's
   * web build sometimes left one at "Opening…".
   */
  async openAt(uri: vscode.Uri, at: RevealDTO | undefined, column: vscode.ViewColumn): Promise<void> {
    const key = uri.toString();
    if (at) this.pendingReveal.set(key, at);
    const up = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, PAGE_READY_MS);
      this.readyWaiters.set(key, () => (clearTimeout(timer), resolve()));
    });
    await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE, { viewColumn: column, preserveFocus: true, preview: false });
    for (const e of this.active) if (e.ready && e.document.uri.toString() === key) this.pageUp(e);
    await up;
    this.readyWaiters.delete(key);
  }

  /** A page of this file is up: it shows the place waiting for it, and whoever waits for it goes on. */
  private pageUp(e: Shown): void {
    this.flushReveal(e);
    this.readyWaiters.get(e.document.uri.toString())?.();
  }

  private flushReveal(e: Shown): void {
    const key = e.document.uri.toString();
    const at = this.pendingReveal.get(key);
    if (!at) return;
    this.pendingReveal.delete(key);
    e.notify({ topic: 'reveal', payload: at });
  }

  /** The document of an open Binlens editor of this file that the engine recognised, for Verify to hand what failed. */
  openDocument(uri: vscode.Uri): BinlensDocument | undefined {
    for (const e of this.active) if (e.document.uri.toString() === uri.toString() && e.document.opened.kind === 'opened') return e.document;
    return undefined;
  }

  openCustomDocument(uri: vscode.Uri): Promise<BinlensDocument> {
    return BinlensDocument.open(uri, this.createEngine);
  }

  resolveCustomEditor(document: BinlensDocument, panel: vscode.WebviewPanel): void {
    const webview = panel.webview;
    webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist')] };
    webview.html = webviewHtml(webview, this.extensionUri);

    const transport = webviewTransport(webview);
    const notify = (n: HostNotice) => transport.post({ kind: 'notify', topic: n.topic, payload: n.payload });
    const entry: Shown = { document, panel, notify, ready: false };
    this.active.add(entry);
    // Hidden, the page is dropped (retainContextWhenHidden is off): it is not up until it says ready again.
    const views = panel.onDidChangeViewState(() => (entry.ready &&= panel.visible));
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
        panel: async (p, { signal, emit }) =>
          engine.call(
            'panel',
            { doc: 'doc', panel: p.panel, params: await this.districts.request(document.uri.toString(), p.panel, p.params) },
            { signal, onEvent: emit },
          ),
        pickGraph: () => this.districts.pickGraph(document.uri.toString(), () => askForGraph(document.uri).then((u) => u && document.engine.location(u))),
        pickShapes: () => this.districts.pickShapes(document.uri.toString(), () => askForShapes(document.uri).then((u) => u && document.engine.location(u))),
        pickReference: () =>
          this.districts.pickReference(document.uri.toString(), () => askForReference(document.uri).then((u) => u && document.engine.location(u))),
        saveExport: (p) => saveExport(document.uri, p),
        search: (p, { signal, emit }) => engine.call('search', { doc: 'doc', ...p }, { signal, onEvent: emit }),
        top: (_p, { signal }) => engine.call('top', { doc: 'doc' }, { signal }),
      },
      toErrorDTO,
      validateViewRequest,
    );
    // The webview translates its own strings with the host's bundle (undefined in English): the same one in the web build.
    const init = () =>
      notify({
        topic: 'init',
        payload: { ...document.opened, hexEditor: vscode.extensions.getExtension(HEX_EDITOR_ID) !== undefined, l10n: vscode.l10n.bundle },
      });
    const notices = webview.onDidReceiveMessage((m: Message) => {
      if (m.kind !== 'notify') return;
      void this.onNotice(m as ViewNotice & { kind: 'notify' }, document, () => {
        entry.ready = true;
        init();
        this.pageUp(entry);
      });
    });
    const reloads = document.onDidReload(init);
    const checks = document.onDidCheck((top) => notify({ topic: 'top', payload: top }));
    panel.onDidDispose(() => {
      this.active.delete(entry);
      server.dispose();
      notices.dispose();
      reloads.dispose();
      checks.dispose();
      views.dispose();
    });
  }

  private async onNotice(n: ViewNotice, document: BinlensDocument, ready: () => void): Promise<void> {
    switch (n.topic) {
      case 'ready':
        ready();
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
        void vscode.window.showInformationMessage(
          vscode.l10n.t('Offset 0x{0} is on the clipboard: use Go to Offset (Ctrl+G) in the Hex Editor.', offset.toString(16)),
        );
        return;
      }
    }
  }
}
