import { type Sha256, sha256Stream } from '../../codecs/sha256.js';
import { fail, failFrom, hexString, pass, plural } from '../../describe.js';
import { rethrowUnlessFormatError, throwIfAborted } from '../../errors.js';
import { yieldToEventLoop } from '../../io/scan.js';
import type { Check, TaskContext } from '../../model.js';
import { type BitPositions, bloomPositions, hasBits } from './bloom.js';
import type { ChunkReader, ColumnView } from './columns.js';
import type { Container } from './container.js';
import { type BloomIndex, type ChunkEntry, type ColumnFrame, FileFlag } from './model.js';
import { type Value, CanonicalExtremes, canonicalBytes, compareCanonical } from './values.js';

/**
 * The checks that need the values (deep verify): every chunk decodes, its stored min/max, the
 * Bloom filters and sorted indexes, and a byte stream's source digest agree with what it holds.
 */
export async function* decodeChecks(c: Container, views: readonly ColumnView[], reader: ChunkReader, ctx: TaskContext): AsyncIterable<Check> {
  const totalChunks = views.reduce((n, v) => n + v.column.chunks.length, 0);
  let done = 0;
  let failed = 0;
  const byteStream = c.header && c.header.fileFlags & FileFlag.ByteStream ? await sha256Stream() : undefined;
  for (const v of views) {
    const col = v.column;
    yield pass(
      'chunk index',
      `column ${col.id} "${col.name}": ${plural(col.chunks.length, 'chunk')} ${col.chunks.length === 1 ? 'holds' : 'hold'} ${col.rowCount} rows and fill the payload`,
      col.frame.offset,
    );
    if (v.undecodable) continue;
    const blooms = await Promise.all(
      c.blooms.filter((b) => b.column === col.id).map(async (b) => ({ b, positions: await bloomPositions(b.k, b.mBits), missing: 0 })),
    );
    const ranges = new Map<number, { min: Uint8Array; max: Uint8Array }>();
    for (const chunk of col.chunks) {
      throwIfAborted(ctx.signal);
      ctx.progress?.({ done: done++, total: totalChunks, message: `decoding ${col.name}` });
      let values;
      try {
        values = await reader.chunk(v, chunk);
      } catch (e) {
        rethrowUnlessFormatError(e);
        failed++;
        yield failFrom('decode', e);
        continue;
      }
      const { min, max } = scanChunk(col, chunk, values, blooms, col.id === 0 ? byteStream : undefined);
      if (min && max) ranges.set(chunk.index, { min, max });
      const stats = statsCheck(col, chunk, min, max);
      if (stats) {
        failed++;
        yield stats;
      }
      await yieldToEventLoop();
    }
    yield* indexChecks(c, col, blooms, ranges);
  }
  if (byteStream && c.header?.sourceDigest) yield sourceDigestCheck(byteStream.digest(), c.header.sourceDigest);
  if (failed === 0 && views.every((v) => !v.undecodable))
    yield pass('decode', `every chunk of ${plural(views.length, 'column')} decodes and matches its stats`);
}

/** A column's Bloom filter with the positions it hashes to and how many of the column's values it misses. */
interface BloomTally {
  readonly b: BloomIndex;
  readonly positions: BitPositions;
  missing: number;
}

/**
 * One pass over a chunk's decoded values: their least and greatest canonical bytes, each distinct
 * value asked of the column's Bloom filters, and (column 0 of a byte stream) the bytes hashed.
 */
function scanChunk(
  col: ColumnFrame,
  chunk: ChunkEntry,
  values: readonly Value[],
  blooms: readonly BloomTally[],
  byteStream: Sha256 | undefined,
): { min?: Uint8Array; max?: Uint8Array } {
  const extremes = new CanonicalExtremes(col.type);
  const seen = new Set<string>();
  for (const value of values) {
    if (value === null) continue;
    const b = canonicalBytes(col.type, value);
    extremes.add(b);
    byteStream?.update(b);
    // Without Bloom filters nothing asks which values are distinct.
    if (blooms.length === 0) continue;
    const key = hexString(b);
    if (seen.has(key)) continue;
    seen.add(key);
    for (const bl of blooms) {
      const filter = bl.b.granularity === 1 ? bl.b.filters[chunk.index] : bl.b.filters[0];
      if (!filter || !hasBits(filter, bl.positions(b))) bl.missing++;
    }
  }
  return { min: extremes.min, max: extremes.max };
}

/** The chunk's stored min/max against its values' (a failure, or undefined where they agree or the column keeps none). */
function statsCheck(col: ColumnFrame, chunk: ChunkEntry, min: Uint8Array | undefined, max: Uint8Array | undefined): Check | undefined {
  if (!col.hasStats) return undefined;
  const want = [hexString(min ?? new Uint8Array()), hexString(max ?? new Uint8Array())];
  if (hexString(chunk.min!) === want[0] && hexString(chunk.max!) === want[1]) return undefined;
  return fail(
    'chunk stats',
    `column ${col.id} "${col.name}" chunk ${chunk.index}: stored min/max ${hexString(chunk.min!)}/${hexString(chunk.max!)}, the values give ${want[0]}/${want[1]}`,
    col.frame.offset,
    'chunk stats',
  );
}

/** A column's Bloom filters and sorted indexes against its decoded values. */
function* indexChecks(
  c: Container,
  col: ColumnFrame,
  blooms: readonly BloomTally[],
  ranges: ReadonlyMap<number, { min: Uint8Array; max: Uint8Array }>,
): Iterable<Check> {
  for (const bl of blooms) {
    yield bl.missing === 0
      ? pass('Bloom filter', `column ${col.id} "${col.name}": every value answers "maybe"`, bl.b.offset)
      : fail(
          'Bloom filter',
          `column ${col.id} "${col.name}": ${plural(bl.missing, 'value')} answer "no" although the column holds them`,
          bl.b.offset,
          'filters',
        );
  }
  for (const s of c.sorted.filter((x) => x.column === col.id && x.ranges)) {
    const stored = s.ranges!.map((r) => `${r.chunk}:${hexString(r.min)}:${hexString(r.max)}`);
    const want = [...ranges.entries()]
      .sort((a, b) => compareCanonical(col.type, a[1].min, b[1].min) || a[0] - b[0])
      .map(([i, r]) => `${i}:${hexString(r.min)}:${hexString(r.max)}`);
    yield stored.join() === want.join()
      ? pass('sorted index', `column ${col.id} "${col.name}": ${plural(stored.length, 'chunk range')} match the values`, s.offset)
      : fail('sorted index', `column ${col.id} "${col.name}": the chunk ranges do not match the decoded values or their order`, s.offset, 'chunk ranges');
  }
}

function sourceDigestCheck(computed: Uint8Array, stored: Uint8Array): Check {
  return hexString(computed) === hexString(stored)
    ? pass('source digest', "SHA-256 of the stored bytes equals the original input's")
    : fail('source digest', `SHA-256 of the stored bytes is ${hexString(computed)}, the Header says ${hexString(stored)}`, undefined, 'source sha256');
}
