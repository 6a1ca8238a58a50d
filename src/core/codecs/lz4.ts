import { FormatError } from '../errors.js';
// @ts-ignore: a .wasm file, inlined as its bytes by the bundler (esbuild's binary loader, the vitest plugin); tsc cannot type it
import lz4BlockWasm from './wasm/lz4block.wasm';
import { lazyInstance } from './wasm/module.js';
import { xxh32 } from './xxh32.js';

/**
 * LZ4 frames (the lz4 frame format 1.6.x): a strict decoder (the encoder is lz4Encode.ts).
 *
 * The decoder accepts every valid frame (linked or independent blocks, block and content
 * checksums, content size, several blocks, stored blocks) and rejects everything else with a
 * FormatError at the absolute offset of the damage: a frame that decodes to a length other than
 * the caller expects, bytes after the frame, a bad descriptor checksum, a match offset before the
 * start of the window, a block that overruns its declared size. Lenient decoders (lz4js) decode
 * some corruptions to a plausible wrong length; callers here always learn about it.
 */

export interface Lz4DecodeOptions {
  /** Never produce more than this many bytes (a decompression bomb stops here). */
  readonly maxSize: number;
  /** The exact decoded length the container declares; any other length is an error. */
  readonly expectedSize?: number;
  /** Absolute offset of `data[0]` in the file, for error locations. */
  readonly offset?: number;
  readonly field?: string;
  /**
   * Return a view of the decoder's own memory, valid only until the next decode, instead of a
   * copy: for callers that consume the bytes at once (regroup, hash, count). Copying each frame
   * out into a fresh buffer cost a third of the xorb-lz4 bench (page faults of the new memory).
   * The TypeScript fallback returns a buffer of its own either way.
   */
  readonly view?: boolean;
}

export const LZ4_FRAME_MAGIC = 0x184d2204;
/** Block maximum sizes by the descriptor's BD code; the encoder shares them. */
export const BLOCK_MAX_SIZES: Record<number, number> = { 4: 64 << 10, 5: 256 << 10, 6: 1 << 20, 7: 4 << 20 };
export const MIN_MATCH = 4;

/** The frame descriptor and block layout, as a viewer shows them (no decoding). */
export interface Lz4FrameInfo {
  readonly flg: number;
  readonly bd: number;
  readonly headerChecksum: number;
  readonly independentBlocks: boolean;
  readonly blockChecksums: boolean;
  readonly contentChecksum: boolean;
  readonly contentSize?: number;
  readonly blockMaxSize: number;
  /** Each data block: offset of its size field relative to the frame, stored size, stored raw. */
  readonly blocks: readonly { readonly at: number; readonly size: number; readonly stored: boolean }[];
  /** Length of the frame, end mark and content checksum included. */
  readonly length: number;
}

class Where {
  constructor(
    readonly base: number,
    readonly field: string,
  ) {}

  error(code: 'truncated' | 'corrupt' | 'unsupported' | 'checksum' | 'limit' | 'out-of-range', detail: string, at: number, part?: string): FormatError {
    return new FormatError(code, detail, { offset: this.base + at, field: part ? `${this.field} ${part}` : this.field });
  }
}

function u32(b: Uint8Array, p: number): number {
  return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
}

/**
 * Walks the frame's structure, checking everything that does not need decoding (magic, flags,
 * descriptor checksum, block sizes, lengths, trailing bytes); `onBlock` sees each data block.
 */
function walkFrame(data: Uint8Array, where: Where, onBlock?: OnBlock): Lz4FrameInfo {
  const { end, ...descriptor } = readDescriptor(data, where);
  const flg = descriptor.flg;
  const blockChecksums = (flg & 0x10) !== 0;
  const blocks: Block[] = [];
  let p = walkBlocks(data, where, end, descriptor.blockMaxSize, blockChecksums, blocks, onBlock) + 4;
  const contentChecksum = (flg & 0x04) !== 0;
  if (contentChecksum) {
    need(data, where, p, 4, 'content checksum');
    p += 4;
  }
  if (p !== data.length) throw where.error('corrupt', `${data.length - p} bytes follow the end of the frame`, p, 'trailing bytes');
  return { ...descriptor, independentBlocks: (flg & 0x20) !== 0, blockChecksums, contentChecksum, blocks, length: p };
}

function need(data: Uint8Array, where: Where, p: number, n: number, part: string): void {
  if (p + n > data.length) throw where.error('truncated', `needs ${n} bytes but only ${Math.max(0, data.length - p)} remain`, p, part);
}

