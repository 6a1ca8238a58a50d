import { FormatError } from '../../errors.js';
import { compress, decompress } from './compression.js';
import { readPatterns, transform, untransform, writePatterns, type ChainPlan } from './chain.js';
import { ringOf } from './ring.js';
import { Codec, type LeafType } from './model.js';
import { canonicalBytes, decodeUtf8, valueFromCanonical, type Value } from './values.js';

/** A chunk never inflates past this, whatever its stream claims (decompression bombs). */
export const MAX_CHUNK_BYTES = 256 << 20;

/**
 * One chunk blob (spec C.6) both ways: an optional validity bitmap, then the chain's encoding of
 * the chunk's non-null values. Chunks are independent, so a page decodes only the chunks it shows.
 */
/**
 * The values of the first `take` rows of a chunk (all by default). A prefix still inflates and
 * size-checks the whole chunk, but turns only its own rows into values: the first page of a
 * 65 536-row chunk does not build 65 536 values per column. Damage past the prefix is left to
 * a full decode (Verify, export).
 */
export function decodeChunk(type: LeafType, nullable: boolean, plan: ChainPlan, blob: Uint8Array, rows: number, blobOffset: number, dict?: readonly Uint8Array[], take = rows): Value[] {
  let present = rows;
  let presentTaken = Math.min(take, rows);
  let bitmap: Uint8Array | undefined;
  const bitmapBytes = nullable ? Math.ceil(rows / 8) : 0;
  if (nullable) {
    if (blob.length < bitmapBytes) throw new FormatError('truncated', `validity bitmap needs ${bitmapBytes} bytes, the chunk has ${blob.length}`, { offset: blobOffset, field: 'validity bitmap' });
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
  const values = decodeValues(type, plan, bytes, present, plan.compressor === Codec.NONE ? bodyAt : undefined, dict, presentTaken);
  if (!bitmap) return values;
  const taken = Math.min(take, rows);
  const out: Value[] = new Array(taken);
  for (let i = 0, k = 0; i < taken; i++) out[i] = (bitmap[i >> 3]! >> (i & 7)) & 1 ? values[k++]! : null;
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
function decodeValues(type: LeafType, plan: ChainPlan, bytes: Uint8Array, n: number, base: number | undefined, dict?: readonly Uint8Array[], take = n): Value[] {
  // Offsets inside a decompressed stream are not file offsets: errors then point at the chunk.
  const at = base ?? 0;
  if (plan.width > 0) {
    const ring = ringOf(plan.width);
    const patterns = untransform(ring, plan.transforms, readPatterns(ring, plan.serializer, bytes, n, at, take));
    if (plan.dictId !== undefined) {
      if (!dict) throw new FormatError('corrupt', `dictionary ${plan.dictId} is missing`, { offset: base, field: 'DICT' });
      // Each entry is decoded once, the first time a code uses it, not once per row.
      const decoded: (Exclude<Value, null> | undefined)[] = new Array(dict.length);
      return patterns.map((code, i) => {
        const c = code as number;
        const hit = decoded[c];
        if (hit !== undefined) return hit;
        const entry = dict[c];
        if (entry === undefined) throw new FormatError('corrupt', `value ${i}: code ${code} is past the ${dict.length} entries of dictionary ${plan.dictId}`, { offset: base, field: 'DICT code' });
        return (decoded[c] = valueFromCanonical(type, entry, { offset: base, field: 'dictionary entry' }));
      });
    }
    return patterns.map((p) => fromPattern(type, plan.width, p));
  }
  const out: Value[] = new Array(take);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (type.code === 'FLOAT') {
    const w = type.bits / 8;
    if (bytes.length !== n * w) throw new FormatError('corrupt', `${n} FLOAT${type.bits} values need ${n * w} bytes, found ${bytes.length}`, { offset: base, field: 'PLAIN' });
    for (let i = 0; i < take; i++) out[i] = w === 8 ? dv.getFloat64(i * 8, true) : dv.getFloat32(i * 4, true);
    return out;
  }
  let pos = 0;
  for (let i = 0; i < take; i++) {
    const start = pos;
    let len = 0;
    for (let shift = 0; ; shift += 7) {
      if (pos >= bytes.length || shift > 49) throw new FormatError('truncated', `value ${i}: length prefix runs past the data`, { offset: at + start, field: 'PLAIN' });
      const b = bytes[pos++]!;
      len += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) break;
    }
    if (len > bytes.length - pos) throw new FormatError('truncated', `value ${i} of ${len} bytes runs past the data`, { offset: at + start, field: 'PLAIN' });
    const raw = bytes.subarray(pos, pos + len);
    pos += len;
    out[i] = type.code === 'BYTES' ? raw : decodeUtf8(raw, { offset: at + start, field: `value ${i}` });
  }
  if (take === n && pos !== bytes.length) throw new FormatError('corrupt', `${bytes.length - pos} bytes after the last value`, { offset: at + pos, field: 'PLAIN' });
  return out;
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
export function encodeChunk(type: LeafType, nullable: boolean, plan: ChainPlan, values: readonly Value[], codes?: (v: Exclude<Value, null>) => number): Uint8Array {
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

export function encodeValues(type: LeafType, plan: ChainPlan, values: readonly Exclude<Value, null>[], codes?: (v: Exclude<Value, null>) => number): Uint8Array {
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
  while (n >= 128) (n = Math.floor(n / 128)), k++;
  return k;
}
