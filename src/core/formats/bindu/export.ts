import { FormatError, throwIfAborted } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { ByteSink, TaskContext } from '../../model.js';
import type { FrameChecks } from './checks.js';
import type { ChunkReader, ColumnView } from './columns.js';
import type { Container } from './container.js';
import { FileFlag, type ChunkEntry } from './model.js';
import { chunkValues, planRead, planRows, reportEnd } from './readPlan.js';
import { jsonValue, textValue, type Value } from './values.js';

/**
 * Decoded rows out: the JSONL and CSV of `binlens cat` and of the conversions, and the original
 * bytes of a byte stream. What may leave, and what is reported instead, is decided by
 * `planRead` (readPlan.ts) before the first row.
 */
export interface Readable {
  readonly src: ByteSource;
  readonly c: Container;
  readonly views: readonly ColumnView[];
  readonly reader: ChunkReader;
  readonly checks: FrameChecks;
}

/** Output names: dotted leaf names; a repeated name keeps it on the last column, earlier ones become `name#id`. */
export function outputNames(views: readonly ColumnView[]): string[] {
  return views.map((v, i) => {
    const name = v.column.name || `#${v.column.id}`;
    return views.slice(i + 1).some((w) => w.column.name === v.column.name) ? `${name}#${v.column.id}` : name;
  });
}

export function rowCountOf(views: readonly ColumnView[]): number {
  return views.reduce((n, v) => Math.max(n, v.column.rowCount), 0);
}

/** RFC 4180 quoting, plus `""` for an empty string so that it stays apart from a null (an empty field). */
export function csvField(v: Value): string {
  if (v === null) return '';
  const s = textValue(v);
  return s === '' || /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export type RowFormat = 'jsonl' | 'csv';

/** Writes the rows; says how many rows and columns went out (a describe-only column is left out). */
export async function writeRows(
  format: RowFormat,
  r: Readable,
  range: { from?: number; count?: number },
  sink: ByteSink,
  ctx: TaskContext,
): Promise<{ rows: number; columns: number }> {
  const plan = await planRead(r.c, r.views, r.checks, ctx);
  const names = plan.columns.map((col) => col.name);
  const enc = new TextEncoder();
  if (format === 'csv') await sink.write(enc.encode(`${names.map((n) => csvField(n)).join(',')}\n`));
  let rows = 0;
  for await (const batch of planRows(plan, r.reader, range.from ?? 0, range.count ?? Number.MAX_SAFE_INTEGER, ctx)) {
    let text = '';
    for (const row of batch) {
      text += format === 'csv' ? `${row.map(csvField).join(',')}\n` : `${JSON.stringify(Object.fromEntries(row.map((v, i) => [names[i]!, jsonValue(v)])))}\n`;
    }
    rows += batch.length;
    await sink.write(enc.encode(text));
  }
  reportEnd(r.c, r.src.size, ctx);
  return { rows, columns: names.length };
}

export function isByteStream(c: Container): boolean {
  return c.header !== undefined && (c.header.fileFlags & FileFlag.ByteStream) !== 0n && c.columns[0]?.type.code === 'BYTES';
}

/** The original input of a BYTE_STREAM file: column 0's rows, concatenated; a damaged chunk is left out (salvage) or stops it. */
export async function writeByteStream(r: Readable, sink: ByteSink, ctx: TaskContext): Promise<number> {
  const { c, views, reader } = r;
  if (!isByteStream(c))
    throw new FormatError('unsupported', 'not a BYTE_STREAM file: only byte streams have raw content', { offset: c.preamble.size, field: 'file flags' });
  const plan = await planRead(c, views, r.checks, ctx);
  const v = views[0]!;
  const col = plan.columns.find((x) => x.view === v);
  if (!col)
    throw new FormatError('unsupported', `column 0 "${v.column.name}": ${v.undecodable ?? 'not decodable'}`, {
      offset: v.column.frame.offset,
      field: 'codec chain',
    });
  let bytes = 0;
  const reported = new Set<ChunkEntry>();
  for (const chunk of col.damaged ? [] : v.column.chunks) {
    throwIfAborted(ctx.signal);
    const values = await chunkValues(
      col.name,
      chunk,
      async () => {
        const got = await reader.chunk(v, chunk);
        if (got.some((x) => !(x instanceof Uint8Array)))
          throw new FormatError('corrupt', 'a null in a byte stream', { offset: chunk.blobOffset, field: 'validity bitmap' });
        return got as Uint8Array[];
      },
      reported,
      ctx,
    );
    for (const value of values ?? []) {
      await sink.write(value);
      bytes += value.length;
    }
    ctx.progress?.({ done: chunk.index + 1, total: v.column.chunks.length, message: 'bytes' });
  }
  reportEnd(c, r.src.size, ctx);
  return bytes;
}
