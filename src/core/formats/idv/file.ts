/**
 * An opened dataview: header, columns with their types, block access, metadata, and row
 * windows that decode only the blocks they overlap. The document, the converters, `cat`,
 * verify and the column summaries all read through this.
 */
import { FormatError, rethrowUnlessFormatError, throwIfAborted } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { yieldToEventLoop } from '../../io/scan.js';
import { BlockReader, type DecodedBlock, type IdvColumn, describeColumns, readMetadataValue } from './blocks.js';
import type { ColumnType } from './columnType.js';
import { resolveType } from './columnType.js';
import { type CodecDef, type ColumnEntry, type IdvHeader, type MetadataEntry, compareVersion } from './model.js';
import { readMetadataToc, readTocSlotNames } from './toc.js';
import { type NaRules, type ReadValue, type Reading, type Value, blockValue } from './values.js';

export interface MetadataItem {
  readonly entry: MetadataEntry;
  readonly type?: ColumnType;
  readonly value?: Value;
  readonly error?: FormatError;
}

export interface ColumnMetadata {
  readonly items: readonly MetadataItem[];
  /** The metadata TOC could not be read. */
  readonly error?: FormatError;
}

/** A block of a column that could not be read or decoded, and the rows it holds. */
export interface FailedBlock {
  readonly column: number;
  readonly block: number;
  readonly firstRow: number;
  readonly rows: number;
  readonly error: FormatError;
}

/** A window of rows across all columns: `value(c, r)` with r absolute, or the error of c's block. */
export interface RowWindow {
  readonly from: number;
  readonly count: number;
  /** The window's blocks that failed, so read paths can report each once before writing its rows. */
  readonly failed: readonly FailedBlock[];
  value(column: number, row: number): ReadValue | FormatError;
}

export class IdvFile {
  readonly columns: readonly IdvColumn[];
  readonly blocks: BlockReader;
  readonly naRules: NaRules;
  private readonly metadata = new Map<number, Promise<ColumnMetadata>>();

  constructor(
    readonly src: ByteSource,
    readonly header: IdvHeader,
    entries: readonly ColumnEntry[],
  ) {
    this.columns = describeColumns(entries);
    this.blocks = new BlockReader(src, header);
    this.naRules = { dvTypes: compareVersion(header.version, [1, 1, 1, 5]) <= 0 };
  }

  get rowCount(): number {
    return this.header.rowCount;
  }

  /** Files written in the DvTypes era (1.1.1.5), where NA sentinels meant missing values. */
  get legacy(): boolean {
    return this.naRules.dvTypes;
  }

  /** The reading `cat` and the converters use unless told: legacy for 1.1.1.5 files (CLI contract). */
  defaultReading(modern: boolean | undefined): Reading {
    return this.legacy && modern !== true ? 'legacy' : 'modern';
  }

  /** A column's metadata, read and decoded once (ML.NET reads it all when it opens a file). */
  columnMetadata(index: number): Promise<ColumnMetadata> {
    let m = this.metadata.get(index);
    if (!m) {
      m = this.loadMetadata(this.columns[index]!.entry);
      this.metadata.set(index, m);
    }
    return m;
  }

  private async loadMetadata(c: ColumnEntry): Promise<ColumnMetadata> {
    if (c.slotNames) return this.loadTocSlotNames(c);
    if (c.metadataTocOffset === 0) return { items: [] };
    let entries: MetadataEntry[];
    try {
      entries = await readMetadataToc(this.src, c, this.header.tailOffset);
    } catch (e) {
      rethrowUnlessFormatError(e);
      return { items: [], error: e };
    }
    const items: MetadataItem[] = [];
    for (const entry of entries) {
      try {
        const { type, payload } = await readMetadataValue(this.src, entry);
        items.push({ entry, type, value: blockValue(payload.values, 0, type, 'modern', this.naRules).value });
      } catch (e) {
        rethrowUnlessFormatError(e);
        items.push({ entry, error: e });
      }
    }
    return { items };
  }

