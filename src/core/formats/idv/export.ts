/**
 * IDV → JSONL, CSV and TSV, for `binlens cat` and the converters. One row formatter serves
 * both. JSONL follows the CLI contract (../shared/DESIGN.md); CSV/TSV write one header row and
 * one line per row, fixed-size vectors as a column per slot headed `name[slot name]`, other
 * vectors as the JSONL vector object in one cell, dates and times as ML.NET's text saver does.
 */
import { FormatError, throwIfAborted } from '../../errors.js';
import type { ByteSink, CatFormat, CatSpec, Converter, OptionSpec, OptionValues, TaskContext } from '../../model.js';
import { choiceParam } from '../../tableSpec.js';
import type { IdvColumn } from './blocks.js';
import { type ColumnType, MAX_SLOT_COLUMNS } from './columnType.js';
import { reportFailedBlocks, reportFailedMetadata, reportRowsPastLookup, reportUnreadableToc, rowsWithLookup } from './damage.js';
import type { IdvFile } from './file.js';
import { itemText, jsonOf } from './format.js';
import { IDV_HEADER } from './model.js';
import { type Reading, type Value, type VectorValue, defaultValue, densify } from './values.js';

export type TextFormat = 'jsonl' | 'csv' | 'tsv';

export interface ExportOptions {
  readonly reading: Reading;
  /** CSV/TSV: fixed-size vectors as a column per slot ('columns') or one JSON cell ('json'). */
  readonly vectors: 'columns' | 'json';
  /** CSV/TSV: keys as raw integers or as their KeyValues text. */
  readonly keys: 'raw' | 'values';
}

interface OutColumn {
  readonly col: IdvColumn;
  readonly name: string;
  readonly type: ColumnType;
  /** CSV/TSV header cells: one, or one per slot. */
  readonly headers: readonly string[];
  /** CSV/TSV: the vector is written a cell per slot (else one JSON cell). */
  readonly perSlot: boolean;
  readonly keyNames?: readonly string[];
}

const encoder = new TextEncoder();
/** Output is written in pieces of about this many characters. */
const FLUSH_CHARS = 1 << 20;

/** Readable columns in TOC order; a repeated name stays on the last column, earlier ones become `name#index`. */
async function outColumns(file: IdvFile, format: TextFormat, opts: ExportOptions, ctx: TaskContext): Promise<OutColumn[]> {
  const out: OutColumn[] = [];
  for (const col of file.columns) {
    if (col.type.kind === 'dead') continue;
    const name = col.shadowed ? `${col.entry.name}#${col.entry.index}` : col.entry.name;
    const t = col.type;
    let headers = [name];
    const perSlot = format !== 'jsonl' && t.kind === 'vector' && t.size > 0 && t.size <= MAX_SLOT_COLUMNS && opts.vectors === 'columns';
    if (perSlot) {
      await reportFailedMetadata(file, col.entry.index, 'SlotNames', ctx);
      const slots = await file.metadataStrings(col.entry.index, 'SlotNames');
      headers = Array.from({ length: t.size }, (_, s) => `${name}[${slots?.[s] || s}]`);
    }
    const item = t.kind === 'vector' ? t.item : t;
    const keyValues = format !== 'jsonl' && opts.keys === 'values' && item.kind === 'key';
    if (keyValues) await reportFailedMetadata(file, col.entry.index, 'KeyValues', ctx);
    const keyNames = keyValues ? await file.metadataStrings(col.entry.index, 'KeyValues') : undefined;
    out.push({ col, name, type: t, headers, perSlot, keyNames });
  }
  return out;
}

/**
 * Quotes a CSV/TSV cell when it must be. A row that would be an empty line (one column, an empty
 * text) is written `""` instead: readers skip blank lines, so the row would be lost.
 */
function quoteCell(text: string, sep: string): string {
  return text.includes(sep) || text.includes('"') || text.includes('\n') || text.includes('\r') ? `"${text.replaceAll('"', '""')}"` : text;
}

function keyText(v: Value, names: readonly string[] | undefined): string | undefined {
  if (!names || v === null) return undefined;
  const raw = Number(v);
  return raw === 0 ? '' : names[raw - 1];
}

function cellsOf(v: Value, c: OutColumn): string[] {
  const t = c.type;
  if (t.kind !== 'vector') return [keyText(v, c.keyNames) ?? itemText(v, t)];
  if (c.perSlot) {
    if (v === null) return c.headers.map(() => '');
    return densify(v as VectorValue, defaultValue(t.item)).map((x) => keyText(x, c.keyNames) ?? itemText(x, t.item));
  }
  return [v === null ? '' : jsonOf(v, t)];
}

/**
 * Writes rows [from, to) in a text format. `write` receives UTF-8 pieces; the row count written
 * is returned.
 */
