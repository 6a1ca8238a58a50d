/**
 * Verification (spec §12): everything BinaryLoader checks, as failures where it rejects a file
 * and warnings where it only warns or does not look, then every block inflated and decoded,
 * value ranges .NET cannot represent, and the region checks Binlens adds (overlaps, the TOC
 * ending at the tail, index counts, trailing bytes, invalid UTF-8).
 */
import { fail, failFrom, pass, plural, warn } from '../../describe.js';
import { FormatError, rethrowUnlessFormatError, throwIfAborted } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { yieldToEventLoop } from '../../io/scan.js';
import type { Check, TaskContext } from '../../model.js';
import type { IdvColumn } from './blocks.js';
import type { ColumnType } from './columnType.js';
import type { IdvFile } from './file.js';
import { MAX_DATETIME_TICKS } from './format.js';
import { HEADER_BYTES, IDV_HEADER as H, type IdvHeader, LOOKUP_ENTRY_BYTES, compareVersion, versionText } from './model.js';
import type { BlockValues, ItemValues } from './payload.js';

const MIN_VERSION = [1, 1, 1, 2] as const;
const MIN_COMPAT = [1, 1, 1, 4] as const;
const MAX_COMPAT = [1, 1, 1, 6] as const;
/** Findings of one kind per column before the rest are summed up in one line. */
const MAX_FINDINGS = 20;

/** BinaryLoader's header rules (spec §12, items 1–8). */
export function headerChecks(h: IdvHeader, src: ByteSource, tailOk: boolean): Check[] {
  const out: Check[] = [];
  if (compareVersion(h.compatibleVersion, h.version) > 0)
    out.push(
      fail(
        'version',
        `compatible version ${versionText(h.compatibleVersion)} is newer than the version ${versionText(h.version)}`,
        H.offset('compatibleVersion'),
        H.name('compatibleVersion'),
      ),
    );
  else if (compareVersion(h.version, MIN_VERSION) < 0)
    out.push(fail('version', `version ${versionText(h.version)} is older than 1.1.1.2 (corrupt or unknown)`, H.offset('version'), H.name('version')));
  else if (compareVersion(h.compatibleVersion, MIN_COMPAT) < 0 || compareVersion(h.compatibleVersion, MAX_COMPAT) > 0) {
    out.push(
      fail(
        'version',
        `compatible version ${versionText(h.compatibleVersion)} is outside 1.1.1.4 – 1.1.1.6 (unsupported)`,
        H.offset('compatibleVersion'),
        H.name('compatibleVersion'),
      ),
    );
  } else out.push(pass('version', `version ${versionText(h.version)}, compatible ${versionText(h.compatibleVersion)}`, H.offset('version')));
  if (h.rowCount < 0) out.push(fail('row count', `negative row count ${h.rowCount}`, H.offset('rowCount'), H.name('rowCount')));
  if (h.columnCount < 0) out.push(fail('column count', `negative column count ${h.columnCount}`, H.offset('columnCount'), H.name('columnCount')));
  if (h.columnCount > 0 && h.tocOffset < HEADER_BYTES)
    out.push(fail('table of contents', `offset ${h.tocOffset} is inside the header`, H.offset('tocOffset'), H.name('tocOffset')));
  out.push(
    tailOk
      ? pass('tail signature', `at ${h.tailOffset}`, h.tailOffset)
      : fail('tail signature', `missing or wrong at ${h.tailOffset}`, h.tailOffset, 'tail offset'),
  );
  if (tailOk && src.size > h.tailOffset + 8)
    out.push(warn('file length', `${src.size - h.tailOffset - 8} bytes after the tail signature (legal but unusual)`, h.tailOffset + 8));
  return out;
}

interface Region {
  readonly start: number;
  readonly end: number;
  readonly what: string;
}

export async function* verifyIdv(file: IdvFile, tailOk: boolean, tocError: FormatError | undefined, ctx: TaskContext): AsyncGenerator<Check> {
  const h = file.header;
  yield* headerChecks(h, file.src, tailOk);
  if (tocError) {
    yield failFrom('table of contents', tocError);
    return;
  }
  const regions: Region[] = [{ start: 0, end: HEADER_BYTES, what: 'header' }];
  const cols = file.columns;
  if (cols.length > 0) {
    const first = cols[0]!.entry;
    const last = cols[cols.length - 1]!.entry;
    const tocEnd = last.offset + last.length;
    regions.push({ start: first.offset, end: tocEnd, what: 'table of contents' });
    if (tailOk && tocEnd !== h.tailOffset)
      yield warn('table of contents', `ends at ${tocEnd}, not at the tail signature (${h.tailOffset}); ML.NET always writes them back to back`, tocEnd);
  }
  const rpb = new Set(cols.filter((c) => c.type.kind !== 'dead').map((c) => c.entry.rowsPerBlock));
  if (rpb.size > 1)
    yield fail(
      'rows per block',
      `columns use different rows per block (${[...rpb].join(', ')}): ML.NET does not support it`,
      cols[0]?.entry.offset,
      'rows per block',
    );

  const totalBlocks = cols.reduce((n, c) => n + (c.type.kind === 'dead' ? 0 : file.blocks.blocks(c.entry)), 0);
  let blocksDone = 0;
  let complete = 0;
  for (const col of cols) {
    const found: Check[] = [];
    const blocks = { failed: 0 };
    for await (const c of verifyColumn(file, col, regions, ctx, blocks, () =>
      ctx.progress?.({ done: ++blocksDone, total: totalBlocks, message: 'decoding blocks' }),
    ))
      found.push(c);
    yield* capped(found, `column ${col.entry.index} (${col.entry.name})`);
    if (col.type.kind !== 'dead' && blocks.failed === 0) complete++;
  }
  yield* overlaps(regions);
  const readable = cols.filter((c) => c.type.kind !== 'dead').length;
  if (complete === readable) {
    yield pass(
      'blocks',
      `${plural(totalBlocks, 'block')} inflate to their recorded lengths and decode; every readable column holds ${plural(h.rowCount, 'row')}`,
    );
  } else {
    yield fail('blocks', `${complete} of ${readable} readable columns decode completely`);
  }
}

