/**
 * Block payloads (spec §9): the bytes of one block after inflating, decoded into typed arrays
 * for `n` rows. Every decoder checks what ML.NET's readers check (counts, monotone text
 * boundaries, vector shapes, DvBool patterns) and names the field and offset when it fails.
 * Offsets are absolute in the file for uncompressed blocks; for inflated blocks they are the
 * block's offset plus the position inside the inflated bytes, and the field says so.
 */
import { readLeb128 } from '../../codecs/leb128.js';
import { FormatError } from '../../errors.js';
import { BinReader } from '../../io/binReader.js';
import type { ColumnType, ItemType, ScalarKind } from './columnType.js';
import { SCALAR_BYTES } from './columnType.js';
import { LITTLE_ENDIAN, NUMBER_ARRAYS, swapEach } from './numbers.js';

/** Where a payload came from, for error messages. */
export interface PayloadOrigin {
  /** Absolute file offset of the payload's first byte (the block's offset when inflated). */
  readonly offset: number;
  /** Field prefix, e.g. `column 3 block 7 (inflated)`. */
  readonly field: string;
}

/** Decoded values of one scalar or key item stream. */
export type ItemValues =
  | { readonly kind: 'number'; readonly values: Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array }
  | { readonly kind: 'bigint'; readonly values: BigInt64Array | BigUint64Array }
  /** 0 false, 1 true, 2 NA (DvBool `10`). */
  | { readonly kind: 'bool'; readonly values: Uint8Array }
  /** Value i = text[start_i, end_i & 0x7fffffff); end with the high bit set = NA. */
  | { readonly kind: 'text'; readonly text: string; readonly ends: Int32Array }
  | { readonly kind: 'dz'; readonly offsets: Int16Array; readonly ticks: BigInt64Array }
  /** Pairs (low, high) per value. */
  | { readonly kind: 'rowid'; readonly halves: BigUint64Array };

export interface VectorValues {
  readonly kind: 'vector';
  /** Per vector: its length. */
  readonly lengths: Int32Array;
  /** Per vector: −1 dense, else the number of stored (index, value) pairs. */
  readonly counts: Int32Array;
  /** Per vector: where its values start in `items`, and its indices in `indices`. */
  readonly valueStarts: Int32Array;
  readonly indexStarts: Int32Array;
  readonly indices: Int32Array;
  readonly items: ItemValues;
}

export type BlockValues = ItemValues | VectorValues;

export interface DecodedPayload {
  readonly values: BlockValues;
  /** Bytes after the payload's end (ML.NET ignores them; verify warns). */
  readonly trailing: number;
  /** Oddities ML.NET tolerates and a strict reader reports (spec §12, last paragraph). */
  readonly notes: readonly string[];
}

const utf8 = new TextDecoder('utf-8');

/** Decodes the payload of a block holding `n` rows (or one metadata value, n = 1). */
export function decodePayload(type: ColumnType, bytes: Uint8Array, n: number, origin: PayloadOrigin): DecodedPayload {
  const r = new BinReader(bytes, 0);
  const notes: string[] = [];
  const values = type.kind === 'vector' ? readVectors(r, type.size, type.item, n, origin, notes) : readItems(r, type, n, origin, notes);
  return { values, trailing: r.remaining, notes };
}

function fail(r: BinReader, origin: PayloadOrigin, field: string, detail: string, at = r.pos): never {
  throw new FormatError('corrupt', `${detail} (byte ${at} of the payload)`, { offset: origin.offset, field: `${origin.field} ${field}` });
}

function need(r: BinReader, origin: PayloadOrigin, bytes: number, field: string): void {
  if (bytes > r.remaining) {
    throw new FormatError('truncated', `needs ${bytes} bytes at byte ${r.pos} of the payload but only ${r.remaining} remain`, {
      offset: origin.offset,
      field: `${origin.field} ${field}`,
    });
  }
}

