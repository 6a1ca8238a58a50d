import { FormatError, rethrowUnlessFormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { readField } from '../../io/byteSource.js';
import { DescribeOnly, describeOnlyStage, planChain, type ChainPlan } from './chain.js';
import { allValues, readChunk, type ChunkValues } from './chunkCodec.js';
import type { Container } from './container.js';
import { codecName, type ChunkEntry, type ColumnFrame, type Dictionary } from './model.js';
import { typeText } from './schema.js';
import type { Value } from './values.js';

/** A column as the views use it: its frame, its checked chain, and why it cannot be decoded when it cannot. */
export interface ColumnView {
  readonly column: ColumnFrame;
  readonly plan?: ChainPlan;
  /** "describe-only: …", "needs external state …", or the chain's grammar error. */
  readonly undecodable?: string;
  /**
   * Set when the column cannot be decoded by design (a codec or dictionary that only describes
   * itself, external state), not because the file is wrong: read paths leave it out and say so,
   * which is not damage. "codec LINDELTA", "shared dictionary \"corpus.bindud\"".
   */
  readonly byDesign?: string;
  readonly dictionary?: Dictionary;
}

export function columnViews(c: Container): ColumnView[] {
  return c.columns.map((column) => {
    let plan: ChainPlan | DescribeOnly;
    try {
      plan = planChain(column.type, column.stages);
    } catch (e) {
      rethrowUnlessFormatError(e);
      return { column, undecodable: `invalid codec chain: ${e.detail}` };
    }
    if (plan instanceof DescribeOnly) return { column, undecodable: plan.reason, byDesign: `codec ${codecName(describeOnlyStage(column.stages)!.codec)}` };
    if (plan.dictId === undefined) return { column, plan };
    const dictionary = c.dictionaries.find((d) => d.id === plan.dictId);
    if (!dictionary) return { column, plan, undecodable: `dictionary ${plan.dictId} is not in the file` };
    if (dictionary.origin === 2)
      return {
        column,
        plan,
        dictionary,
        undecodable: `needs external state: shared dictionary "${dictionary.sharedName}"`,
        byDesign: `shared dictionary "${dictionary.sharedName}"`,
      };
    if (!dictionary.entries)
      return {
        column,
        plan,
        dictionary,
        undecodable: `describe-only: dictionary kind 0x${dictionary.kind.toString(16)}`,
        byDesign: `dictionary kind 0x${dictionary.kind.toString(16)}`,
      };
    return { column, plan, dictionary };
  });
}

export function columnTitle(v: ColumnView): string {
  return `${v.column.name || `#${v.column.id}`} ${typeText(v.column.type)}${v.column.nullable ? '?' : ''}`;
}

/**
 * Decoded values kept per document, counted in rows so that memory stays bounded whatever the
 * chunk size; a page of rows touches one or two chunks per column, and the latest chunk is
 * always kept.
 */
const CACHE_ROWS = 1 << 21;
/** Rows decoded from a chunk's start for a first look (a few screens of rows), before the rest. */
export const PREFIX_ROWS = 1024;

export class ChunkReader {
  /** Decoded chunks; `covers` rows from the chunk's start (a prefix until a page needs more). */
  private readonly cache = new Map<string, { values: Promise<ChunkValues>; rows: number; covers: number; stored: number }>();
  private cachedRows = 0;

  constructor(private readonly src: ByteSource) {}

  /** Every value of one chunk, each one checked, or a FormatError naming where decoding broke. */
  async chunk(v: ColumnView, chunk: ChunkEntry): Promise<Value[]> {
    return allValues(await this.decoded(v, chunk, chunk.rows));
  }

  /**
   * One chunk decoded (at least its first `need` rows), its values made when asked for. A first
   * request for rows near a chunk's start decodes only PREFIX_ROWS of it.
   */
  private decoded(v: ColumnView, chunk: ChunkEntry, need: number): Promise<ChunkValues> {
    const key = `${v.column.frame.offset}:${chunk.index}`;
    const hit = this.cache.get(key);
    if (hit && hit.covers >= Math.min(need, chunk.rows)) return hit.values;
    if (hit) this.forget(key);
    const covers = need <= PREFIX_ROWS && !hit ? Math.min(PREFIX_ROWS, chunk.rows) : chunk.rows;
    const loading = this.decode(v, chunk, covers);
    loading.catch(() => {
      if (this.cache.get(key)?.values === loading) this.forget(key);
    });
    this.cache.set(key, { values: loading, rows: chunk.rows, covers, stored: chunk.byteLength });
    this.cachedRows += chunk.rows;
    while (this.cachedRows > CACHE_ROWS && this.cache.size > 1) this.forget(this.cache.keys().next().value as string);
    return loading;
  }

  /**
   * About what the decoded chunks hold, for the memory budget (memory.ts): each chunk's blob and
   * 8 bytes a decoded row (no value is wider). Text that was compressed is counted at its stored size.
   */
  cacheBytes(): number {
    let n = 0;
    for (const e of this.cache.values()) n += e.stored + e.covers * 8;
    return n;
  }

  dropCache(): void {
    this.cache.clear();
    this.cachedRows = 0;
  }

  private forget(key: string): void {
    const entry = this.cache.get(key);
    if (!entry) return;
    this.cache.delete(key);
    this.cachedRows -= entry.rows;
  }

  private async decode(v: ColumnView, chunk: ChunkEntry, rows: number): Promise<ChunkValues> {
    if (!v.plan || v.undecodable)
      throw new FormatError('unsupported', v.undecodable ?? 'not decodable', { offset: v.column.frame.offset, field: 'codec chain' });
    const blob = await readField(this.src, chunk.blobOffset, chunk.byteLength, `chunk ${chunk.index}`);
    return readChunk(v.column.type, v.column.nullable, v.plan, blob, chunk.rows, chunk.blobOffset, v.dictionary?.entries, rows);
  }

  /** The chunk holding `row` (binary search over first rows). */
  static chunkAt(column: ColumnFrame, row: number): ChunkEntry | undefined {
    const cs = column.chunks;
    let lo = 0;
    let hi = cs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = cs[mid]!;
      if (row < c.firstRow) hi = mid - 1;
      else if (row >= c.firstRow + c.rows) lo = mid + 1;
      else return c;
    }
    return undefined;
  }

  /** Values of rows [from, from + count) of a column, decoding only the chunks that hold them. */
  async range(v: ColumnView, from: number, count: number): Promise<Value[]> {
    const out: Value[] = [];
    for (let row = from; row < from + count; ) {
      const c = ChunkReader.chunkAt(v.column, row);
      if (!c) break;
      const take = Math.min(from + count, c.firstRow + c.rows) - row;
      const values = await this.decoded(v, c, row - c.firstRow + take);
      for (let i = 0; i < take; i++) out.push(values.at(row - c.firstRow + i));
      row += take;
    }
    return out;
  }
}
