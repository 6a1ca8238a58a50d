import { FormatError } from '../../errors.js';
import { compress, decompress } from './compression.js';
import { randomAccess, readPatterns, transform, untransform, writePatterns, type ChainPlan } from './chain.js';
import { ringOf } from './ring.js';
import { Codec, type LeafType } from './model.js';
import { canonicalBytes, decodeUtf8, valueFromCanonical, type Value } from './values.js';

/** A chunk never inflates past this, whatever its stream claims (decompression bombs). */
export const MAX_CHUNK_BYTES = 256 << 20;

/**
 * A decoded chunk whose values are made on demand: the chunk is inflated and size-checked in full
 * and sequential chains (VARINT, RLE, DELTA, length-prefixed bytes) are parsed in full, but a page
 * of a 65 536-row chunk builds only its own rows' numbers, bigints and strings. A value's own
 * checks (its pattern fits the width, its dictionary code, its UTF-8) run when it is made.
 */
export interface ChunkValues {
  /** The rows covered: the chunk's, or the prefix asked for. */
  readonly length: number;
  /** The value of row `i` (< length); a FormatError when that value's own bytes are bad (UTF-8, a dictionary entry). */
  at(i: number): Value;
}

/**
 * One chunk blob (spec C.6): an optional validity bitmap, then the chain's encoding of the
 * chunk's non-null values. Chunks are independent, so a page decodes only the chunks it shows.
 *
 * `take` reads only the first rows of a chunk (all by default). A prefix still inflates and
 * size-checks the whole chunk, but parses only its own rows: the first page of a 65 536-row
 * chunk does not parse 65 536 values per column. Damage past the prefix is left to a full
 * decode (Verify, export).
 */
export function readChunk(
  type: LeafType,
  nullable: boolean,
  plan: ChainPlan,
  blob: Uint8Array,
  rows: number,
  blobOffset: number,
  dict?: readonly Uint8Array[],
  take = rows,
): ChunkValues {
  let present = rows;
  let presentTaken = Math.min(take, rows);
  let bitmap: Uint8Array | undefined;
  const bitmapBytes = nullable ? Math.ceil(rows / 8) : 0;
  if (nullable) {
    if (blob.length < bitmapBytes)
      throw new FormatError('truncated', `validity bitmap needs ${bitmapBytes} bytes, the chunk has ${blob.length}`, {
        offset: blobOffset,
        field: 'validity bitmap',
      });
    bitmap = blob.subarray(0, bitmapBytes);
    present = 0;
    for (let i = 0; i < rows; i++) {
      if (i === take) presentTaken = present;
      present += (bitmap[i >> 3]! >> (i & 7)) & 1;
    }
    if (take >= rows) presentTaken = present;
  }
  const bodyAt = blobOffset + bitmapBytes;
  const bytes = decompress(plan.compressor, blob.subarray(bitmapBytes), {
    maxSize: MAX_CHUNK_BYTES,
    expectedSize: fixedSize(type, plan, present),
    offset: bodyAt,
    field: 'chunk data',
  });
  const values = readValues(type, plan, bytes, present, plan.compressor === Codec.NONE ? bodyAt : undefined, dict, presentTaken);
  if (!bitmap) return values;
  const taken = Math.min(take, rows);
  // Row → index among the present values, −1 for a null.
  const slot = new Int32Array(taken);
  for (let i = 0, k = 0; i < taken; i++) slot[i] = (bitmap[i >> 3]! >> (i & 7)) & 1 ? k++ : -1;
  return { length: taken, at: (i) => (slot[i]! < 0 ? null : values.at(slot[i]!)) };
}

/** Every value of a decoded chunk, each one checked. */
export function allValues(c: ChunkValues): Value[] {
  const out: Value[] = new Array(c.length);
  for (let i = 0; i < c.length; i++) out[i] = c.at(i);
  return out;
}

