import * as vscode from 'vscode';
import type { EngineFactory } from './engineClient.js';
import { toErrorDTO } from './errors.js';

export const DUMP_SCHEME = 'binlens-dump';

/** `binlens-dump:/path/file.fst.binlens-dump?<original uri>`: the extension picks the grammar. */
export function dumpUri(uri: vscode.Uri): vscode.Uri {
  return vscode.Uri.from({ scheme: DUMP_SCHEME, path: `${uri.path}.binlens-dump`, query: uri.toString() });
}

/** "Open Structure as Text": the annotated dump in a read-only text editor, diffable with another. */
export class DumpProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly createEngine: EngineFactory) {}

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const source = vscode.Uri.parse(uri.query, true);
    const engine = this.createEngine('job');
    token.onCancellationRequested(() => engine.dispose());
    try {
      const opened = await engine.open('dump', source);
      if (opened.kind === 'unrecognised') return `binlens-dump 1\nfile: ${opened.fileName}\nerror: ${opened.reason}\n`;
      return await engine.rpc.call('dump', { doc: 'dump' });
    } catch (e) {
      return `binlens-dump 1\nerror: ${toErrorDTO(e).message}\n`;
    } finally {
      engine.dispose();
    }
  }
}

export async function openAsText(uri: vscode.Uri): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(dumpUri(uri));
  await vscode.window.showTextDocument(doc, { preview: false });
}
