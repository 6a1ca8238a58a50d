import * as vscode from 'vscode';
import type { ExportKind } from '../protocol/protocol.js';
import { EXTENSIONS, exportBytes, exportFileName } from './exportFile.js';

/** The save dialog's filter name per kind (literal calls, so `npm run l10n` finds them). */
const filterName = (kind: ExportKind): string =>
  ({ svg: vscode.l10n.t('SVG image'), png: vscode.l10n.t('PNG image'), csv: vscode.l10n.t('CSV'), jsonl: vscode.l10n.t('JSON Lines') })[kind];

/**
 * Saves a view's export where the user chooses: the save dialog starts beside the document and
 * asks before replacing a file; the bytes go to a temporary file beside the target, renamed over
 * it when complete, so a failed write leaves no partial file.
 */
export async function saveExport(document: vscode.Uri, p: { kind: ExportKind; name: string; data: string }): Promise<{ saved: boolean }> {
  const target = await vscode.window.showSaveDialog({
    defaultUri: vscode.Uri.joinPath(document, '..', exportFileName(p.name, p.kind)),
    filters: { [filterName(p.kind)]: [EXTENSIONS[p.kind]] },
    saveLabel: vscode.l10n.t('Export'),
  });
  if (!target) return { saved: false };
  const temp = target.with({ path: `${target.path}.${Date.now().toString(36)}.tmp` });
  try {
    await vscode.workspace.fs.writeFile(temp, exportBytes(p.kind, p.data));
    await vscode.workspace.fs.rename(temp, target, { overwrite: true });
  } catch (e) {
    await Promise.resolve(vscode.workspace.fs.delete(temp)).catch(() => undefined);
    throw e;
  }
  void vscode.window.showInformationMessage(vscode.l10n.t('Saved {0}', target.path.split('/').pop() ?? ''));
  return { saved: true };
}
