/**
 * Random access to column blocks (spec §8): row r of every column lives in block
 * floor(r / rowsPerBlock), found through the column's lookup table. Lookup entries are read in
 * chunks as pages need them; decoded blocks stay in a cache bounded by their decoded size, so
 * paging through a 100 GB file holds at most a few blocks per column.
 */
import { inflateRaw } from '../../codecs/deflate.js';
import { FormatError, throwIfAborted } from '../../errors.js';
import { readField, type ByteSource } from '../../io/byteSource.js';
import type { ColumnType, DeadType } from './columnType.js';
import { resolveType, typeNotes } from './columnType.js';
import { isDamage } from './damage.js';
import { type BlockEntry, type ColumnEntry, type IdvHeader, LOOKUP_ENTRY_BYTES, type MetadataEntry, blockCount } from './model.js';
import { type DecodedPayload, decodePayload } from './payload.js';
import { readLookupTable } from './toc.js';

/** A block may declare at most this many bytes after inflating (ML.NET aims at ~80 MiB). */
export const MAX_BLOCK_BYTES = 512 << 20;
/** Metadata blocks do not declare their inflated size; this caps it. */
export const MAX_METADATA_BYTES = 256 << 20;
/** Decoded blocks kept for paging, by decoded bytes. */
const CACHE_BYTES = 96 << 20;
const LOOKUP_CHUNK = 1024;

/** A TOC entry with what its codec means. */
export interface IdvColumn {
  readonly entry: ColumnEntry;
  readonly type: ColumnType | DeadType;
  /** Readable but unusual: things today's ML.NET refuses or treats specially. */
  readonly notes: readonly string[];
  /** An earlier column with the same name as a later one: ML.NET hides it (spec §11). */
  readonly shadowed: boolean;
}

export function describeColumns(entries: readonly ColumnEntry[]): IdvColumn[] {
  const lastOfName = new Map<string, number>();
  for (const e of entries) lastOfName.set(e.name, e.index);
  return entries.map((entry) => {
    let type = resolveType(entry.codec);
    if (type.kind !== 'dead' && entry.compression > 1)
      type = {
        kind: 'dead',
        reason: `unknown compression ${entry.compression}${entry.compression === 2 ? ' (zlib, never implemented by ML.NET)' : ''}`,
        rejected: false,
      };
    return { entry, type, notes: type.kind === 'dead' ? [] : typeNotes(entry.codec, type), shadowed: lastOfName.get(entry.name) !== entry.index };
  });
}

/** The bytes of one block after inflating, and how they compare with the lookup entry. */
export interface BlockBytes {
  readonly entry: BlockEntry;
  readonly payload: Uint8Array;
  /** The block inflated to more bytes than declared (ML.NET ignores the extra). */
  readonly longer: boolean;
}

export interface DecodedBlock extends DecodedPayload {
  readonly index: number;
  /** First row of the block. */
  readonly firstRow: number;
  readonly rows: number;
  readonly entry: BlockEntry;
  readonly longer: boolean;
}

/** A block some read found damaged: no checksum covers IDV blocks, so damage is a decode that fails (damage.ts). */
export interface DamagedBlock {
  readonly column: number;
  readonly block: number;
  readonly error: FormatError;
}

export class BlockReader {
  private readonly lookups = new Map<string, Promise<BlockEntry[]>>();
  private readonly cache = new Map<string, { size: number; block: Promise<DecodedBlock> }>();
  private cachedBytes = 0;
  /**
   * The damaged blocks the reads so far met (a table page, cat, verify, a panel), by "column:block":
   * the structure tree marks them. Blocks are not decoded at open to find them.
   */
  private readonly found = new Map<string, DamagedBlock>();

  constructor(
    private readonly src: ByteSource,
    private readonly header: IdvHeader,
  ) {}

  blocks(c: ColumnEntry): number {
    return blockCount(this.header.rowCount, c.rowsPerBlock);
  }

  /** Rows held by block `b` of a column. */
  rowsIn(c: ColumnEntry, b: number): number {
    return Math.min(c.rowsPerBlock, this.header.rowCount - b * c.rowsPerBlock);
  }

  async lookup(c: ColumnEntry, b: number): Promise<BlockEntry> {
    const n = this.blocks(c);
    if (b < 0 || b >= n) throw new FormatError('out-of-range', `block ${b} of ${n}`, { field: `column ${c.index} lookup table` });
    const chunk = Math.floor(b / LOOKUP_CHUNK);
    const key = `${c.index}:${chunk}`;
    let entries = this.lookups.get(key);
    if (!entries) {
      entries = readLookupTable(this.src, this.header, c, chunk * LOOKUP_CHUNK, LOOKUP_CHUNK);
      entries.catch(() => this.lookups.delete(key));
      this.lookups.set(key, entries);
    }
    return (await entries)[b % LOOKUP_CHUNK]!;
  }

