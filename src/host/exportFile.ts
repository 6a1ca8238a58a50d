import type { ExportKind } from '../protocol/protocol.js';

/** The bytes and suggested name of a view's export (saveExport.ts), apart from vscode so tests can reach them. */
export const EXTENSIONS: Record<ExportKind, string> = { svg: 'svg', png: 'png', csv: 'csv', jsonl: 'jsonl' };

/**
 * The file name a view suggests, made safe: letters, digits, dot, dash and underscore only (no
 * folder: the view shows untrusted content and may only suggest), with the kind's extension.
 */
export function exportFileName(name: string, kind: ExportKind): string {
  const stem =
    name
      .replace(new RegExp(`\\.${EXTENSIONS[kind]}$`, 'i'), '')
      .replace(/[^\w.-]+/g, '-')
      .replace(/^[.-]+/, '')
      .slice(0, 120) || 'export';
  return `${stem}.${EXTENSIONS[kind]}`;
}

/** What the view sent as the file's bytes: text as UTF-8, PNG as base64. */
export function exportBytes(kind: ExportKind, data: string): Uint8Array {
  return kind === 'png' ? Uint8Array.from(atob(data), (c) => c.charCodeAt(0)) : new TextEncoder().encode(data);
}