export async function writeRows(
  file: IdvFile,
  format: TextFormat,
  range: { from: number; to: number },
  opts: ExportOptions,
  write: (bytes: Uint8Array) => Promise<void>,
  ctx: TaskContext,
): Promise<{ rows: number; skipped: IdvColumn[] }> {
  const columns = await outColumns(file, format, opts, ctx);
  const skipped = file.columns.filter((c) => c.type.kind === 'dead');
  // Rows are bounded by the blocks that hold them; with no column to read, a damaged row count
  // (2^32 rows in a 300-byte file) would print empty rows for ever.
  if (columns.length === 0 && range.to > range.from) {
    throw new FormatError('corrupt', `${range.to - range.from} rows but no readable column to print them from`, IDV_HEADER.at('rowCount'));
  }
  const sep = format === 'csv' ? ',' : '\t';
  let text = '';
  const flush = async () => {
    if (text.length === 0) return;
    await write(encoder.encode(text));
    text = '';
  };
  if (format !== 'jsonl') text += `${columns.flatMap((c) => c.headers.map((h) => quoteCell(h, sep))).join(sep)}\n`;
  const names = columns.map((c) => JSON.stringify(c.name));
  const indices = columns.map((c) => c.col.entry.index);
  let rows = 0;
  const total = range.to - range.from;
  const reported = new Set<string>();
  const end = Math.max(range.from, rowsWithLookup(file, indices, range.to));
  for await (const w of file.windows(range.from, end, opts.reading, ctx.signal, indices)) {
    throwIfAborted(ctx.signal);
    // Before any of the window's rows leave: strict stops here (the intact rows before it go
    // out first), salvage goes on with nulls.
    if (w.failed.length > 0) {
      await flush();
      await reportFailedBlocks(file, w, range, reported, ctx);
    }
    const salvaged = new Set(w.failed.map((f) => f.error));
    for (let r = w.from; r < w.from + w.count; r++) {
      const values = columns.map((c) => {
        const got = w.value(c.col.entry.index, r);
        if (!(got instanceof FormatError)) return got.value;
        // A reported block's cells are null, so the row stays whole; any other error stops the read.
        if (salvaged.has(got)) return null;
        throw got;
      });
      if (format === 'jsonl') text += `{${values.map((v, k) => `${names[k]}:${jsonOf(v, columns[k]!.type)}`).join(',')}}\n`;
      else text += `${values.flatMap((v, k) => cellsOf(v, columns[k]!).map((x) => quoteCell(x, sep))).join(sep) || '""'}\n`;
      if (text.length >= FLUSH_CHARS) await flush();
    }
    rows += w.count;
    ctx.progress?.({ done: rows, total, message: 'rows written' });
  }
  await flush();
  if (end < range.to) reportRowsPastLookup(file, end, range.to, ctx);
  return { rows, skipped };
}

/** `tocError`: the table of contents did not read, so nothing can be written (a damaged unit). */
export function catSpec(file: IdvFile, tocError?: FormatError): CatSpec {
  return {
    formats: ['jsonl', 'tsv', 'csv'],
    async run(format: CatFormat, range, out: ByteSink, ctx) {
      if (tocError) return reportUnreadableToc(file, tocError, ctx);
      const from = Math.min(range.from ?? 0, file.rowCount);
      const to = range.count === undefined ? file.rowCount : Math.min(file.rowCount, from + range.count);
      const opts = exportOptions(file, range.options ?? {});
      await writeRows(file, format as TextFormat, { from, to }, opts, (b) => out.write(b), ctx);
    },
  };
}

function exportOptions(file: IdvFile, o: OptionValues): ExportOptions {
  const modern = o.modern === true || o.modern === 'true' || o.reading === 'modern';
  return {
    reading: o.reading === 'legacy' ? 'legacy' : file.defaultReading(modern),
    vectors: o.vectors === 'json' ? 'json' : 'columns',
    keys: o.keys === 'values' ? 'values' : 'raw',
  };
}

function options(file: IdvFile, format: TextFormat): OptionSpec[] {
  const out: OptionSpec[] = [];
  if (file.legacy) {
    out.push(choiceParam('reading', 'Legacy NA values', { legacy: 'missing (as ML.NET ≤ 0.5 wrote them)', modern: "as today's ML.NET reads them" }));
  }
  if (format === 'jsonl') return out;
  const hasVectors = file.columns.some((c) => c.type.kind === 'vector');
  const hasKeys = file.columns.some((c) => c.type.kind !== 'dead' && (c.type.kind === 'vector' ? c.type.item : c.type).kind === 'key');
  if (hasVectors) {
    out.push(choiceParam('vectors', 'Fixed-size vectors', { columns: 'a column per slot, headed name[slot name]', json: 'one cell holding the JSON vector' }));
  }
  if (hasKeys) {
    out.push(choiceParam('keys', 'Keys', { raw: 'raw integers (0 = missing)', values: 'their KeyValues text, where the column has them' }));
  }
  return out;
}

const LABELS: Record<TextFormat, string> = {
  jsonl: 'JSON Lines (one object per row)',
  csv: 'CSV (comma-separated, header row)',
  tsv: 'TSV (tab-separated, header row)',
};

export function converters(file: IdvFile, tocError?: FormatError): Converter[] {
  return (['jsonl', 'csv', 'tsv'] as const).map((format) => ({
    id: format,
    label: LABELS[format],
    extension: `.${format}`,
    output: 'file' as const,
    options: options(file, format),
    async run(target, ctx, values) {
      if (tocError) reportUnreadableToc(file, tocError, ctx);
      const sink = await target.file();
      if (tocError) return { summary: `nothing written as ${format.toUpperCase()}: the table of contents is unreadable` };
      const { rows, skipped } = await writeRows(file, format, { from: 0, to: file.rowCount }, exportOptions(file, values), (b) => sink.write(b), ctx);
      return {
        summary: `${rows} rows written as ${format.toUpperCase()}`,
        warnings: skipped.map((c) => `column ${c.entry.index} (${c.entry.name}) is unreadable and was left out: ${(c.type as { reason: string }).reason}`),
      };
    },
  }));
}