function* capped(found: readonly Check[], what: string): Generator<Check> {
  let fails = 0;
  let warns = 0;
  for (const c of found) {
    const n = c.status === 'fail' ? ++fails : c.status === 'warn' ? ++warns : 0;
    if (n <= MAX_FINDINGS) yield c;
  }
  if (fails > MAX_FINDINGS) yield fail(what, `${fails - MAX_FINDINGS} more failures not listed`);
  if (warns > MAX_FINDINGS) yield warn(what, `${warns - MAX_FINDINGS} more warnings not listed`);
}

/** Checks one column; `blocks.failed` counts the blocks (and lookup entries) that could not be read. */
async function* verifyColumn(
  file: IdvFile,
  col: IdvColumn,
  regions: Region[],
  ctx: TaskContext,
  blocks: { failed: number },
  tick: () => void,
): AsyncGenerator<Check> {
  const h = file.header;
  const c = col.entry;
  const what = `column ${c.index} (${c.name})`;
  if (col.type.kind === 'dead') {
    const t = col.type;
    yield t.rejected
      ? fail(what, `unreadable, and ML.NET refuses the file: ${t.reason}`, c.codec.offset, 'codec')
      : warn(what, `unreadable, ML.NET skips it: ${t.reason}`, c.codec.offset);
  }
  for (const note of col.notes) yield fail(what, note, c.codec.offset, 'codec');
  if (col.type.kind !== 'dead' && h.rowCount > 0 && c.rowsPerBlock <= 0) {
    blocks.failed++;
    yield fail(what, `rows per block ${c.rowsPerBlock} (must be positive)`, c.offset, 'rows per block');
    return;
  }
  if (c.metadataTocOffset !== 0 && (c.metadataTocOffset < HEADER_BYTES || c.metadataTocOffset > h.tailOffset)) {
    yield fail(what, `metadata offset ${c.metadataTocOffset} is outside [256, tail]`, c.offset + c.length - 8, 'metadata offset');
  } else if (c.metadataTocOffset !== 0 || c.slotNames) {
    yield* verifyMetadata(file, col, regions);
  }
  if (col.type.kind === 'dead') return;
  const nBlocks = file.blocks.blocks(c);
  if (h.rowCount > 0 && (c.lookupOffset < HEADER_BYTES || c.lookupOffset > h.tailOffset - LOOKUP_ENTRY_BYTES * nBlocks)) {
    blocks.failed++;
    yield fail(what, `lookup table at ${c.lookupOffset} (${plural(nBlocks, 'block')}) is outside [256, tail]`, c.offset + c.length - 16, 'lookup table offset');
    return;
  }
  if (nBlocks > 0) regions.push({ start: c.lookupOffset, end: c.lookupOffset + LOOKUP_ENTRY_BYTES * nBlocks, what: `${what} lookup table` });
  for (let b = 0; b < nBlocks; b++) {
    throwIfAborted(ctx.signal);
    if (b % 16 === 15) await yieldToEventLoop();
    tick();
    const at = c.lookupOffset + LOOKUP_ENTRY_BYTES * b;
    let entry;
    try {
      entry = await file.blocks.lookup(c, b);
    } catch (e) {
      blocks.failed++;
      yield failFrom(what, e);
      return;
    }
    if (entry.storedLength < 0 || entry.decompressedLength < 0 || entry.offset < HEADER_BYTES || entry.offset > h.tailOffset - entry.storedLength) {
      blocks.failed++;
      yield fail(what, `block ${b}: ${entry.storedLength} bytes at ${entry.offset} are outside [256, tail] or negative`, at, 'lookup entry');
      continue;
    }
    regions.push({ start: entry.offset, end: entry.offset + entry.storedLength, what: `${what} block ${b}` });
    if (c.compression === 0 && entry.storedLength !== entry.decompressedLength)
      yield warn(what, `block ${b} is stored uncompressed but declares ${entry.decompressedLength} bytes for ${entry.storedLength} stored`, at);
    try {
      const block = await file.blocks.decoded(col, b, ctx.signal);
      if (block.longer)
        yield warn(what, `block ${b} inflates to more than the ${entry.decompressedLength} bytes declared (ML.NET ignores the extra)`, entry.offset);
      if (block.trailing > 0) yield warn(what, `block ${b}: ${block.trailing} bytes after the values (ML.NET ignores them)`, entry.offset);
      for (const note of block.notes) yield warn(what, `block ${b}: ${note}`, entry.offset);
      const bad = unrepresentable(block.values, col.type as ColumnType);
      if (bad) blocks.failed++;
      if (bad)
        yield fail(
          what,
          `block ${b}, value ${bad.index} (row ${block.firstRow + bad.index}): ${bad.detail}; .NET throws when reading it`,
          entry.offset,
          'value',
        );
    } catch (e) {
      rethrowUnlessFormatError(e, 'cancelled');
      blocks.failed++;
      yield failFrom(what, e);
    }
  }
}

