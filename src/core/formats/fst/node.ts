import { FormatError } from '../../errors.js';

/**
 * One node (state) of an fst, decoded backwards from its state byte (spec fst.md §3–§5).
 * Decoding is lazy: the header fields are read here, transitions on demand through the
 * accessors, so walking a path costs a few byte reads per node and no allocation per edge.
 * Every position is checked against the node-data bounds first: a corrupt file gives a
 * FormatError naming the node address, never an out-of-bounds read.
 */
export const enum NodeKind {
  OneTransNext = 0,
  OneTrans = 1,
  AnyTrans = 2,
  /** Address 0: final, no transitions, output 0. Never stored in the file. */
  EmptyFinal = 3,
}

export const KIND_NAMES = ['OneTransNext', 'OneTrans', 'AnyTrans', 'EmptyFinal'] as const;
/** The short names `fst csv nodes` prints. */
export const KIND_CODES = ['OTN', 'OT', 'AT', 'EF'] as const;

/** Bytes 1..63 of the state-byte code, in rank order (spec §5). */
const COMMON = [
  0x74, 0x65, 0x2f, 0x6f, 0x61, 0x73, 0x72, 0x69, 0x70, 0x63, 0x6e, 0x77, 0x2e, 0x68, 0x6c, 0x6d, 0x2d, 0x64, 0x75, 0x30, 0x31, 0x32, 0x67, 0x3d, 0x3a, 0x62,
  0x66, 0x33, 0x79, 0x35, 0x26, 0x5f, 0x34, 0x76, 0x39, 0x36, 0x37, 0x38, 0x6b, 0x25, 0x3f, 0x78, 0x43, 0x44, 0x41, 0x53, 0x46, 0x49, 0x42, 0x45, 0x6a, 0x50,
  0x54, 0x7a, 0x52, 0x4e, 0x4d, 0x2b, 0x4c, 0x4f, 0x71, 0x48, 0x47,
];

/** Input byte → state-byte code (0 = stored explicitly). */
export const COMMON_CODE = new Uint8Array(256);
COMMON.forEach((b, i) => (COMMON_CODE[b] = i + 1));

/** An index of 256 bytes precedes the pack-sizes byte of nodes with more than this many transitions, from version 2. */
export const INDEX_THRESHOLD = 32;
/** The largest node a builder writes: 256 transitions with 8-byte deltas and outputs, an index, a final output. */
export const MAX_NODE_BYTES = 8 + 256 * 8 + 256 * 8 + 256 + 256 + 3;

/** Scratch result of `readU64`: a u64 as two 32-bit halves, so sums stay exact without BigInt. */
export const u64 = { hi: 0, lo: 0 };

const TWO32 = 4294967296;

/** Reads a little-endian unsigned integer of `width` (0..8) bytes at `pos` into `u64`. */
export function readU64(bytes: Uint8Array, pos: number, width: number): void {
  // Deltas and small outputs are 1–3 bytes: those widths skip the loops.
  switch (width) {
    case 1:
      u64.hi = 0;
      u64.lo = bytes[pos]!;
      return;
    case 2:
      u64.hi = 0;
      u64.lo = bytes[pos]! | (bytes[pos + 1]! << 8);
      return;
    case 3:
      u64.hi = 0;
      u64.lo = bytes[pos]! | (bytes[pos + 1]! << 8) | (bytes[pos + 2]! << 16);
      return;
  }
  let lo = 0;
  let hi = 0;
  const l = width < 4 ? width : 4;
  for (let i = l - 1; i >= 0; i--) lo = lo * 256 + bytes[pos + i]!;
  for (let i = width - 1; i >= 4; i--) hi = hi * 256 + bytes[pos + i]!;
  u64.hi = hi;
  u64.lo = lo;
}

/** A u64 held as halves → bigint (exact). */
export function toBigInt(hi: number, lo: number): bigint {
  return hi === 0 ? BigInt(lo) : (BigInt(hi) << 32n) | BigInt(lo);
}

/** A u64 held as halves → decimal text, without BigInt for values below 2^53. */
export function toDecimal(hi: number, lo: number): string {
  return hi < 0x200000 ? String(hi * TWO32 + lo) : toBigInt(hi, lo).toString();
}

