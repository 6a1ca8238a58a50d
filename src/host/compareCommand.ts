import * as vscode from 'vscode';
import { RpcError, RpcServer, type Message } from '../protocol/rpc.js';
import type { CompareOps, ComparePayload, DiffResultDTO, HostNotice, OpenResultDTO, RevealDTO } from '../protocol/protocol.js';
import { validateCompareRequest } from '../protocol/validate.js';
import { fileNameOf, type EngineFactory } from './engineClient.js';
import { toErrorDTO } from './errors.js';
import { SharedRun } from './sharedRun.js';
import { webviewHtml } from './webviewHtml.js';
import { webviewTransport } from './webviewTransport.js';

export const COMPARE_VIEW_TYPE = 'binlens.compare';

export interface CompareDeps {
  readonly extensionUri: vscode.Uri;
  readonly createEngine: EngineFactory;
  /** Opens a file in the Binlens editor in this column and shows that place of it. */
  reveal(uri: vscode.Uri, at: RevealDTO | undefined, column: vscode.ViewColumn): Promise<void>;
}

/**
 * "Binlens: Compare With…": the two files selected in the explorer (VS Code passes the clicked
 * one and the whole selection), else the given or focused file and one picked: a file of the
 * same extension in the workspace, or any through the open dialog.
 */
export async function pickPair(arg: unknown, all: unknown, current: vscode.Uri | undefined): Promise<[vscode.Uri, vscode.Uri] | undefined> {
  const uris = Array.isArray(all) ? all.filter((u): u is vscode.Uri => u instanceof vscode.Uri) : [];
  if (uris.length === 2) return [uris[0]!, uris[1]!];
  if (uris.length > 2) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Select two files to compare, not {0}.', uris.length));
    return undefined;
  }
  const first = arg instanceof vscode.Uri ? arg : (current ?? (await openDialog(vscode.l10n.t('Compare'))));
  if (!first) return undefined;
  const second = await pickOther(first);
  return second ? [first, second] : undefined;
}

async function openDialog(label: string): Promise<vscode.Uri | undefined> {
  return (await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: label }))?.[0];
}

/** The other file: the workspace's files with the first one's extension, and "Browse…" for any other. */
async function pickOther(first: vscode.Uri): Promise<vscode.Uri | undefined> {
  const ext = /\.[^./]+$/.exec(first.path)?.[0] ?? '';
  const found = ext ? await vscode.workspace.findFiles(`**/*${ext}`, undefined, 500) : [];
  const items: (vscode.QuickPickItem & { uri?: vscode.Uri })[] = [
    ...found
      .filter((u) => u.toString() !== first.toString())
      .map((uri) => ({ label: fileNameOf(uri), description: vscode.workspace.asRelativePath(uri), uri })),
    { label: vscode.l10n.t('Browse…'), description: vscode.l10n.t('any file') },
  ];
  const picked = await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Compare {0} with…', fileNameOf(first)), matchOnDescription: true });
  if (!picked) return undefined;
  return picked.uri ?? openDialog(vscode.l10n.t('Compare'));
}

/** A diff that cannot start: a side no reader recognised is trouble (exit 2), as in the CLI. */
function unrecognisedResult(a: OpenResultDTO, b: OpenResultDTO): DiffResultDTO | undefined {
  const [side, o] = a.kind !== 'opened' ? (['A', a] as const) : b.kind !== 'opened' ? (['B', b] as const) : [];
  if (!o) return undefined;
  return { exitCode: 2, differences: 0, counts: {}, rows: 0, dropped: 0, trouble: { side, message: `${o.fileName}: ${o.reason}`, offset: o.offset } };
}

/**
 * The compare view: a webview panel with the editor's page (webviewHtml.ts, same CSP) in compare
 * mode, and its own engine holding both documents. The diff runs once in that engine, in the
 * background (engine/diffRuns.ts); the page pages its rows and asks to open both files at one.
 */
export function openCompare(a: vscode.Uri, b: vscode.Uri, deps: CompareDeps): void {
  // The active group, a custom editor's too (activeTextEditor is undefined there).
  const column = vscode.window.tabGroups.activeTabGroup.viewColumn;
  const title = vscode.l10n.t('{0} ↔ {1}', fileNameOf(a), fileNameOf(b));
  const panel = vscode.window.createWebviewPanel(COMPARE_VIEW_TYPE, title, column, {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(deps.extensionUri, 'dist')],
  });
  panel.webview.html = webviewHtml(panel.webview, deps.extensionUri);
  const engine = deps.createEngine();
  const opening = Promise.all([engine.open('a', a), engine.open('b', b)]);
  // Started on the page's first ask; a page shown again after being hidden joins it.
  const diff = new SharedRun<DiffResultDTO, { rows: number }>((onEvent) =>
    opening.then(([oa, ob]) => unrecognisedResult(oa, ob) ?? engine.rpc.call('diff', { diff: 'd', a: 'a', b: 'b' }, { onEvent })),
  );

  const webview = panel.webview;
  const transport = webviewTransport(webview);
  const notify = (n: HostNotice) => transport.post({ kind: 'notify', topic: n.topic, payload: n.payload });
  const server = new RpcServer<CompareOps>(
    transport,
    {
      children: ({ side, ...p }, { signal }) => engine.rpc.call('children', { doc: side, ...p }, { signal }),
      diff: (_p, { emit }) => diff.join(emit),
      page: (p, { signal }) => engine.rpc.call('diffPage', { diff: 'd', ...p }, { signal }),
      reveal: async ({ row }) => {
        const at = await engine.rpc.call('diffTargets', { diff: 'd', row });
        if (!at.a && !at.b) throw new RpcError({ message: vscode.l10n.t('This difference has no row or key to open the files at.'), code: 'unsupported' });
        // A beside B, right of the compare view; a side the difference has no place in opens at its start.
        const base = panel.viewColumn ?? column;
        await deps.reveal(a, at.a, base + 1);
        await deps.reveal(b, at.b, base + 2);
      },
    },
    toErrorDTO,
    validateCompareRequest,
  );
  const ready = webview.onDidReceiveMessage(async (m: Message) => {
    if (m.kind !== 'notify' || m.topic !== 'ready') return;
    const [oa, ob] = await opening.catch((e: unknown) => {
      const failed = (uri: vscode.Uri): OpenResultDTO => ({
        kind: 'unrecognised',
        fileName: fileNameOf(uri),
        size: 0,
        reason: toErrorDTO(e).message,
        head: '',
      });
      return [failed(a), failed(b)] as const;
    });
    const payload: ComparePayload = { a: oa, b: ob, l10n: vscode.l10n.bundle };
    notify({ topic: 'compare', payload });
  });
  panel.onDidDispose(() => {
    ready.dispose();
    server.dispose();
    engine.dispose();
  });
}