/** The serialized size when it follows from the count alone, so inflating can stop right there. */
function fixedSize(type: LeafType, plan: ChainPlan, n: number): number | undefined {
  if (plan.serializer.kind === Codec.BITPACK) return Math.ceil((n * plan.serializer.bits) / 8);
  if (plan.serializer.kind !== Codec.PLAIN) return undefined;
  if (plan.width > 0) return (n * plan.width) / 8;
  return type.code === 'FLOAT' ? (n * type.bits) / 8 : undefined;
}

/** The first `take` of the `n` values serialized in `bytes` (all, with every size check, by default). */
function readValues(
  type: LeafType,
  plan: ChainPlan,
  bytes: Uint8Array,
  n: number,
  base: number | undefined,
  dict?: readonly Uint8Array[],
  take = n,
): ChunkValues {
  // Offsets inside a decompressed stream are not file offsets: errors then point at the chunk.
  const at = base ?? 0;
  if (plan.width > 0) {
    const ring = ringOf(plan.width);
    const { serializer, transforms, dictId } = plan;
    const valueOf = dictId === undefined ? (_i: number, p: number | bigint) => fromPattern(type, plan.width, p) : dictValues(type, dictId, dict, base);
    if (randomAccess(serializer) && transforms.every((t) => t.kind !== Codec.DELTA)) {
      // Every value follows from its own bits: check the size now and read a page's block when it is shown.
      readPatterns(ring, serializer, bytes, n, at, 0);
      return inBlocks(take, (from, to) =>
        untransform(ring, transforms, readPatterns(ring, serializer, bytes, n, at, to, from)).map((p, k) => valueOf(from + k, p)),
      );
    }
    const patterns = untransform(ring, transforms, readPatterns(ring, serializer, bytes, n, at, take));
    return { length: patterns.length, at: (i) => valueOf(i, patterns[i]!) };
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (type.code === 'FLOAT') {
    const w = type.bits / 8;
    if (bytes.length !== n * w)
      throw new FormatError('corrupt', `${n} FLOAT${type.bits} values need ${n * w} bytes, found ${bytes.length}`, { offset: base, field: 'PLAIN' });
    return { length: take, at: w === 8 ? (i) => dv.getFloat64(i * 8, true) : (i) => dv.getFloat32(i * 4, true) };
  }
  // Where each value's length prefix and bytes start; the value's end is the next one's prefix.
  const heads = new Uint32Array(take + 1);
  const starts = new Uint32Array(take);
  let pos = 0;
  for (let i = 0; i < take; i++) {
    const head = pos;
    let len = 0;
    for (let shift = 0; ; shift += 7) {
      if (pos >= bytes.length || shift > 49)
        throw new FormatError('truncated', `value ${i}: length prefix runs past the data`, { offset: at + head, field: 'PLAIN' });
      const b = bytes[pos++]!;
      len += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) break;
    }
    if (len > bytes.length - pos) throw new FormatError('truncated', `value ${i} of ${len} bytes runs past the data`, { offset: at + head, field: 'PLAIN' });
    heads[i] = head;
    starts[i] = pos;
    pos += len;
  }
  heads[take] = pos;
  if (take === n && pos !== bytes.length)
    throw new FormatError('corrupt', `${bytes.length - pos} bytes after the last value`, { offset: at + pos, field: 'PLAIN' });
  return {
    length: take,
    at: (i) => {
      const raw = bytes.subarray(starts[i]!, heads[i + 1]!);
      return type.code === 'BYTES' ? raw : decodeUtf8(raw, { offset: at + heads[i]!, field: `value ${i}` });
    },
  };
}

/** Rows per block of values made at once from a random-access chain: a page touches one or two. */
const VALUE_BLOCK = 1024;

function inBlocks(length: number, make: (from: number, to: number) => Value[]): ChunkValues {
  let first = -1;
  let block: Value[] = [];
  return {
    length,
    at(i) {
      const from = i - (i % VALUE_BLOCK);
      if (from !== first) {
        block = make(from, Math.min(from + VALUE_BLOCK, length));
        first = from;
      }
      return block[i - from]!;
    },
  };
}