/** The bytes a node is decoded from: a window of the file starting at absolute offset `base`. */
export interface NodeBytes {
  readonly bytes: Uint8Array;
  readonly base: number;
  /** Lowest absolute address node bytes may use (16, or the window start). */
  readonly low: number;
}

export class FstNode {
  /** Absolute address of the state byte (the node's last byte). */
  addr = 0;
  /** Absolute address of the node's first byte. */
  start = 0;
  kind: NodeKind = NodeKind.EmptyFinal;
  isFinal = true;
  ntrans = 0;
  /** Transition-delta and output widths from the pack-sizes byte. */
  tsize = 0;
  osize = 0;
  finalHi = 0;
  finalLo = 0;
  /** AnyTrans: absolute position of the 256-byte index, or -1. */
  indexAt = -1;
  private bytes: Uint8Array = EMPTY_BYTES;
  private base = 0;
  /** AnyTrans: absolute position of the input of transition 0 (inputs run downwards). */
  private inputs = 0;
  /** One-transition nodes: the input byte. */
  private input0 = 0;

  /** A node decoded at `addr`; `src` null (or address 0) gives the EMPTY final node. */
  static at(src: NodeBytes | null, addr: number, version: number): FstNode {
    const n = new FstNode();
    if (src !== null && addr !== 0) n.decode(src, addr, version);
    return n;
  }

  /**
   * Decodes the node at `addr` into this object. Walks reuse one object per depth, so
   * streaming millions of keys allocates no node objects.
   */
  decode(src: NodeBytes, addr: number, version: number): this {
    const { bytes, base, low } = src;
    this.addr = addr;
    this.bytes = bytes;
    this.base = base;
    this.indexAt = -1;
    this.finalHi = 0;
    this.finalLo = 0;
    if (addr === 0) {
      this.kind = NodeKind.EmptyFinal;
      this.start = 0;
      this.isFinal = true;
      this.ntrans = 0;
      this.tsize = 0;
      this.osize = 0;
      return this;
    }
    // Reads below `low` yield undefined in a typed array, which makes `start` NaN or lower than `low`: both fail the `start >= low` checks.
    const state = bytes[addr - base]!;
    const top = state >> 6;
    if (top >= 2) {
      const code = state & 0x3f;
      let p = addr - 1;
      this.input0 = code === 0 ? bytes[p-- - base]! : COMMON[code - 1]!;
      this.ntrans = 1;
      this.isFinal = false;
      if (top === 3) {
        this.kind = NodeKind.OneTransNext;
        this.tsize = 0;
        this.osize = 0;
        this.start = p + 1;
        if (!(this.start >= low)) throw corrupt(addr, 'its input byte lies before the node data');
        return this;
      }
      this.kind = NodeKind.OneTrans;
      const sizes = bytes[p-- - base]!;
      this.tsize = sizes >> 4;
      this.osize = sizes & 15;
      checkWidths(addr, this.tsize, this.osize);
      this.start = p + 1 - this.tsize - this.osize;
      if (!(this.start >= low)) throw corrupt(addr, `its ${this.tsize}-byte delta and ${this.osize}-byte output run before the node data`);
      return this;
    }
    this.kind = NodeKind.AnyTrans;
    this.isFinal = top === 1;
    let p = addr - 1;
    let n = state & 0x3f;
    if (n === 0) {
      n = bytes[p-- - base]!;
      if (n === 1) n = 256;
    }
    this.ntrans = n;
    const sizes = bytes[p - base]!;
    this.tsize = sizes >> 4;
    this.osize = sizes & 15;
    checkWidths(addr, this.tsize, this.osize);
    if (n > 0 && this.tsize === 0) throw corrupt(addr, `${n} transitions but a delta width of 0`);
    if (version >= 2 && n > INDEX_THRESHOLD) {
      p -= 256;
      this.indexAt = p;
    }
    this.inputs = p - 1;
    const finalBytes = this.isFinal ? this.osize : 0;
    this.start = p - n - n * this.tsize - n * this.osize - finalBytes;
    if (!(this.start >= low)) throw corrupt(addr, `its ${n} transitions need ${addr - this.start + 1} bytes, more than lie before it`);
    // A seek takes the first input not below the byte it looks for, while a stream visits every
    // transition: on a node whose inputs do not increase the two would give different keys.
    for (let i = 1, at = this.inputs - base, a = bytes[at]!; i < n; i++) {
      const b = bytes[at - i]!;
      if (a >= b)
        throw corrupt(addr, `transition ${i} (input 0x${b.toString(16)}) is not after transition ${i - 1} (0x${a.toString(16)}): inputs must increase`);
      a = b;
    }
    if (finalBytes > 0) {
      readU64(bytes, this.start - base, this.osize);
      this.finalHi = u64.hi;
      this.finalLo = u64.lo;
    }
    return this;
  }

