import * as vscode from 'vscode';
import type { ExportKind } from '../shared/protocol.js';

const EXTENSIONS: Record<ExportKind, string> = { svg: 'svg', png: 'png', csv: 'csv', jsonl: 'jsonl' };

/** The save dialog's filter name per kind (literal calls, so `npm run l10n` finds them). */
const filterName = (kind: ExportKind): string =>
  ({ svg: vscode.l10n.t('SVG image'), png: vscode.l10n.t('PNG image'), csv: vscode.l10n.t('CSV'), jsonl: vscode.l10n.t('JSON Lines') })[kind];

/**
 * The file name a view suggests, made safe: letters, digits, dot, dash and underscore only (no
 * folder: the view shows untrusted content and may only suggest), with the kind's extension.
 */
export function exportFileName(name: string, kind: ExportKind): string {
  const stem = name.replace(/\.[a-z]+$/i, '').replace(/[^\w.-]+/g, '-').replace(/^[.-]+/, '').slice(0, 120) || 'export';
  return `${stem}.${EXTENSIONS[kind]}`;
}

/** What the view sent as the file's bytes: text as UTF-8, PNG as base64. */
export function exportBytes(kind: ExportKind, data: string): Uint8Array {
  return kind === 'png' ? Uint8Array.from(atob(data), (c) => c.charCodeAt(0)) : new TextEncoder().encode(data);
}

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
