/**
 * A writer of BinarySaver-compatible dataviews (version 1.1.1.6, spec §3–§10): blocks of
 * `rowsPerBlock` rows per column, DEFLATE-compressed (or stored), lookup tables, metadata
 * (each value kept compressed only when that is smaller, as BinarySaver does), the table of
 * contents and the tail. Blocks are written in row-block order, column by column, like
 * BinarySaver's deterministic mode. The header holds offsets known only at the end, and an
 * OutputTarget is written front to back, so the compressed body is held until `finish`.
 */
import { deflateRaw } from '../../codecs/deflate.js';
import { encodeLeb128 } from '../../codecs/leb128.js';
import type { ColumnType, ItemType, ScalarKind } from './columnType.js';
import { WRITE_LOAD_NAMES } from './columnType.js';
import { HEADER_BYTES, IDV_HEADER, SIGNATURE, TAIL_SIGNATURE } from './model.js';
import { LITTLE_ENDIAN, NUMBER_ARRAYS, swapEach } from './numbers.js';
import { type DateTimeOffsetValue, type Value, type VectorValue, defaultValue } from './values.js';

export interface MetadataValue {
  readonly kind: string;
  readonly type: ColumnType;
  readonly value: Value;
}

export interface WriterColumn {
  readonly name: string;
  readonly type: ColumnType;
  readonly metadata?: readonly MetadataValue[];
}

export interface WriterOptions {
  readonly rowsPerBlock: number;
  /** 1 = DEFLATE (ML.NET's default), 0 = stored. */
  readonly compression: 0 | 1;
}

/** ML.NET's cap: at most 8192 rows per block, and about 80 MiB of values per block. */
export const MAX_ROWS_PER_BLOCK = 8192;
const BLOCK_BYTES_TARGET = 80 << 20;
const VERSION_1_1_1_6 = (1n << 48n) | (1n << 32n) | (1n << 16n) | 6n;

/** Rows per block BinarySaver would pick for this schema and row count. */
export function chooseRowsPerBlock(columns: readonly WriterColumn[], rowCount: number): number {
  const rowBytes = columns.reduce((n, c) => n + estimateBytes(c.type), 0);
  const fit = Math.floor(BLOCK_BYTES_TARGET / Math.max(1, rowBytes));
  return Math.max(1, Math.min(MAX_ROWS_PER_BLOCK, fit, Math.max(1, rowCount)));
}

function estimateBytes(t: ColumnType): number {
  if (t.kind === 'vector') return 8 + Math.max(1, t.size) * estimateBytes(t.item);
  if (t.kind === 'key') return { u8: 1, u16: 2, u32: 4, u64: 8 }[t.raw];
  return { i8: 1, u8: 1, i16: 2, u16: 2, i32: 4, u32: 4, i64: 8, u64: 8, f32: 4, f64: 8, bool: 1, bool2: 1, text: 16, ts: 8, dt: 8, dz: 10, rowid: 16 }[
    t.scalar
  ];
}

/** Grows a byte buffer for one payload. */
class Bytes {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  length = 0;