/** Sees each data block: where its bytes start, how many, whether stored raw. */
type OnBlock = (start: number, size: number, stored: boolean) => void;
type Block = Lz4FrameInfo['blocks'][number];
/** The frame's magic and descriptor (FLG, BD, content size, dictionary id, header checksum); `end` is where its blocks start. */
type Descriptor = Pick<Lz4FrameInfo, 'flg' | 'bd' | 'blockMaxSize' | 'contentSize' | 'headerChecksum'> & { readonly end: number };

function readDescriptor(data: Uint8Array, where: Where): Descriptor {
  need(data, where, 0, 7, 'frame header');
  const magic = u32(data, 0);
  if (magic !== LZ4_FRAME_MAGIC) throw where.error('corrupt', `expected an LZ4 frame (magic 0x184d2204), found ${magicName(magic)}`, 0, 'frame magic');
  const flg = data[4]!;
  const bd = data[5]!;
  if (flg >> 6 !== 1) throw where.error('unsupported', `frame version ${flg >> 6} (only 1 exists)`, 4, 'FLG');
  if (flg & 0x02) throw where.error('corrupt', 'reserved FLG bit 1 is set', 4, 'FLG');
  if (bd & 0x8f) throw where.error('corrupt', `reserved BD bits are set (0x${bd.toString(16)})`, 5, 'BD');
  const blockMaxSize = BLOCK_MAX_SIZES[(bd >> 4) & 7];
  if (blockMaxSize === undefined) throw where.error('corrupt', `block max size code ${(bd >> 4) & 7} (4 to 7 exist)`, 5, 'BD');
  const hasDictId = (flg & 0x01) !== 0;
  let p = 6;
  let contentSize: number | undefined;
  if (flg & 0x08) {
    need(data, where, p, 8, 'content size');
    const hi = u32(data, p + 4);
    if (hi > 0x1fffff) throw where.error('limit', 'content size does not fit 2^53', p, 'content size');
    contentSize = hi * 2 ** 32 + u32(data, p);
    p += 8;
  }
  if (hasDictId) {
    need(data, where, p, 4, 'dictionary id');
    p += 4;
  }
  need(data, where, p, 1, 'header checksum');
  const headerChecksum = data[p]!;
  const expected = (xxh32(data, 0, 4, p) >>> 8) & 0xff;
  if (headerChecksum !== expected) {
    throw where.error(
      'checksum',
      `header checksum is 0x${headerChecksum.toString(16).padStart(2, '0')}, the descriptor gives 0x${expected.toString(16).padStart(2, '0')}`,
      p,
      'header checksum',
    );
  }
  if (hasDictId) throw where.error('unsupported', 'the frame needs a dictionary, which a self-contained payload cannot have', p - 4, 'dictionary id');
  return { flg, bd, blockMaxSize, contentSize, headerChecksum, end: p + 1 };
}

/** What a frame that is not LZ4's own starts with, for the error. */
function magicName(magic: number): string {
  if (magic === 0x184c2102) return 'a legacy LZ4 frame';
  if ((magic & 0xfffffff0) === 0x184d2a50) return 'a skippable frame';
  return `magic 0x${magic.toString(16).padStart(8, '0')}`;
}

/** The data blocks up to the end mark, each size and checksum checked before `onBlock` sees it; returns where the end mark stands. */
function walkBlocks(data: Uint8Array, where: Where, from: number, blockMaxSize: number, blockChecksums: boolean, blocks: Block[], onBlock?: OnBlock): number {
  for (let p = from; ; ) {
    need(data, where, p, 4, `block ${blocks.length} size`);
    const word = u32(data, p);
    if (word === 0) return p;
    const stored = word >= 0x80000000;
    const size = word & 0x7fffffff;
    if (size > blockMaxSize)
      throw where.error('corrupt', `block of ${size} bytes exceeds the frame's block max size ${blockMaxSize}`, p, `block ${blocks.length} size`);
    need(data, where, p + 4, size + (blockChecksums ? 4 : 0), `block ${blocks.length}`);
    if (blockChecksums) {
      const stated = u32(data, p + 4 + size);
      const actual = xxh32(data, 0, p + 4, p + 4 + size);
      if (stated !== actual)
        throw where.error(
          'checksum',
          `block checksum 0x${stated.toString(16)} does not match 0x${actual.toString(16)}`,
          p + 4 + size,
          `block ${blocks.length} checksum`,
        );
    }
    onBlock?.(p + 4, size, stored);
    blocks.push({ at: p, size, stored });
    p += 4 + size + (blockChecksums ? 4 : 0);
  }
}

/** The frame descriptor and block list of a whole frame, checked but not decoded. */
export function readLz4FrameInfo(data: Uint8Array, opts: { offset?: number; field?: string } = {}): Lz4FrameInfo {
  return walkFrame(data, new Where(opts.offset ?? 0, opts.field ?? 'LZ4 frame'));
}

/**
 * Decodes exactly one LZ4 frame that fills `data`. With `expectedSize` the output must have
 * exactly that length; without it, at most `maxSize`.
 */