/** Value i from its dictionary code; each entry is decoded once, the first time a shown code uses it. */
function dictValues(
  type: LeafType,
  dictId: number,
  dict: readonly Uint8Array[] | undefined,
  base: number | undefined,
): (i: number, code: number | bigint) => Value {
  if (!dict) throw new FormatError('corrupt', `dictionary ${dictId} is missing`, { offset: base, field: 'DICT' });
  const decoded: (Exclude<Value, null> | undefined)[] = new Array(dict.length);
  return (i, code) => {
    const entry = dict[code as number];
    if (entry === undefined)
      throw new FormatError('corrupt', `value ${i}: code ${code} is past the ${dict.length} entries of dictionary ${dictId}`, {
        offset: base,
        field: 'DICT code',
      });
    return (decoded[code as number] ??= valueFromCanonical(type, entry, { offset: base, field: 'dictionary entry' }));
  };
}

function fromPattern(type: LeafType, width: number, p: number | bigint): Value {
  if (typeof p === 'bigint') return type.code === 'INT' && !type.signed ? p : BigInt.asIntN(64, p);
  const signed = type.code === 'INT' && type.signed;
  return signed && p >= 2 ** (width - 1) ? p - 2 ** width : p;
}

function toPattern(width: number, v: number | bigint): number | bigint {
  if (width === 64) return BigInt.asUintN(64, BigInt(v));
  const n = Number(v);
  return n < 0 ? n + 2 ** width : n;
}

/** The blob of one chunk: `values` has one entry per row, null for a missing value. */
export function encodeChunk(
  type: LeafType,
  nullable: boolean,
  plan: ChainPlan,
  values: readonly Value[],
  codes?: (v: Exclude<Value, null>) => number,
): Uint8Array {
  const present = values.filter((v): v is Exclude<Value, null> => v !== null);
  if (!nullable && present.length !== values.length) throw new RangeError('a null in a column that is not nullable');
  const body = compress(plan.compressor, encodeValues(type, plan, present, codes));
  if (!nullable) return body;
  const bitmap = new Uint8Array(Math.ceil(values.length / 8));
  values.forEach((v, i) => v !== null && (bitmap[i >> 3]! |= 1 << (i & 7)));
  const out = new Uint8Array(bitmap.length + body.length);
  out.set(bitmap);
  out.set(body, bitmap.length);
  return out;
}

export function encodeValues(
  type: LeafType,
  plan: ChainPlan,
  values: readonly Exclude<Value, null>[],
  codes?: (v: Exclude<Value, null>) => number,
): Uint8Array {
  if (plan.width > 0) {
    const ring = ringOf(plan.width);
    const patterns = values.map((v) => (plan.dictId !== undefined ? codes!(v) : toPattern(plan.width, v as number | bigint)));
    return writePatterns(ring, plan.serializer, transform(ring, plan.transforms, patterns));
  }
  if (type.code === 'FLOAT') {
    const w = type.bits / 8;
    const out = new Uint8Array(values.length * w);
    const dv = new DataView(out.buffer);
    values.forEach((v, i) => (w === 8 ? dv.setFloat64(i * 8, v as number, true) : dv.setFloat32(i * 4, v as number, true)));
    return out;
  }
  const parts = values.map((v) => canonicalBytes(type, v));
  let size = 0;
  for (const p of parts) size += varintLength(p.length) + p.length;
  const out = new Uint8Array(size);
  let pos = 0;
  for (const p of parts) {
    for (let len = p.length; ; ) {
      const byte = len & 0x7f;
      len = Math.floor(len / 128);
      out[pos++] = len ? byte | 0x80 : byte;
      if (!len) break;
    }
    out.set(p, pos);
    pos += p.length;
  }
  return out;
}

function varintLength(n: number): number {
  let k = 1;
  while (n >= 128) ((n = Math.floor(n / 128)), k++);
  return k;
}
