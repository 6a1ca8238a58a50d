import { readLeb128 } from '../../codecs/leb128.js';
import { FormatError } from '../../errors.js';
import { BinReader } from '../../io/binReader.js';
import { Codec, codecName, type LeafType, type Stage } from './model.js';
import type { AnyRing, Ring } from './ring.js';

/**
 * The codec chain of a column (spec C.6): `[DICT] (DELTA | FOR | ZIGZAG)* SERIALIZER [COMPRESSOR]`
 * in encode order, undone in reverse. `planChain` checks the grammar and the parameters once per
 * column; the stage functions below then run per chunk.
 */
export type Transform =
  | { readonly kind: Codec.DELTA; readonly stride: number }
  | { readonly kind: Codec.FOR; readonly reference: Uint8Array }
  | { readonly kind: Codec.ZIGZAG };

export type Serializer = { readonly kind: Codec.PLAIN | Codec.VARINT | Codec.RLE } | { readonly kind: Codec.BITPACK; readonly bits: number };

export interface ChainPlan {
  /** Dictionary the values are codes into. */
  readonly dictId?: number;
  readonly transforms: readonly Transform[];
  readonly serializer: Serializer;
  readonly compressor: number;
  /** Width W of the integer domain (INT bits, TS 64, DICT codes 32); 0 when the values are not integers. */
  readonly width: number;
}

/** A chain this reader can only describe: proprietary stages, a missing decoder. */
export class DescribeOnly {
  constructor(readonly reason: string) {}
}

export function integerWidth(type: LeafType, dict: boolean): number {
  if (dict) return 32;
  if (type.code === 'INT') return type.bits;
  return type.code === 'TS' ? 64 : 0;
}

/** The first stage this reader can only describe: any id ≥ 0x40 (spec C.6). */
export function describeOnlyStage(stages: readonly Stage[]): Stage | undefined {
  return stages.find((s) => s.codec >= 0x40);
}

/** Checks a chain against the grammar; throws FormatError for a broken one. */
export function planChain(type: LeafType, stages: readonly Stage[]): ChainPlan | DescribeOnly {
  const foreign = describeOnlyStage(stages);
  if (foreign) return new DescribeOnly(`describe-only: ${codecName(foreign.codec)} stage (proprietary or extension codec)`);
  let i = 0;
  const at = (s: Stage | undefined) => ({ offset: s?.offset, field: 'codec chain' });
  const noParams = (s: Stage) => {
    if (s.params.length !== 0) throw new FormatError('corrupt', `${codecName(s.codec)} takes no parameters, found ${s.params.length} bytes`, at(s));
  };
  let dictId: number | undefined;
  if (stages[0]?.codec === Codec.DICT) {
    dictId = readParamVarint(stages[0], 'DICT dictionary id');
    i++;
  }
  const width = integerWidth(type, dictId !== undefined);
  const transforms: Transform[] = [];
  for (; i < stages.length && [Codec.DELTA, Codec.FOR, Codec.ZIGZAG].includes(stages[i]!.codec); i++) {
    const s = stages[i]!;
    if (width === 0) throw new FormatError('corrupt', `${codecName(s.codec)} works on integers, not on ${type.code} values`, at(s));
    if (s.codec === Codec.DELTA) {
      const stride = readParamVarint(s, 'DELTA stride');
      if (stride < 1) throw new FormatError('corrupt', 'DELTA stride must be at least 1', at(s));
      transforms.push({ kind: Codec.DELTA, stride });
    } else if (s.codec === Codec.FOR) {
      if (s.params.length !== width / 8) throw new FormatError('corrupt', `FOR reference must be ${width / 8} bytes, found ${s.params.length}`, at(s));
      transforms.push({ kind: Codec.FOR, reference: s.params });
    } else {
      noParams(s);
      transforms.push({ kind: Codec.ZIGZAG });
    }
  }
  const ser = stages[i];
  if (!ser || ![Codec.PLAIN, Codec.VARINT, Codec.BITPACK, Codec.RLE].includes(ser.codec)) {
    throw new FormatError(
      'corrupt',
      ser ? `${codecName(ser.codec)} where the chain needs a serializer (PLAIN, VARINT, BITPACK or RLE)` : 'the chain has no serializer',
      at(ser ?? stages[stages.length - 1]),
    );
  }
  let serializer: Serializer;
  if (ser.codec === Codec.BITPACK) {
    if (ser.params.length !== 1 || ser.params[0]! > 64) throw new FormatError('corrupt', 'BITPACK takes one byte b in 0..64', at(ser));
    serializer = { kind: Codec.BITPACK, bits: ser.params[0]! };
  } else {
    noParams(ser);
    serializer = { kind: ser.codec as Codec.PLAIN | Codec.VARINT | Codec.RLE };
  }
  if (width === 0 && ser.codec !== Codec.PLAIN)
    throw new FormatError('corrupt', `${type.code} values without DICT must use PLAIN, not ${codecName(ser.codec)}`, at(ser));
  i++;
  let compressor: number = Codec.NONE;
  const comp = stages[i];
  if (comp) {
    if (![Codec.NONE, Codec.ZSTD, Codec.LZ4, Codec.DEFLATE].includes(comp.codec))
      throw new FormatError('corrupt', `${codecName(comp.codec)} after the serializer; only a compressor may follow`, at(comp));
    noParams(comp);
    compressor = comp.codec;
    i++;
  }
  if (i < stages.length) throw new FormatError('corrupt', `${codecName(stages[i]!.codec)} after the compressor`, at(stages[i]));
  return { dictId, transforms, serializer, compressor, width };
}