  private ensure(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  u8(v: number): void {
    this.ensure(1);
    this.buf[this.length++] = v;
  }

  i16(v: number): void {
    this.ensure(2);
    this.view.setInt16(this.length, v, true);
    this.length += 2;
  }

  i32(v: number): void {
    this.ensure(4);
    this.view.setInt32(this.length, v, true);
    this.length += 4;
  }

  u64(v: bigint): void {
    this.ensure(8);
    this.view.setBigUint64(this.length, BigInt.asUintN(64, v), true);
    this.length += 8;
  }

  /** A .NET `BinaryWriter` string: 7-bit encoded byte length, then UTF-8. */
  string(s: string): void {
    const utf8 = new TextEncoder().encode(s);
    this.bytes(encodeLeb128(utf8.length));
    this.bytes(utf8);
  }

  done(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

/** Counts values that had to be stored as something other than what was given. */
export interface WriteLosses {
  /** Missing (null) values stored as the type's default: false, 0, "" or 0 ticks (NaN for floats is exact). */
  defaulted: number;
}

function scalarOf(t: ItemType): ScalarKind {
  return t.kind === 'key' ? t.raw : t.scalar;
}

/** The payload of `values` (one per row, or all items of a vector block) of an item type. */
function encodeItems(out: Bytes, t: ItemType, values: readonly Value[], losses: WriteLosses): void {
  const kind = scalarOf(t);
  const n = values.length;
  const fill = (v: Value): Value => {
    if (v !== null) return v;
    if (kind === 'f32' || kind === 'f64') return Number.NaN;
    // Keys store missing as 0 and text has no missing value since 1.1.1.6: both are exact.
    if (t.kind !== 'key' && kind !== 'text') losses.defaulted++;
    return defaultValue(t);
  };
  switch (kind) {
    case 'bool':
    case 'bool2': {
      for (let i = 0; i < n; i += 8) {
        let byte = 0;
        for (let k = 0; k < 8 && i + k < n; k++) if (fill(values[i + k]!) === true) byte |= 1 << k;
        out.u8(byte);
      }
      return;
    }
    case 'text': {
      const strings = values.map((v) => fill(v) as string);
      out.i32(n);
      let end = 0;
      for (const s of strings) out.i32((end += s.length));
      out.string(strings.join(''));
      return;
    }
    case 'dz': {
      const dz = values.map((v) => fill(v) as DateTimeOffsetValue);
      for (const v of dz) out.i16(v.offsetMinutes);
      for (const v of dz) out.u64(v.ticks);
      return;
    }
    case 'rowid':
      for (const v of values) {
        const x = fill(v) as bigint;
        out.u64(x & 0xffffffffffffffffn);
        out.u64(x >> 64n);
      }
      return;
    case 'i64':
    case 'u64':
    case 'ts':
    case 'dt':
      for (const v of values) out.u64(BigInt(fill(v) as bigint | number));
      return;
    default: {
      const T = NUMBER_ARRAYS[kind];
      const numbers = new T(n);
      for (let i = 0; i < n; i++) numbers[i] = fill(values[i]!) as number;
      const bytes = new Uint8Array(numbers.buffer);
      if (!LITTLE_ENDIAN) swapEach(bytes, T.BYTES_PER_ELEMENT);
      out.bytes(bytes);
    }
  }
}

/** The payload of a block of `values` (one per row) of a column type (spec §9). */
export function encodeBlock(t: ColumnType, values: readonly Value[], losses: WriteLosses = { defaulted: 0 }): Uint8Array {
  const out = new Bytes();
  if (t.kind !== 'vector') {
    encodeItems(out, t, values, losses);
    return out.done();
  }
  const vectors = values.map((v) => (v ?? (losses.defaulted++, { length: t.size, values: [], indices: [] })) as VectorValue);
  out.i32(vectors.length);
  const common = vectors.length > 0 && vectors.every((v) => v.length === vectors[0]!.length) ? vectors[0]!.length : 0;
  const size = t.size > 0 ? t.size : common;
  out.i32(size);
  if (size === 0) for (const v of vectors) out.i32(v.length);
  // A sparse vector that stores every slot is written dense, as ML.NET requires.
  const sparse = vectors.map((v) => v.indices !== undefined && v.indices.length < v.length);
  vectors.forEach((v, k) => out.i32(sparse[k] ? v.indices!.length : -1));
  const indices: number[] = [];
  const items: Value[] = [];
  vectors.forEach((v, k) => {
    if (sparse[k]) {
      indices.push(...v.indices!);
      items.push(...v.values);
    } else if (v.indices) {
      const dense = new Array<Value>(v.length).fill(defaultValue(t.item));
      v.indices.forEach((slot, j) => (dense[slot] = v.values[j]!));
      items.push(...dense);
    } else {
      items.push(...v.values);
    }
  });
  out.i32(indices.length);
  for (const i of indices) out.i32(i);
  encodeItems(out, t.item, items, losses);
  return out.done();
}

/** A codec definition (spec §7): load name, parameter length, parameters. */
export function encodeCodec(t: ColumnType): Uint8Array {
  const out = new Bytes();
  const params = new Bytes();
  let name: string;
  if (t.kind === 'scalar') {
    name = WRITE_LOAD_NAMES[t.scalar];
  } else if (t.kind === 'key') {
    name = 'Key2';
    params.bytes(encodeCodec({ kind: 'scalar', scalar: t.raw }));
    params.u64(t.count);
  } else {
    name = 'VBuffer';
    params.bytes(encodeCodec(t.item));
    params.i32(t.dims.length);
    for (const d of t.dims) params.i32(d);
  }
  out.string(name);
  out.bytes(encodeLeb128(params.length));
  out.bytes(params.done());
  return out.done();
}

interface BlockRecord {
  readonly offset: number;
  readonly stored: number;
  readonly inflated: number;
}

export class IdvWriter {
  private readonly body: Uint8Array[] = [];
  /** Absolute offset of the next byte written after the header. */
  private position = HEADER_BYTES;
  private readonly lookups: BlockRecord[][];
  private rows = 0;
  readonly losses: WriteLosses = { defaulted: 0 };

  constructor(
    private readonly columns: readonly WriterColumn[],
    private readonly opts: WriterOptions,
  ) {
    if (columns.length === 0) throw new RangeError('a dataview needs at least one column');
    if (!(opts.rowsPerBlock >= 1)) throw new RangeError('rows per block must be at least 1');
    this.lookups = columns.map(() => []);
  }

  private append(bytes: Uint8Array): number {
    const at = this.position;
    this.body.push(bytes);
    this.position += bytes.length;
    return at;
  }

  /**
   * Adds one block of rows: `values[c]` holds column c's values for the same rows, at most
   * `rowsPerBlock` of them; every block but the last must be full.
   */
  addBlock(values: readonly (readonly Value[])[]): void {
    const n = values[0]?.length ?? 0;
    if (values.length !== this.columns.length || values.some((v) => v.length !== n))
      throw new RangeError('a block needs the same number of values in every column');
    if (n === 0) return;
    if (n > this.opts.rowsPerBlock || this.rows % this.opts.rowsPerBlock !== 0) throw new RangeError('only the last block may be partial');
    this.columns.forEach((c, k) => {
      const payload = encodeBlock(c.type, values[k]!, this.losses);
      const stored = this.opts.compression === 1 ? deflateRaw(payload) : payload;
      this.lookups[k]!.push({ offset: this.append(stored), stored: stored.length, inflated: payload.length });
    });
    this.rows += n;
  }

  /** Writes the whole file through `write`, front to back. */
  async finish(write: (bytes: Uint8Array) => Promise<void>): Promise<{ bytes: number; rows: number }> {
    const lookupOffsets = this.lookups.map((blocks) => {
      const table = new Bytes();
      for (const b of blocks) {
        table.u64(BigInt(b.offset));
        table.i32(b.stored);
        table.i32(b.inflated);
      }
      return this.append(table.done());
    });
    const metadataOffsets = this.columns.map((c) => (c.metadata?.length ? this.writeMetadata(c.metadata) : 0));
    const toc = new Bytes();
    this.columns.forEach((c, k) => {
      toc.string(c.name);
      toc.bytes(encodeCodec(c.type));
      toc.u8(this.opts.compression);
      toc.bytes(encodeLeb128(this.opts.rowsPerBlock));
      toc.u64(BigInt(lookupOffsets[k]!));
      toc.u64(BigInt(metadataOffsets[k]!));
    });
    const tocOffset = this.append(toc.done());
    const tailOffset = this.append(TAIL_SIGNATURE);
    const header = new Uint8Array(HEADER_BYTES);
    IDV_HEADER.write(
      {
        signature: SIGNATURE,
        version: VERSION_1_1_1_6,
        compatibleVersion: VERSION_1_1_1_6,
        tocOffset,
        tailOffset,
        rowCount: this.rows,
        columnCount: this.columns.length,
      },
      header,
    );
    await write(header);
    for (const chunk of this.body.splice(0)) await write(chunk);
    return { bytes: this.position, rows: this.rows };
  }

  /** Metadata value blocks, then the metadata table of contents; returns the table's offset. */
  private writeMetadata(items: readonly MetadataValue[]): number {
    const entries = items.map((m) => {
      const payload = encodeBlock(m.type, [m.value]);
      const deflated = deflateRaw(payload);
      // BinarySaver keeps whichever is smaller; a tie stays uncompressed.
      const compressed = deflated.length < payload.length;
      const stored = compressed ? deflated : payload;
      return { m, compression: compressed ? 1 : 0, offset: this.append(stored), size: stored.length };
    });
    const toc = new Bytes();
    toc.bytes(encodeLeb128(entries.length));
    for (const e of entries) {
      toc.string(e.m.kind);
      toc.bytes(encodeCodec(e.m.type));
      toc.u8(e.compression);
      toc.u64(BigInt(e.offset));
      toc.bytes(encodeLeb128(e.size));
    }
    return this.append(toc.done());
  }
}