export function decodeLz4Frame(data: Uint8Array, opts: Lz4DecodeOptions): Uint8Array {
  const where = new Where(opts.offset ?? 0, opts.field ?? 'LZ4 frame');
  if (opts.expectedSize !== undefined && opts.expectedSize > opts.maxSize) {
    throw where.error('limit', `declares ${opts.expectedSize} decoded bytes, more than the ${opts.maxSize} allowed`, 0);
  }
  return decodeInWasm(data, opts, where) ?? decodeInJs(data, opts, where);
}

/**
 * The two decoders on their own, for tests that hold them to the same answers: the WebAssembly
 * path (undefined where it declines a frame) and the TypeScript one.
 */
export const lz4Decoders = {
  wasm: (data: Uint8Array, opts: Lz4DecodeOptions): Uint8Array | undefined => decodeInWasm(data, opts, new Where(opts.offset ?? 0, opts.field ?? 'LZ4 frame')),
  ts: (data: Uint8Array, opts: Lz4DecodeOptions): Uint8Array => decodeInJs(data, opts, new Where(opts.offset ?? 0, opts.field ?? 'LZ4 frame')),
};

/** The block decoder of `wasm/lz4block.wat` and its memory. */
interface Lz4Wasm {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  readonly block: (ip: number, end: number, op: number, dstEnd: number, win: number) => number;
}

const wasmDecoder = lazyInstance<Lz4Wasm>(lz4BlockWasm as Uint8Array);

/** The wide copies of the WASM decoder read up to 16 bytes past its input and write up to 32 past its output bound. */
const INPUT_SLACK = 16;
const OUTPUT_SLACK = 32;
/** Frames needing more WASM memory than this decode in TypeScript, so the memory (never given back) stays small. */
const WASM_MEMORY_CAP = 64 << 20;

/**
 * The fast path: the frame is walked and checked as in TypeScript, its blocks are decoded in
 * WebAssembly (about 10× faster, DESIGN.md "Performance"). Anything unusual (a damaged frame,
 * a block that does not fit, a frame too large) returns undefined, and the TypeScript decoder
 * then decodes the same frame and reports the first defect where it is: one implementation
 * owns the error messages and offsets, and both accept exactly the same frames.
 */
function decodeInWasm(data: Uint8Array, opts: Lz4DecodeOptions, where: Where): Uint8Array | undefined {
  const w = wasmDecoder();
  if (!w) return undefined;
  let info: Lz4FrameInfo;
  try {
    info = walkFrame(data, where);
  } catch {
    return undefined;
  }
  // Room for the output: the exact size, or what the blocks can decode to at most (a compressed
  // byte yields at most 255), so a small frame never reserves the whole cap.
  let capacity = opts.expectedSize;
  if (capacity === undefined) {
    let bound = 0;
    for (const b of info.blocks) bound += b.stored ? b.size : Math.min(info.blockMaxSize, b.size * 255);
    capacity = Math.min(opts.maxSize, bound);
  }
  const dstBase = (data.length + INPUT_SLACK + 7) & ~7;
  const need = dstBase + capacity + OUTPUT_SLACK;
  if (need > WASM_MEMORY_CAP) return undefined;
  const have = w.memory.buffer.byteLength;
  if (need > have) w.memory.grow(Math.ceil((need - have) / 65536));
  const heap = new Uint8Array(w.memory.buffer);
  heap.set(data, 0);
  const dstEnd = dstBase + capacity;
  const independent = info.independentBlocks;
  let op = dstBase;
  for (const b of info.blocks) {
    const start = b.at + 4;
    if (b.stored) {
      if (b.size > dstEnd - op) return undefined;
      heap.copyWithin(op, start, start + b.size);
      op += b.size;
    } else {
      op = w.block(start, start + b.size, op, dstEnd, independent ? op : dstBase);
      if (op < 0) return undefined;
    }
  }
  const n = op - dstBase;
  if (info.contentSize !== undefined && info.contentSize !== n) return undefined;
  if (info.contentChecksum && u32(data, info.length - 4) !== xxh32(heap, 0, dstBase, op)) return undefined;
  if (opts.expectedSize !== undefined && n !== opts.expectedSize) return undefined;
  return opts.view ? heap.subarray(dstBase, op) : heap.slice(dstBase, op);
}

