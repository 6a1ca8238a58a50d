import { FormatError } from '../../errors.js';

/**
 * Unsigned W-bit integer patterns and arithmetic modulo 2^W (spec C.6: integer stages are total
 * and lossless). Widths up to 32 use plain numbers, 64 uses bigints; the codec stages are
 * written once against this interface.
 */
export interface Ring<T extends number | bigint> {
  readonly bits: number;
  sub(a: T, b: T): T;
  zigzag(x: T): T;
  // The decoding stages run over a whole chunk in one call each, not a call per value: a page
  // far into a chunk decodes 65 536 values per column before the engine has warmed up.
  /** ZIGZAG⁻¹ of every value, in place. */
  unzigzagAll(values: T[]): void;
  /** FOR⁻¹: adds `ref` to every value, in place. */
  addAll(values: T[], ref: T): void;
  /** DELTA⁻¹ with this stride: running sums, in place. */
  undelta(values: T[], stride: number): void;
  /** Reads W/8 bytes little-endian. */
  readLE(bytes: Uint8Array, pos: number): T;
  writeLE(out: Uint8Array, pos: number, v: T): void;
  /** Joins two 32-bit halves read from a bit stream; errors when the value needs more than W bits. */
  fromHalves(lo: number, hi: number): T | undefined;
  lo32(v: T): number;
  hi32(v: T): number;
  /** Bits needed to hold v (0 for 0). */
  bitLength(v: T): number;
  fromBigint(v: bigint): T | undefined;
  toBigint(v: T): bigint;
  lessThan(a: T, b: T): boolean;
}

/** A ring of either representation; stages only combine values that came from the same ring. */
export type AnyRing = Ring<number | bigint>;

function smallRing(bits: 8 | 16 | 32): Ring<number> {
  const mod = 2 ** bits;
  const half = mod / 2;
  // ToUint32 reduces any integer modulo 2^32, so one bit operation wraps sums and differences.
  const wrap = bits === 32 ? (x: number) => x >>> 0 : (x: number) => x & (mod - 1);
  return {
    bits,
    sub: (a, b) => wrap(a - b),
    zigzag: (x) => (x >= half ? 2 * (mod - x) - 1 : 2 * x),
    // Values are patterns below mod, so a sum wraps by one subtraction and an odd z maps to
    // −(z + 1)/2 mod 2^W = mod − (z + 1)/2.
    unzigzagAll(v) {
      for (let i = 0; i < v.length; i++) {
        const z = v[i]!;
        v[i] = z % 2 === 0 ? z / 2 : mod - (z + 1) / 2;
      }
    },
    addAll(v, ref) {
      for (let i = 0; i < v.length; i++) {
        const s = v[i]! + ref;
        v[i] = s >= mod ? s - mod : s;
      }
    },
    undelta(v, stride) {
      for (let i = stride; i < v.length; i++) {
        const s = v[i]! + v[i - stride]!;
        v[i] = s >= mod ? s - mod : s;
      }
    },
    readLE(bytes, pos) {
      let v = 0;
      for (let i = bits / 8 - 1; i >= 0; i--) v = v * 256 + bytes[pos + i]!;
      return v;
    },
    writeLE(out, pos, v) {
      for (let i = 0; i < bits / 8; i++, v = Math.floor(v / 256)) out[pos + i] = v & 0xff;
    },
    fromHalves: (lo, hi) => (hi === 0 && lo < mod ? lo : undefined),
    lo32: (v) => v,
    hi32: () => 0,
    bitLength: (v) => (v === 0 ? 0 : 32 - Math.clz32(v)),
    fromBigint: (v) => (v >= 0n && v < BigInt(mod) ? Number(v) : undefined),
    toBigint: (v) => BigInt(v),
    lessThan: (a, b) => a < b,
  };
}

const MASK64 = (1n << 64n) - 1n;

const ring64: Ring<bigint> = {
  bits: 64,
  sub: (a, b) => (a - b) & MASK64,
  zigzag: (x) => ((x << 1n) ^ (x >> 63n ? MASK64 : 0n)) & MASK64,
  unzigzagAll(v) {
    for (let i = 0; i < v.length; i++) v[i] = ((v[i]! >> 1n) ^ (v[i]! & 1n ? MASK64 : 0n)) & MASK64;
  },
  addAll(v, ref) {
    for (let i = 0; i < v.length; i++) v[i] = (v[i]! + ref) & MASK64;
  },
  undelta(v, stride) {
    for (let i = stride; i < v.length; i++) v[i] = (v[i]! + v[i - stride]!) & MASK64;
  },
  readLE: (bytes, pos) => new DataView(bytes.buffer, bytes.byteOffset + pos, 8).getBigUint64(0, true),
  writeLE: (out, pos, v) => new DataView(out.buffer, out.byteOffset + pos, 8).setBigUint64(0, v, true),
  fromHalves: (lo, hi) => (BigInt(hi) << 32n) | BigInt(lo),
  lo32: (v) => Number(v & 0xffffffffn),
  hi32: (v) => Number(v >> 32n),
  bitLength: (v) => v.toString(2).length - (v === 0n ? 1 : 0),
  fromBigint: (v) => (v >= 0n && v <= MASK64 ? v : undefined),
  toBigint: (v) => v,
  lessThan: (a, b) => a < b,
};

const rings = new Map<number, AnyRing>([
  [8, smallRing(8) as AnyRing],
  [16, smallRing(16) as AnyRing],
  [32, smallRing(32) as AnyRing],
  [64, ring64 as AnyRing],
]);

export function ringOf(bits: number): AnyRing {
  const r = rings.get(bits);
  if (!r) throw new FormatError('corrupt', `integer width ${bits} is not 8, 16, 32 or 64`);
  return r;
}