  /** Number of bytes the node occupies. */
  get size(): number {
    return this.kind === NodeKind.EmptyFinal ? 0 : this.addr - this.start + 1;
  }

  input(i: number): number {
    return this.kind === NodeKind.AnyTrans ? this.bytes[this.inputs - i - this.base]! : this.input0;
  }

  /** Reads the output of transition i into `u64`. */
  output(i: number): void {
    if (this.osize === 0) {
      u64.hi = 0;
      u64.lo = 0;
    } else if (this.kind === NodeKind.AnyTrans) {
      readU64(this.bytes, this.inputs - this.ntrans + 1 - this.ntrans * this.tsize - (i + 1) * this.osize - this.base, this.osize);
    } else {
      readU64(this.bytes, this.start - this.base, this.osize);
    }
  }

  /** Address of transition i's target; throws when the stored delta points forwards or into the header. */
  target(i: number): number {
    if (this.kind === NodeKind.OneTransNext) {
      if (this.start - 1 < 16) throw corrupt(this.addr, 'its next-node target lies in the header');
      return this.start - 1;
    }
    const at = this.kind === NodeKind.AnyTrans ? this.inputs - this.ntrans + 1 - (i + 1) * this.tsize : this.start + this.osize;
    readU64(this.bytes, at - this.base, this.tsize);
    if (u64.hi === 0 && u64.lo === 0) return 0;
    const delta = u64.hi * TWO32 + u64.lo;
    if (delta > this.start) throw corrupt(this.addr, `transition ${i} has delta ${toDecimal(u64.hi, u64.lo)}, beyond the start of the file`, at);
    const t = this.start - delta;
    if (t < 16) throw corrupt(this.addr, `transition ${i} points to ${t}, inside the header`, at);
    return t;
  }

  /** Index of the transition on byte `b`, or -1. */
  find(b: number): number {
    if (this.kind !== NodeKind.AnyTrans) return this.kind !== NodeKind.EmptyFinal && this.input0 === b ? 0 : -1;
    if (this.indexAt >= 0) {
      const i = this.bytes[this.indexAt + b - this.base]!;
      return i < this.ntrans && this.input(i) === b ? i : -1;
    }
    const n = this.ntrans;
    const bytes = this.bytes;
    const at = this.inputs - this.base;
    for (let i = 0; i < n; i++) {
      const c = bytes[at - i]!;
      if (c === b) return i;
      if (c > b) return -1;
    }
    return -1;
  }

  /** The v2/v3 index entry for byte b (index nodes only). */
  indexEntry(b: number): number {
    return this.bytes[this.indexAt + b - this.base]!;
  }

  /** The node's bytes, lowest first (for the inspector). */
  raw(): Uint8Array {
    return this.kind === NodeKind.EmptyFinal ? EMPTY_BYTES : this.bytes.subarray(this.start - this.base, this.addr + 1 - this.base);
  }
}

const EMPTY_BYTES = new Uint8Array(0);

function checkWidths(addr: number, tsize: number, osize: number): void {
  if (tsize > 8 || osize > 8) throw corrupt(addr, `pack sizes byte gives widths ${tsize}/${osize}; at most 8 bytes are allowed`, addr);
}

export function corrupt(addr: number, detail: string, offset = addr): FormatError {
  return new FormatError('corrupt', detail, { offset, field: `node @${addr}` });
}
