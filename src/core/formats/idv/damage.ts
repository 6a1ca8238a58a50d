/**
 * The integrity rule (../../integrity.ts) for dataviews. No checksum covers an IDV block, so the
 * checks that can find damage are the codec's own (inflated length against the lookup entry,
 * counts, text boundaries, vector shapes, spec §12 item 15): a block that fails them is a
 * damaged unit. Each is reported once, before any row it holds is written; salvage then writes
 * its cells as null so that every row stays whole. The other units a read path can meet: the
 * metadata CSV/TSV headers and key names come from, an unreadable table of contents (nothing to
 * write), and rows a damaged row count claims beyond every lookup table.
 */
import type { FormatError } from '../../errors.js';
import { type Damage, damageFrom, reportDamage } from '../../integrity.js';
import type { ByteRange, TaskContext } from '../../model.js';
import type { FailedBlock, IdvFile, RowWindow } from './file.js';
import { IDV_HEADER, LOOKUP_ENTRY_BYTES, blockCount } from './model.js';

/**
 * A FormatError that means the bytes are damaged. A safety cap or a feature this reader lacks is
 * not damage (the CLI contract maps those to "unreadable"), so those still stop a read as they are.
 */
export function isDamage(e: FormatError): boolean {
  return e.code !== 'unsupported' && e.code !== 'limit' && e.code !== 'cancelled';
}

/** The block's stored bytes as its lookup entry gives them; none when the entry itself is unreadable or absurd. */
async function storedRange(file: IdvFile, f: FailedBlock): Promise<ByteRange | undefined> {
  try {
    const e = await file.blocks.lookup(file.columns[f.column]!.entry, f.block);
    return e.offset >= 0 && e.storedLength >= 0 ? { offset: e.offset, length: e.storedLength } : undefined;
  } catch {
    return undefined;
  }
}

/** A failed block as a damaged unit: its bytes, and the rows of `span` (the rows being written) it held. */
export async function blockDamage(file: IdvFile, f: FailedBlock, span: { readonly from: number; readonly to: number }): Promise<Damage> {
  const from = Math.max(f.firstRow, span.from);
  const to = Math.min(f.firstRow + f.rows, span.to);
  const unit = `block ${f.block} of column ${f.column} (${file.columns[f.column]!.entry.name})`;
  return damageFrom(unit, f.error, { range: await storedRange(file, f), rows: { from, count: Math.max(0, to - from) } });
}

/**
 * Reports the window's failed blocks, each once across windows (`seen`). Strict, the first one
 * throws; salvaging, the caller writes their cells as null. Errors that are not damage stop the
 * read in both modes.
 */
export async function reportFailedBlocks(
  file: IdvFile,
  w: RowWindow,
  span: { readonly from: number; readonly to: number },
  seen: Set<string>,
  ctx: TaskContext,
): Promise<void> {
  for (const f of w.failed) {
    const key = `${f.column}:${f.block}`;
    if (seen.has(key)) continue;
    if (!isDamage(f.error)) throw f.error;
    seen.add(key);
    reportDamage(ctx, await blockDamage(file, f, span));
  }
}

/**
 * Reports a column's metadata of `kind` (SlotNames, KeyValues) when a read path is about to
 * write it (CSV/TSV headers, key names) and it failed to decode, or the column's metadata table
 * did. Salvaging, the caller writes what it writes without them (slot indices, raw keys).
 */
export async function reportFailedMetadata(file: IdvFile, index: number, kind: string, ctx: TaskContext): Promise<void> {
  const c = file.columns[index]!.entry;
  const meta = await file.columnMetadata(index);
  const item = meta.items.find((m) => m.entry.kind === kind);
  const error = meta.error ?? item?.error;
  if (!error || !isDamage(error)) return;
  const range = item ? { offset: item.entry.blockOffset, length: item.entry.blockSize } : undefined;
  const unit = meta.error ? `metadata of column ${index} (${c.name})` : `metadata ${kind} of column ${index} (${c.name})`;
  reportDamage(ctx, damageFrom(unit, error, range ? { range } : {}));
}

/**
 * A table of contents that does not read leaves no column to read: the whole table is one
 * damaged unit holding every row. Strict, this throws; salvaging, the caller writes nothing.
 */
export function reportUnreadableToc(file: IdvFile, e: FormatError, ctx: TaskContext): void {
  if (!isDamage(e)) throw e;
  const h = file.header;
  const range = h.tailOffset > h.tocOffset && h.tocOffset >= 0 ? { offset: h.tocOffset, length: h.tailOffset - h.tocOffset } : undefined;
  reportDamage(ctx, damageFrom('table of contents', e, { ...(range ? { range } : {}), rows: { from: 0, count: h.rowCount } }));
}

/**
 * The end of the rows that some column read has a lookup entry for inside the file. A damaged
 * row count (or rows per block) can claim 2^50 rows in a small file: past this end no column
 * holds anything, so salvage leaves those rows out as one unit instead of writing null rows for
 * ever. Rows where only some columns lack an entry stay, with those blocks reported one by one.
 */
export function rowsWithLookup(file: IdvFile, columns: readonly number[], to: number): number {
  let end = 0;
  for (const i of columns) {
    const c = file.columns[i]!.entry;
    if (c.rowsPerBlock <= 0 || blockCount(file.rowCount, c.rowsPerBlock) === 0) return to;
    const entries = Math.max(0, Math.floor((file.src.size - c.lookupOffset) / LOOKUP_ENTRY_BYTES));
    end = Math.max(end, entries * c.rowsPerBlock);
    if (end >= to) return to;
  }
  return columns.length === 0 ? to : end;
}

/** Reports rows [from, to) that no column's lookup table reaches (see rowsWithLookup). */
export function reportRowsPastLookup(file: IdvFile, from: number, to: number, ctx: TaskContext): void {
  const detail = `the header declares ${file.rowCount} rows, but no column's lookup table has entries for these inside the file (${file.src.size} bytes): the row count or the lookup tables are damaged`;
  reportDamage(ctx, { unit: `rows ${from}–${to - 1}`, detail, offset: IDV_HEADER.offset('rowCount'), rows: { from, count: to - from }, code: 'truncated' });
}