  /** 1.1.1.3 slot names, shown as the SlotNames metadata they became in 1.1.1.4. */
  private async loadTocSlotNames(c: ColumnEntry): Promise<ColumnMetadata> {
    const area = c.slotNames!;
    const t = this.columns[c.index]!.type;
    const size = t.kind === 'vector' ? t.size : 0;
    const text: CodecDef = { offset: area.offset, length: 0, loadName: 'TextSpan', paramOffset: area.offset, paramLength: 0 };
    const entry: MetadataEntry = {
      offset: area.offset,
      length: area.byteSize,
      kind: 'SlotNames',
      codec: { ...text, loadName: 'VBuffer', inner: text, dims: [size] },
      compression: 0,
      blockOffset: area.offset,
      blockSize: area.byteSize,
    };
    try {
      const pairs = await readTocSlotNames(this.src, c);
      let prev = -1;
      for (const p of pairs) {
        if (p.slot <= prev || p.slot >= size)
          throw new FormatError('corrupt', `slot ${p.slot} is not increasing or not below the vector size ${size}`, {
            offset: area.offset,
            field: `column ${c.index} slot names`,
          });
        prev = p.slot;
      }
      const value: Value = { length: size, indices: pairs.map((p) => p.slot), values: pairs.map((p) => p.name) };
      return { items: [{ entry, type: resolveType(entry.codec) as ColumnType, value }] };
    } catch (e) {
      rethrowUnlessFormatError(e);
      return { items: [], error: e };
    }
  }

  /** A metadata value of a column by kind, when present and readable. */
  async metadataValue(index: number, kind: string): Promise<Value | undefined> {
    return (await this.columnMetadata(index)).items.find((m) => m.entry.kind === kind)?.value;
  }

  /** Strings of a vector-of-text metadata value (SlotNames, KeyValues), densified. */
  async metadataStrings(index: number, kind: string): Promise<string[] | undefined> {
    const v = await this.metadataValue(index, kind);
    if (typeof v !== 'object' || v === null || !('length' in v)) return undefined;
    const out: string[] = new Array(v.length).fill('');
    v.values.forEach((x, k) => (out[v.indices ? v.indices[k]! : k] = typeof x === 'string' ? x : x === null ? '' : String(x)));
    return out;
  }

  /**
   * Rows [from, from + count) of the given columns (all by default), decoding only the blocks
   * that overlap the window. A column whose block cannot be read yields its error per cell.
   */
  async window(from: number, count: number, reading: Reading, signal?: AbortSignal, only?: readonly number[]): Promise<RowWindow> {
    const to = Math.min(this.rowCount, from + count);
    // Arrays by column index, not a Map: value() runs once per cell (20 M times in the bench).
    const perColumn: (DecodedBlock | FormatError)[][] = [];
    const firstBlock: number[] = [];
    const failed: FailedBlock[] = [];
    for (const i of only ?? this.columns.map((_, k) => k)) {
      const col = this.columns[i]!;
      const c = col.entry;
      const list: (DecodedBlock | FormatError)[] = [];
      if (to > from && c.rowsPerBlock > 0) {
        for (let b = Math.floor(from / c.rowsPerBlock); b <= Math.floor((to - 1) / c.rowsPerBlock); b++) {
          throwIfAborted(signal);
          try {
            list.push(await this.blocks.decoded(col, b, signal));
          } catch (e) {
            rethrowUnlessFormatError(e, 'cancelled');
            list.push(e);
            failed.push({ column: i, block: b, firstRow: b * c.rowsPerBlock, rows: this.blocks.rowsIn(c, b), error: e });
          }
        }
      }
      perColumn[i] = list;
      firstBlock[i] = c.rowsPerBlock > 0 ? Math.floor(from / c.rowsPerBlock) : 0;
    }
    const rules = this.naRules;
    const columns = this.columns;
    return {
      from,
      count: Math.max(0, to - from),
      failed,
      value(column, row) {
        const c = columns[column]!;
        const list = perColumn[column];
        if (list === undefined) return new FormatError('out-of-range', `column ${column} is not in the window`, { field: `column ${column}` });
        const block = list[Math.floor(row / c.entry.rowsPerBlock) - firstBlock[column]!];
        if (block === undefined) return new FormatError('out-of-range', `row ${row} is outside the window`, { field: `column ${column}` });
        if (block instanceof FormatError) return block;
        return blockValue(block.values, row - block.firstRow, c.type as ColumnType, reading, rules);
      },
    };
  }

  /**
   * Walks rows [from, to) in windows of at most one block per column, yielding between windows
   * so converting a huge file keeps memory flat and stays cancellable.
   */
  async *windows(from: number, to: number, reading: Reading, signal?: AbortSignal, only?: readonly number[]): AsyncGenerator<RowWindow> {
    const rpbs = (only ?? this.columns.map((_, k) => k)).map((i) => this.columns[i]!.entry.rowsPerBlock).filter((n) => n > 0);
    const step = Math.max(1, Math.min(8192, ...rpbs));
    for (let at = from; at < to; ) {
      // Align windows to block boundaries of the first column so each touches one block.
      const next = Math.min(to, (Math.floor(at / step) + 1) * step);
      yield await this.window(at, next - at, reading, signal, only);
      at = next;
      await yieldToEventLoop();
    }
  }
}
