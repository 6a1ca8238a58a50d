import { BLOCK_MAX_SIZES, LZ4_FRAME_MAGIC, MIN_MATCH } from './lz4.js';
import { xxh32 } from './xxh32.js';

/**
 * The LZ4 frame encoder, beside the decoder (lz4.ts). It writes what lz4_flex's FrameEncoder
 * writes for a single write (xet-core's writer): FLG 0x60 (independent blocks, no checksums, no
 * content size), the block size chosen from the input length, blocks stored raw when compression
 * does not shrink them, no content checksum.
 */

const HASH_LOG = 16;
const MF_LIMIT = 12;
const LAST_LITERALS = 5;

/** The block max size code lz4_flex picks for a single write of `n` bytes. */
function blockSizeCode(n: number): number {
  return n <= 64 << 10 ? 4 : n <= 256 << 10 ? 5 : n <= 1 << 20 ? 6 : 7;
}

/** Encodes `data` as one LZ4 frame of independent blocks (see the module comment). */
export function encodeLz4Frame(data: Uint8Array): Uint8Array {
  const code = blockSizeCode(data.length);
  const blockSize = BLOCK_MAX_SIZES[code]!;
  const blocks = Math.max(1, Math.ceil(data.length / blockSize));
  // Worst case: every block stored raw, plus header, size words and the end mark.
  const out = new Uint8Array(7 + blocks * (4 + blockSize) + 4);
  const flg = 0x60;
  const bd = code << 4;
  writeU32(out, 0, LZ4_FRAME_MAGIC);
  out[4] = flg;
  out[5] = bd;
  out[6] = (xxh32(out, 0, 4, 6) >>> 8) & 0xff;
  let p = 7;
  const table = new Int32Array(1 << HASH_LOG);
  const scratch = new Uint8Array(compressBound(Math.min(blockSize, data.length)));
  for (let start = 0; start < data.length; start += blockSize) {
    const end = Math.min(data.length, start + blockSize);
    const n = compressBlock(data, start, end, scratch, table);
    if (n < end - start) {
      writeU32(out, p, n);
      out.set(scratch.subarray(0, n), p + 4);
      p += 4 + n;
    } else {
      writeU32(out, p, (end - start) | 0x80000000);
      out.set(data.subarray(start, end), p + 4);
      p += 4 + end - start;
    }
  }
  writeU32(out, p, 0);
  return out.slice(0, p + 4);
}

function writeU32(b: Uint8Array, p: number, v: number): void {
  b[p] = v & 0xff;
  b[p + 1] = (v >>> 8) & 0xff;
  b[p + 2] = (v >>> 16) & 0xff;
  b[p + 3] = (v >>> 24) & 0xff;
}

function compressBound(n: number): number {
  return n + Math.ceil(n / 255) + 16;
}

function hash4(b: Uint8Array, p: number): number {
  return Math.imul(b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24), 2654435761) >>> (32 - HASH_LOG);
}

function writeLength(dst: Uint8Array, p: number, n: number): number {
  for (; n >= 255; n -= 255) dst[p++] = 255;
  dst[p++] = n;
  return p;
}

/**
 * Greedy LZ4 block compression with one 4-byte hash table (the classic "fast" strategy):
 * returns the compressed length in `dst`. The block rules hold: the last match starts at least
 * 12 bytes before the end and the last 5 bytes are literals.
 */
function compressBlock(src: Uint8Array, start: number, end: number, dst: Uint8Array, table: Int32Array): number {
  table.fill(-1);
  let op = 0;
  let anchor = start;
  let ip = start;
  const matchLimit = end - LAST_LITERALS;
  const searchLimit = end - MF_LIMIT;
  let misses = 0;
  while (ip < searchLimit) {
    const h = hash4(src, ip);
    const ref = table[h]!;
    table[h] = ip;
    if (ref < 0 || ip - ref > 0xffff || src[ref] !== src[ip] || src[ref + 1] !== src[ip + 1] || src[ref + 2] !== src[ip + 2] || src[ref + 3] !== src[ip + 3]) {
      // Skip faster through data that does not compress, as the reference encoders do.
      ip += 1 + (misses++ >> 6);
      continue;
    }
    misses = 0;
    let m = ref;
    let s = ip;
    while (s > anchor && m > start && src[s - 1] === src[m - 1]) (s--, m--);
    let len = ip + MIN_MATCH - s;
    let q = ip + MIN_MATCH;
    let r = ref + MIN_MATCH;
    while (q < matchLimit && src[q] === src[r]) (q++, r++, len++);
    const literals = s - anchor;
    const token = op++;
    dst[token] = (Math.min(literals, 15) << 4) | Math.min(len - MIN_MATCH, 15);
    if (literals >= 15) op = writeLength(dst, op, literals - 15);
    dst.set(src.subarray(anchor, s), op);
    op += literals;
    const offset = s - m;
    dst[op++] = offset & 0xff;
    dst[op++] = offset >>> 8;
    if (len - MIN_MATCH >= 15) op = writeLength(dst, op, len - MIN_MATCH - 15);
    ip = s + len;
    anchor = ip;
    if (ip - 2 >= start && ip - 2 < searchLimit) table[hash4(src, ip - 2)] = ip - 2;
  }
  const literals = end - anchor;
  dst[op++] = Math.min(literals, 15) << 4;
  if (literals >= 15) op = writeLength(dst, op, literals - 15);
  dst.set(src.subarray(anchor, end), op);
  return op + literals;
}