/** The reference decoder: every check interleaved with decoding, each defect located. */
function decodeInJs(data: Uint8Array, opts: Lz4DecodeOptions, where: Where): Uint8Array {
  const out = new Output(opts.expectedSize ?? opts.maxSize, opts.expectedSize !== undefined, where);
  const info = walkFrame(data, where, (start, size, stored) => {
    if (stored) {
      out.reserve(size, start);
      out.buf.set(data.subarray(start, start + size), out.pos);
      out.pos += size;
    } else {
      // Independent blocks may only look back into themselves; linked ones into the whole frame.
      decodeBlock(data, start, start + size, out, data[4]! & 0x20 ? out.pos : 0, where);
    }
  });
  const n = out.pos;
  if (info.contentSize !== undefined && info.contentSize !== n) {
    throw where.error('corrupt', `decodes to ${n} bytes, the frame's content size says ${info.contentSize}`, 6, 'content size');
  }
  if (info.contentChecksum) {
    const at = info.length - 4;
    const stated = u32(data, at);
    const actual = xxh32(out.buf, 0, 0, n);
    if (stated !== actual)
      throw where.error(
        'checksum',
        `content checksum 0x${stated.toString(16)} does not match the decoded bytes (0x${actual.toString(16)})`,
        at,
        'content checksum',
      );
  }
  if (opts.expectedSize !== undefined && n !== opts.expectedSize) {
    throw where.error('corrupt', `decodes to ${n} bytes, ${opts.expectedSize} expected`, 0);
  }
  return n === out.buf.length ? out.buf : out.buf.slice(0, n);
}

/** The decoded bytes so far; never longer than `limit`. */
class Output {
  buf: Uint8Array;
  pos = 0;

  constructor(
    private readonly limit: number,
    /** The limit is the exact size the caller expects, not just a cap. */
    private readonly exact: boolean,
    private readonly where: Where,
  ) {
    // Without a declared size the buffer grows, so a tiny bomb cannot reserve maxSize up front.
    this.buf = new Uint8Array(exact ? limit : Math.min(limit, 1 << 16));
  }

  /** Makes room for `n` more bytes, or throws when that passes the limit (`at`: the block). */
  reserve(n: number, at: number): void {
    const upTo = this.pos + n;
    if (upTo <= this.buf.length) return;
    if (upTo > this.limit) {
      throw this.exact
        ? this.where.error('corrupt', `decodes to more than the ${this.limit} bytes expected`, at, 'block data')
        : this.where.error('limit', `decodes to more than ${this.limit} bytes`, at, 'block data');
    }
    const next = new Uint8Array(Math.min(this.limit, Math.max(upTo, this.buf.length * 2)));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }
}

/**
 * Appends one LZ4 block [start, end) of `src` to `out`. Matches may reach back to `windowStart`:
 * the block's own start for independent blocks, 0 for linked ones.
 */
function decodeBlock(src: Uint8Array, start: number, end: number, out: Output, windowStart: number, where: Where): void {
  let ip = start;
  let op = out.pos;
  let dst = out.buf;
  for (;;) {
    if (ip >= end) throw where.error('truncated', 'block ends before its last literals', ip, 'block data');
    const token = src[ip++]!;
    let literals = token >>> 4;
    if (literals === 15) {
      let b: number;
      do {
        if (ip >= end) throw where.error('truncated', 'block ends inside a literal length', ip, 'block data');
        b = src[ip++]!;
        literals += b;
      } while (b === 255);
    }
    if (ip + literals > end) throw where.error('corrupt', `${literals} literals run past the end of the block`, ip, 'block data');
    if (op + literals > dst.length) {
      out.pos = op;
      out.reserve(literals, ip);
      dst = out.buf;
    }
    if (literals < 16) {
      for (let i = 0; i < literals; i++) dst[op + i] = src[ip + i]!;
    } else {
      dst.set(src.subarray(ip, ip + literals), op);
    }
    ip += literals;
    op += literals;
    if (ip === end) break;
    if (ip + 2 > end) throw where.error('truncated', 'block ends inside a match offset', ip, 'block data');
    const offset = src[ip]! | (src[ip + 1]! << 8);
    if (offset === 0 || offset > op - windowStart) {
      throw where.error(
        'out-of-range',
        `match offset ${offset} reaches before the start of the ${windowStart === 0 ? 'frame' : 'block'} (${op - windowStart} bytes decoded)`,
        ip,
        'block data',
      );
    }
    ip += 2;
    let length = (token & 15) + MIN_MATCH;
    if ((token & 15) === 15) {
      let b: number;
      do {
        if (ip >= end) throw where.error('truncated', 'block ends inside a match length', ip, 'block data');
        b = src[ip++]!;
        length += b;
      } while (b === 255);
    }
    if (op + length > dst.length) {
      out.pos = op;
      out.reserve(length, ip);
      dst = out.buf;
    }
    // Byte by byte: an overlapping match repeats the last `offset` bytes, and for the short
    // matches LZ4 is made of this beats copyWithin's call overhead.
    for (let from = op - offset, stop = op + length; op < stop; ) dst[op++] = dst[from++]!;
  }
  out.pos = op;
}