async function* verifyMetadata(file: IdvFile, col: IdvColumn, regions: Region[]): AsyncGenerator<Check> {
  const c = col.entry;
  const what = `column ${c.index} (${c.name}) metadata`;
  const meta = await file.columnMetadata(c.index);
  if (meta.error) {
    yield failFrom(what, meta.error);
    return;
  }
  if (c.slotNames) {
    // 1.1.1.3: one area of slot names, no metadata table.
    const area = c.slotNames;
    if (area.offset < HEADER_BYTES || area.offset + area.byteSize > file.header.tailOffset)
      yield fail(what, `slot names: ${area.byteSize} bytes at ${area.offset} are outside [256, tail]`, c.offset + c.length - 20, 'slot names offset');
    else regions.push({ start: area.offset, end: area.offset + area.byteSize, what: `${what} slot names` });
    return;
  }
  const last = meta.items[meta.items.length - 1]?.entry;
  regions.push({ start: c.metadataTocOffset, end: last ? last.offset + last.length : c.metadataTocOffset + 1, what: `${what} table` });
  for (const m of meta.items) {
    const e = m.entry;
    if (e.blockSize <= 0 || e.blockOffset < HEADER_BYTES || e.blockOffset + e.blockSize > file.header.tailOffset) {
      yield fail(what, `${e.kind}: ${e.blockSize} bytes at ${e.blockOffset} are outside [256, tail]`, e.offset, 'metadata block');
      continue;
    }
    regions.push({ start: e.blockOffset, end: e.blockOffset + e.blockSize, what: `${what} ${e.kind}` });
    if (!m.error) continue;
    // Unknown codecs and compressions are dead metadata: ML.NET warns and goes on.
    if (m.error.code === 'unsupported') yield warn(what, `${e.kind} is unreadable, ML.NET skips it: ${m.error.detail}`, e.offset);
    else yield failFrom(what, m.error);
  }
}

/** Values .NET cannot construct (spec §12.16): DateTime ticks out of range, offsets beyond ±14 h. */
function unrepresentable(values: BlockValues, t: ColumnType): { index: number; detail: string } | undefined {
  const item = t.kind === 'vector' ? t.item : t;
  const items: ItemValues = values.kind === 'vector' ? values.items : values;
  if (item.kind !== 'scalar') return undefined;
  const LONG_MIN = -(1n << 63n);
  if (item.scalar === 'dt' && items.kind === 'bigint') {
    for (let i = 0; i < items.values.length; i++) {
      const v = items.values[i]!;
      if (v !== LONG_MIN && (v < 0n || v > MAX_DATETIME_TICKS)) return { index: i, detail: `DateTime ticks ${v} are outside 0 … ${MAX_DATETIME_TICKS}` };
    }
  }
  if (item.scalar === 'dz' && items.kind === 'dz') {
    for (let i = 0; i < items.ticks.length; i++) {
      const v = items.ticks[i]!;
      const o = items.offsets[i]!;
      if (v === LONG_MIN) continue;
      if (v < 0n || v > MAX_DATETIME_TICKS) return { index: i, detail: `DateTimeOffset ticks ${v} are outside 0 … ${MAX_DATETIME_TICKS}` };
      if (o !== -32768 && Math.abs(o) > 14 * 60) return { index: i, detail: `offset ${o} minutes is beyond ±14 hours` };
    }
  }
  return undefined;
}

function* overlaps(regions: Region[]): Generator<Check> {
  const sorted = regions.filter((r) => r.end > r.start).sort((a, b) => a.start - b.start || a.end - b.end);
  let reported = 0;
  let furthest: Region | undefined;
  for (const r of sorted) {
    if (furthest && r.start < furthest.end) {
      if (++reported <= MAX_FINDINGS)
        yield warn('regions', `${r.what} (${r.start} … ${r.end}) overlaps ${furthest.what} (${furthest.start} … ${furthest.end})`, r.start);
    }
    if (!furthest || r.end > furthest.end) furthest = r;
  }
  if (reported > MAX_FINDINGS) yield warn('regions', `${reported - MAX_FINDINGS} more overlaps not listed`);
  if (reported === 0) yield pass('regions', `${plural(sorted.length, 'region')} (header, blocks, lookup tables, metadata, table of contents) do not overlap`);
}