function readParamVarint(s: Stage, field: string): number {
  const r = new BinReader(s.params, s.offset + 2);
  const v = readLeb128(r, field, { minimal: true });
  if (r.remaining !== 0) throw new FormatError('corrupt', `${r.remaining} bytes after the ${field}`, { offset: r.offset, field });
  return v;
}

export function chainText(stages: readonly Stage[]): string {
  return stages.map(stageText).join(' → ');
}

export function stageText(s: Stage): string {
  const name = codecName(s.codec);
  if (s.params.length === 0) return name;
  if (s.codec === Codec.DELTA || s.codec === Codec.DICT) {
    try {
      return `${name}(${readLeb128(new BinReader(s.params), 'param')})`;
    } catch {
      /* falls through to raw bytes */
    }
  }
  if (s.codec === Codec.BITPACK && s.params.length === 1) return `${name}(${s.params[0]})`;
  if (s.codec === Codec.FOR) {
    let v = 0n;
    for (let i = s.params.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(s.params[i]!);
    return `${name}(${v})`;
  }
  return `${name}(${[...s.params].map((b) => b.toString(16).padStart(2, '0')).join(' ')})`;
}

// ---------------------------------------------------------------- integer stages, both ways

type Patterns<T> = T[];

/** Reverses the transforms (last first): residuals → W-bit patterns of the values. */
export function untransform<T extends number | bigint>(ring: Ring<T>, transforms: readonly Transform[], values: Patterns<T>): Patterns<T> {
  for (let t = transforms.length - 1; t >= 0; t--) {
    const tr = transforms[t]!;
    if (tr.kind === Codec.ZIGZAG) ring.unzigzagAll(values);
    else if (tr.kind === Codec.FOR) ring.addAll(values, ring.readLE(tr.reference, 0));
    else ring.undelta(values, tr.stride);
  }
  return values;
}

export function transform<T extends number | bigint>(ring: Ring<T>, transforms: readonly Transform[], values: Patterns<T>): Patterns<T> {
  const out = values.slice();
  for (const tr of transforms) {
    if (tr.kind === Codec.ZIGZAG) for (let i = 0; i < out.length; i++) out[i] = ring.zigzag(out[i]!);
    else if (tr.kind === Codec.FOR) {
      const ref = ring.readLE(tr.reference, 0);
      for (let i = 0; i < out.length; i++) out[i] = ring.sub(out[i]!, ref);
    } else for (let i = out.length - 1; i >= tr.stride; i--) out[i] = ring.sub(out[i]!, out[i - tr.stride]!);
  }
  return out;
}

/** Whether pattern i of a serializer can be read without reading the ones before it. */
export function randomAccess(ser: Serializer): boolean {
  return ser.kind === Codec.PLAIN || ser.kind === Codec.BITPACK;
}

/**
 * Reads patterns [start, end) of the `n` W-bit patterns in `bytes` with an integer serializer; the
 * bytes must hold exactly `n` (checked in full only when all `n` are read: a prefix stops where
 * it is complete). Only a random-access serializer starts past 0.
 */
export function readPatterns(ring: AnyRing, ser: Serializer, bytes: Uint8Array, n: number, base: number, end = n, start = 0): (number | bigint)[] {
  const r = ring;
  const where = (pos: number) => ({ offset: base + pos, field: codecName(ser.kind) });
  if (start > 0 && !randomAccess(ser)) throw new RangeError(`${codecName(ser.kind)} is read from its first value`);
  const out: (number | bigint)[] = new Array(end - start);
  let pos = 0;
  if (ser.kind === Codec.PLAIN) return readPlain(r, bytes, n, start, out, where);
  if (ser.kind === Codec.BITPACK) return readBitpacked(r, ser.bits, bytes, n, start, out, where);
  /** A varint as a number while it fits in 49 bits (7 bytes), as a bigint beyond. */
  const rawVarint = (): number | bigint => {
    const start = pos;
    let v = 0;
    let big: bigint | undefined;
    for (let shift = 0; ; shift += 7) {
      if (pos >= bytes.length) throw new FormatError('truncated', 'varint runs past the end of the chunk', where(start));
      const byte = bytes[pos++]!;
      if (shift < 49) v += (byte & 0x7f) * 2 ** shift;
      else big = (big ?? BigInt(v)) | (BigInt(byte & 0x7f) << BigInt(shift));
      if (!(byte & 0x80)) {
        if (byte === 0 && pos - start > 1) throw new FormatError('corrupt', 'varint is not minimally encoded', where(start));
        break;
      }
      if (pos - start >= 10) throw new FormatError('corrupt', 'varint longer than 10 bytes', where(start));
    }
    return big ?? v;
  };
  const limit = r.bits <= 32 ? 2 ** r.bits : undefined;
  const varint = (): number | bigint => {
    const start = pos;
    const v = rawVarint();
    const x = typeof v === 'number' && limit !== undefined ? (v < limit ? v : undefined) : r.fromBigint(BigInt(v));
    if (x === undefined) throw new FormatError('corrupt', `value ${v} does not fit ${r.bits} bits`, where(start));
    return x;
  };
  if (ser.kind === Codec.VARINT && limit !== undefined) {
    // Inline for the common case (a minimal varint of at most 5 bytes that fits W bits); the
    // closures above take anything else, errors included, from the same position.
    const size = bytes.length;
    for (let i = 0; i < end; i++) {
      const start = pos;
      let v = 0;
      let scale = 1;
      let byte = 0x80;
      while (pos < size && pos - start < 5) {
        byte = bytes[pos++]!;
        v += (byte & 0x7f) * scale;
        scale *= 128;
        if (!(byte & 0x80)) break;
      }
      if (byte & 0x80 || (byte === 0 && pos - start > 1) || v >= limit) {
        pos = start;
        out[i] = varint();
      } else out[i] = v;
    }
  } else if (ser.kind === Codec.VARINT) for (let i = 0; i < end; i++) out[i] = varint();
  else {
    for (let i = 0; i < end; ) {
      const runAt = pos;
      const run = Number(rawVarint());
      if (run < 1 || run > n - i) throw new FormatError('corrupt', `run of ${run} where ${n - i} values remain`, where(runAt));
      const v = varint();
      for (let k = 0; k < run && i < end; k++) out[i++] = v;
    }
  }
  if (end === n && pos !== bytes.length) throw new FormatError('corrupt', `${bytes.length - pos} bytes after the last value`, where(pos));
  return out;
}

type Where = (pos: number) => { offset: number; field: string };

/** PLAIN (spec C.6): values [start, start + out.length) of `n` little-endian W-bit words. */
function readPlain(r: AnyRing, bytes: Uint8Array, n: number, start: number, out: (number | bigint)[], where: Where): (number | bigint)[] {
  const w = r.bits / 8;
  if (bytes.length !== n * w) throw new FormatError('corrupt', `${n} values of ${w} bytes need ${n * w} bytes, found ${bytes.length}`, where(0));
  for (let i = 0; i < out.length; i++) out[i] = r.readLE(bytes, (start + i) * w);
  return out;
}

/** BITPACK (spec C.6): values [start, start + out.length) of `n` packed LSB-first at `b` bits each. */
function readBitpacked(r: AnyRing, b: number, bytes: Uint8Array, n: number, start: number, out: (number | bigint)[], where: Where): (number | bigint)[] {
  const need = Math.ceil((n * b) / 8);
  if (bytes.length !== need) throw new FormatError('corrupt', `${n} values of ${b} bits need ${need} bytes, found ${bytes.length}`, where(0));
  const end = start + out.length;
  if (b <= 25 && r.bits <= 32) {
    // A value of up to 25 bits starting at any bit of a byte lies within the 4 bytes from that byte.
    const mask = 2 ** b - 1;
    const limit = 2 ** r.bits;
    for (let i = start; i < end; i++) {
      const bit = i * b;
      const p = bit >>> 3;
      const v = ((bytes[p]! | (bytes[p + 1]! << 8) | (bytes[p + 2]! << 16) | (bytes[p + 3]! << 24)) >>> (bit & 7)) & mask;
      if (v >= limit) throw new FormatError('corrupt', `value ${i} does not fit ${r.bits} bits`, where(p));
      out[i - start] = v;
    }
    return out;
  }
  for (let i = start; i < end; i++) {
    const bit = i * b;
    const v = r.fromHalves(readBits(bytes, bit, Math.min(b, 32)), b > 32 ? readBits(bytes, bit + 32, b - 32) : 0);
    if (v === undefined) throw new FormatError('corrupt', `value ${i} does not fit ${r.bits} bits`, where(bit >> 3));
    out[i - start] = v;
  }
  return out;
}

/** Bits [bit, bit + count) of an LSB-first stream, count ≤ 32. */
function readBits(bytes: Uint8Array, bit: number, count: number): number {
  let v = 0;
  for (let got = 0; got < count; ) {
    const byte = bytes[(bit + got) >> 3]!;
    const off = (bit + got) & 7;
    const take = Math.min(8 - off, count - got);
    v += ((byte >> off) & ((1 << take) - 1)) * 2 ** got;
    got += take;
  }
  return v;
}

export function writePatterns(ring: AnyRing, ser: Serializer, values: readonly (number | bigint)[]): Uint8Array {
  const r = ring;
  if (ser.kind === Codec.PLAIN) {
    const w = r.bits / 8;
    const out = new Uint8Array(values.length * w);
    values.forEach((v, i) => r.writeLE(out, i * w, v));
    return out;
  }
  if (ser.kind === Codec.BITPACK) {
    const b = ser.bits;
    const out = new Uint8Array(Math.ceil((values.length * b) / 8));
    values.forEach((v, i) => {
      if (r.bitLength(v) > b) throw new RangeError(`value ${v} needs more than ${b} bits`);
      writeBits(out, i * b, Math.min(b, 32), r.lo32(v));
      if (b > 32) writeBits(out, i * b + 32, b - 32, r.hi32(v));
    });
    return out;
  }
  const parts: number[] = [];
  const varint = (v: bigint) => {
    do {
      const byte = Number(v & 0x7fn);
      v >>= 7n;
      parts.push(v ? byte | 0x80 : byte);
    } while (v);
  };
  if (ser.kind === Codec.VARINT) for (const v of values) varint(r.toBigint(v));
  else {
    for (let i = 0; i < values.length; ) {
      let j = i + 1;
      while (j < values.length && values[j] === values[i]) j++;
      varint(BigInt(j - i));
      varint(r.toBigint(values[i]!));
      i = j;
    }
  }
  return Uint8Array.from(parts);
}

function writeBits(out: Uint8Array, bit: number, count: number, v: number): void {
  for (let put = 0; put < count; ) {
    const off = (bit + put) & 7;
    const take = Math.min(8 - off, count - put);
    out[(bit + put) >> 3]! |= (Math.floor(v / 2 ** put) & ((1 << take) - 1)) << off;
    put += take;
  }
}