/** A typed array over little-endian values: a view when aligned, else a copy. */
function typed<T>(r: BinReader, origin: PayloadOrigin, n: number, width: number, make: (buf: ArrayBuffer, off: number, len: number) => T, field: string): T {
  need(r, origin, n * width, field);
  const start = r.bytes.byteOffset + r.pos;
  r.pos += n * width;
  if (LITTLE_ENDIAN && start % width === 0) return make(r.bytes.buffer as ArrayBuffer, start, n);
  // A copy that owns its buffer from byte 0 (Buffer#slice would return a view instead).
  const copy = new Uint8Array(r.bytes.subarray(r.pos - n * width, r.pos));
  if (!LITTLE_ENDIAN) swapEach(copy, width);
  return make(copy.buffer, 0, n);
}

function int32s(r: BinReader, origin: PayloadOrigin, n: number, field: string): Int32Array {
  return typed(r, origin, n, 4, (b, o, l) => new Int32Array(b, o, l), field);
}

function readItems(r: BinReader, type: ItemType, n: number, origin: PayloadOrigin, notes?: string[]): ItemValues {
  const kind: ScalarKind = type.kind === 'key' ? type.raw : type.scalar;
  switch (kind) {
    case 'i8':
    case 'u8':
    case 'i16':
    case 'u16':
    case 'i32':
    case 'u32':
    case 'f32':
    case 'f64': {
      const T = NUMBER_ARRAYS[kind];
      return { kind: 'number', values: typed(r, origin, n, T.BYTES_PER_ELEMENT, (b, o, l) => new T(b, o, l), 'values') };
    }
    case 'i64':
    case 'ts':
    case 'dt':
      return { kind: 'bigint', values: typed(r, origin, n, 8, (b, o, l) => new BigInt64Array(b, o, l), 'values') };
    case 'u64':
      return { kind: 'bigint', values: typed(r, origin, n, 8, (b, o, l) => new BigUint64Array(b, o, l), 'values') };
    case 'rowid':
      return { kind: 'rowid', halves: typed(r, origin, 2 * n, 8, (b, o, l) => new BigUint64Array(b, o, l), 'values') };
    case 'dz': {
      const offsets = typed(r, origin, n, 2, (b, o, l) => new Int16Array(b, o, l), 'offsets');
      const ticks = typed(r, origin, n, 8, (b, o, l) => new BigInt64Array(b, o, l), 'ticks');
      return { kind: 'dz', offsets, ticks };
    }
    case 'bool': {
      need(r, origin, Math.ceil(n / 8), 'bits');
      const values = new Uint8Array(n);
      const b = r.bytes;
      const base = r.pos;
      for (let i = 0; i < n; i++) values[i] = (b[base + (i >> 3)]! >> (i & 7)) & 1;
      r.pos += Math.ceil(n / 8);
      return { kind: 'bool', values };
    }
    case 'bool2': {
      const words = Math.ceil(n / 16);
      need(r, origin, 4 * words, 'bits');
      const values = new Uint8Array(n);
      const base = r.pos;
      for (let i = 0; i < n; i++) {
        const byte = r.bytes[base + 4 * (i >> 4) + ((i & 15) >> 2)]!;
        const v = (byte >> (2 * (i & 3))) & 3;
        if (v === 3) fail(r, origin, 'bits', `value ${i} has the invalid DvBool pattern 11`, base + 4 * (i >> 4));
        values[i] = v === 2 ? 2 : v;
      }
      r.pos += 4 * words;
      return { kind: 'bool', values };
    }
    case 'text':
      return readText(r, n, origin, notes);
  }
}

function validUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function readText(r: BinReader, n: number, origin: PayloadOrigin, notes?: string[]): ItemValues {
  need(r, origin, 4, 'text count');
  const count = r.i32le('text count');
  if (count !== n) fail(r, origin, 'text count', `holds ${count} values, expected ${n}`, r.pos - 4);
  const ends = int32s(r, origin, n, 'text boundaries');
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const b = ends[i]!;
    // ML.NET: a boundary never goes back; an NA entry repeats the previous length.
    if (!(b >= (prev & 0x7fffffff) || (b & 0x7fffffff) === (prev & 0x7fffffff))) {
      fail(r, origin, 'text boundaries', `boundary ${i} (${b & 0x7fffffff}) is before the previous one (${prev & 0x7fffffff})`, r.pos - 4 * (n - i));
    }
    prev = b;
  }
  const lengthAt = r.pos;
  let byteLength: number;
  try {
    // A .NET string's 7-bit encoded int32 byte length: at most 5 bytes.
    byteLength = readLeb128(r, 'text length', { maxBytes: 5 });
  } catch {
    fail(r, origin, 'text length', 'malformed string length', lengthAt);
  }
  if (byteLength > 0x7fffffff) fail(r, origin, 'text length', `string length ${byteLength} is not an int32`, lengthAt);
  need(r, origin, byteLength, 'text');
  const raw = r.bytes.subarray(r.pos, r.pos + byteLength);
  const text = utf8.decode(raw);
  // U+FFFD can be real text; only a strict decode tells whether the bytes were valid UTF-8.
  if (notes && text.includes('\uFFFD') && !validUtf8(raw)) notes.push(`text at byte ${r.pos} of the payload is not valid UTF-8 (shown with U+FFFD)`);
  r.pos += byteLength;
  const last = n === 0 ? 0 : ends[n - 1]! & 0x7fffffff;
  if (text.length !== last) fail(r, origin, 'text', `holds ${text.length} UTF-16 code units but the boundaries end at ${last}`, lengthAt);
  return { kind: 'text', text, ends };
}

function readVectors(r: BinReader, typeSize: number, item: ItemType, n: number, origin: PayloadOrigin, notes: string[]): VectorValues {
  need(r, origin, 8, 'vector header');
  const count = r.i32le('vector count');
  if (count !== n) fail(r, origin, 'vector count', `holds ${count} vectors, expected ${n}`, r.pos - 4);
  const size = r.i32le('vector size');
  if (typeSize > 0 ? size !== typeSize : size < 0)
    fail(r, origin, 'vector size', `size ${size} does not match the type's ${typeSize || 'variable size'}`, r.pos - 4);
  let lengths: Int32Array;
  if (size === 0) {
    lengths = int32s(r, origin, n, 'vector lengths');
  } else {
    lengths = new Int32Array(n).fill(size);
  }
  const counts = int32s(r, origin, n, 'vector counts');
  need(r, origin, 4, 'index count');
  const indexCount = r.i32le('index count');
  if (indexCount < 0) fail(r, origin, 'index count', `negative index count ${indexCount}`, r.pos - 4);
  const indices = int32s(r, origin, indexCount, 'indices');
  const valueStarts = new Int32Array(n);
  const indexStarts = new Int32Array(n);
  let items = 0;
  let ii = 0;
  for (let v = 0; v < n; v++) {
    const len = lengths[v]!;
    const c = counts[v]!;
    if (len < 0) fail(r, origin, 'vector lengths', `vector ${v} has negative length ${len}`);
    valueStarts[v] = items;
    indexStarts[v] = ii;
    if (c < 0) {
      if (c !== -1) fail(r, origin, 'vector counts', `vector ${v} has count ${c} (−1 = dense, else ≥ 0)`);
      items += len;
    } else {
      if (c >= len) fail(r, origin, 'vector counts', `sparse vector ${v} stores ${c} of ${len} slots (must be fewer)`);
      if (ii + c > indexCount) fail(r, origin, 'indices', `sparse vectors need more than the ${indexCount} indices stored`);
      let prev = -1;
      for (let j = ii; j < ii + c; j++) {
        const idx = indices[j]!;
        if (idx <= prev || idx >= len) fail(r, origin, 'indices', `vector ${v}: index ${idx} is not increasing or not below the length ${len}`);
        prev = idx;
      }
      ii += c;
      items += c;
    }
    if (items > 0x7fffffff) fail(r, origin, 'vector counts', 'more than 2^31 − 1 items in one block');
  }
  // ML.NET never checks this; the extra indices are unused.
  if (ii !== indexCount) notes.push(`${indexCount} indices stored but the sparse counts add up to ${ii}`);
  // Fixed-width items must fit before anything is allocated for them.
  const width = item.kind === 'key' ? SCALAR_BYTES[item.raw]! : SCALAR_BYTES[item.scalar];
  if (width !== undefined) need(r, origin, items * width, 'vector values');
  return { kind: 'vector', lengths, counts, valueStarts, indexStarts, indices, items: readItems(r, item, items, origin, notes) };
}
