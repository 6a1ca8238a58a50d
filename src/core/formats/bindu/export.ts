import { FormatError, throwIfAborted } from '../../errors.js';
import { yieldToEventLoop } from '../../io/scan.js';
import type { ByteSink, TaskContext } from '../../model.js';
import { ChunkReader, type ColumnView } from './columns.js';
import type { Container } from './container.js';
import { FileFlag, frameTypeName } from './model.js';
import { notUnderstood } from './verify.js';
import { jsonValue, textValue, type Value } from './values.js';

/**
 * Decoded rows out: the JSONL and CSV of `binlens cat` and of the conversions, and the original
 * bytes of a byte stream. Decoding is strict here (spec C.2): a critical unknown frame or a
 * column this reader can only describe stops it, where the viewer would go on.
 */
export function strictDecodeError(c: Container, views: readonly ColumnView[]): FormatError | undefined {
  const critical = c.frames.find((f) => notUnderstood(f) && !(f.flags & 1));
  if (critical) return new FormatError('unsupported', `${frameTypeName(critical.type)} frame is critical and not understood: decoding stops`, { offset: critical.offset, field: 'frame type' });
  const problem = [...c.problems.entries()][0];
  if (problem) return problem[1];
  const v = views.find((x) => x.undecodable);
  if (v) return new FormatError('unsupported', `column "${v.column.name}": ${v.undecodable}`, { offset: v.column.frame.offset, field: 'codec chain' });
  if (c.walkStop) return c.walkStop;
  return undefined;
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

const ROWS_PER_BATCH = 4096;

/** Rows [from, from + count) in batches, decoding each needed chunk once. */
export async function* rowBatches(reader: ChunkReader, views: readonly ColumnView[], from: number, count: number, ctx: TaskContext): AsyncIterable<Value[][]> {
  const end = Math.min(rowCountOf(views), from + count);
  for (let at = from; at < end; at += ROWS_PER_BATCH) {
    throwIfAborted(ctx.signal);
    const n = Math.min(ROWS_PER_BATCH, end - at);
    const columns = await Promise.all(views.map((v) => reader.range(v, at, n)));
    yield Array.from({ length: n }, (_, i) => columns.map((c) => c[i] ?? null));
    ctx.progress?.({ done: at + n - from, total: end - from, message: 'rows' });
    await yieldToEventLoop();
  }
}

/** RFC 4180 quoting, plus `""` for an empty string so that it stays apart from a null (an empty field). */
export function csvField(v: Value): string {
  if (v === null) return '';
  const s = textValue(v);
  return s === '' || /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export type RowFormat = 'jsonl' | 'csv';

export async function writeRows(format: RowFormat, c: Container, views: readonly ColumnView[], reader: ChunkReader, range: { from?: number; count?: number }, sink: ByteSink, ctx: TaskContext): Promise<number> {
  const strict = strictDecodeError(c, views);
  if (strict) throw strict;
  const names = outputNames(views);
  const enc = new TextEncoder();
  if (format === 'csv') await sink.write(enc.encode(`${names.map((n) => csvField(n)).join(',')}\n`));
  let rows = 0;
  for await (const batch of rowBatches(reader, views, range.from ?? 0, range.count ?? Number.MAX_SAFE_INTEGER, ctx)) {
    let text = '';
    for (const row of batch) {
      text += format === 'csv' ? `${row.map(csvField).join(',')}\n` : `${JSON.stringify(Object.fromEntries(row.map((v, i) => [names[i]!, jsonValue(v)])))}\n`;
    }
    rows += batch.length;
    await sink.write(enc.encode(text));
  }
  return rows;
}

export function isByteStream(c: Container): boolean {
  return c.header !== undefined && (c.header.fileFlags & FileFlag.ByteStream) !== 0n && c.columns[0]?.type.code === 'BYTES';
}

/** The original input of a BYTE_STREAM file: column 0's rows, concatenated. */
export async function writeByteStream(c: Container, views: readonly ColumnView[], reader: ChunkReader, sink: ByteSink, ctx: TaskContext): Promise<number> {
  if (!isByteStream(c)) throw new FormatError('unsupported', 'not a BYTE_STREAM file: only byte streams have raw content', { offset: c.preamble.size, field: 'file flags' });
  const strict = strictDecodeError(c, views);
  if (strict) throw strict;
  const v = views[0]!;
  let bytes = 0;
  for (const chunk of v.column.chunks) {
    throwIfAborted(ctx.signal);
    for (const value of await reader.chunk(v, chunk)) {
      if (!(value instanceof Uint8Array)) throw new FormatError('corrupt', 'a null in a byte stream', { offset: chunk.blobOffset, field: 'validity bitmap' });
      await sink.write(value);
      bytes += value.length;
    }
    ctx.progress?.({ done: chunk.index + 1, total: v.column.chunks.length, message: 'bytes' });
  }
  return bytes;
}