  /** Reads and inflates block `b` of a column. */
  async bytes(c: ColumnEntry, b: number): Promise<BlockBytes> {
    const entry = await this.lookup(c, b);
    const field = `column ${c.index} block ${b}`;
    if (entry.storedLength < 0 || entry.decompressedLength < 0) {
      throw new FormatError('corrupt', `negative length (${entry.storedLength} stored, ${entry.decompressedLength} inflated)`, {
        offset: c.lookupOffset + b * LOOKUP_ENTRY_BYTES,
        field: `${field} lookup entry`,
      });
    }
    const stored = await readField(this.src, entry.offset, entry.storedLength, field);
    if (c.compression === 0) return { entry, payload: stored, longer: false };
    if (entry.decompressedLength > MAX_BLOCK_BYTES) {
      throw new FormatError('limit', `declares ${entry.decompressedLength} bytes after inflating, more than the ${MAX_BLOCK_BYTES} allowed`, {
        offset: entry.offset,
        field,
      });
    }
    const inflated = inflateRaw(stored, { maxSize: MAX_BLOCK_BYTES, expectedSize: entry.decompressedLength, offset: entry.offset, field });
    if (inflated.length < entry.decompressedLength) {
      throw new FormatError('truncated', `inflates to ${inflated.length} bytes but the lookup table declares ${entry.decompressedLength}`, {
        offset: entry.offset,
        field,
      });
    }
    return { entry, payload: inflated.subarray(0, entry.decompressedLength), longer: inflated.length > entry.decompressedLength };
  }

  /** Block `b` of a readable column, decoded (cached). */
  decoded(col: IdvColumn, b: number, signal?: AbortSignal): Promise<DecodedBlock> {
    throwIfAborted(signal);
    const key = `${col.entry.index}:${b}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit.block;
    }
    const block = this.decode(col, b);
    const slot = { size: 0, block };
    this.cache.set(key, slot);
    block.then(
      (d) => {
        if (this.cache.get(key) !== slot) return;
        slot.size = d.entry.decompressedLength * 2 + 64;
        this.cachedBytes += slot.size;
        this.evict();
      },
      (e: unknown) => {
        if (this.cache.get(key) === slot) this.cache.delete(key);
        if (e instanceof FormatError && isDamage(e)) this.found.set(key, { column: col.entry.index, block: b, error: e });
      },
    );
    return block;
  }

  /** Why block `b` of column `column` is damaged, when a read has found it so. */
  damageOf(column: number, b: number): FormatError | undefined {
    return this.found.get(`${column}:${b}`)?.error;
  }

  /** The damaged blocks found so far (of one column, else of all), in column then block order. */
  damaged(column?: number): DamagedBlock[] {
    return [...this.found.values()].filter((d) => column === undefined || d.column === column).sort((a, b) => a.column - b.column || a.block - b.block);
  }

  private async decode(col: IdvColumn, b: number): Promise<DecodedBlock> {
    const c = col.entry;
    if (col.type.kind === 'dead')
      throw new FormatError('unsupported', `column is unreadable: ${col.type.reason}`, { offset: c.codec.offset, field: `column ${c.index} codec` });
    const { entry, payload, longer } = await this.bytes(c, b);
    const rows = this.rowsIn(c, b);
    const origin = { offset: entry.offset, field: `column ${c.index} block ${b}${c.compression === 1 ? ' (inflated)' : ''}` };
    return { index: b, firstRow: b * c.rowsPerBlock, rows, entry, longer, ...decodePayload(col.type, payload, rows, origin) };
  }

  /** Decoded bytes of the blocks kept: the document's share of the viewer's memory budget. */
  get cacheBytes(): number {
    return this.cachedBytes;
  }

  /** Forgets the decoded blocks (a block being decoded finishes, but is not kept). */
  dropCache(): void {
    this.cache.clear();
    this.cachedBytes = 0;
  }

  private evict(): void {
    for (const [key, slot] of this.cache) {
      if (this.cachedBytes <= CACHE_BYTES || this.cache.size <= 1) break;
      if (slot.size === 0) continue;
      this.cache.delete(key);
      this.cachedBytes -= slot.size;
    }
  }
}

/** The decoded value of a metadata entry (a block holding one value, spec §10). */
export async function readMetadataValue(src: ByteSource, m: MetadataEntry): Promise<{ type: ColumnType; payload: DecodedPayload }> {
  const type = resolveType(m.codec);
  const field = `metadata ${m.kind}`;
  if (type.kind === 'dead') throw new FormatError('unsupported', `unreadable: ${type.reason}`, { offset: m.offset, field });
  if (m.compression > 1) throw new FormatError('unsupported', `unknown compression ${m.compression}`, { offset: m.offset, field });
  if (m.blockSize <= 0) throw new FormatError('corrupt', `block size ${m.blockSize}`, { offset: m.offset, field });
  const stored = await readField(src, m.blockOffset, m.blockSize, `${field} block`);
  // The metadata TOC records no inflated size: inflate until the stored bytes end, within a cap.
  const payload = m.compression === 1 ? inflateRaw(stored, { maxSize: MAX_METADATA_BYTES, offset: m.blockOffset, field: `${field} block` }) : stored;
  return { type, payload: decodePayload(type, payload, 1, { offset: m.blockOffset, field: `${field} block${m.compression === 1 ? ' (inflated)' : ''}` }) };
}
