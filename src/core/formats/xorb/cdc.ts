import { GEAR_HI, GEAR_LO } from './gearTable.js';

/**
 * Xet's content-defined chunker (spec xorb.md, "Content-defined chunking"): a Gear rolling hash
 * h = (h << 1) + TABLE[byte] over 64 bits, a cut where the 16 high bits of h are zero once a chunk
 * holds 8 KiB, and a forced cut at 128 KiB. The same rule gives the same chunks, and so the same
 * chunk hashes and deduplication, as the Xet client.
 */
export const MIN_CHUNK = 8192;
export const MAX_CHUNK = 131072;
/** h depends only on its last 64 bytes, so hashing starts this far into each chunk. */
const SKIP = MIN_CHUNK - 64 - 1;

/**
 * Feeds a stream piece by piece; `push` returns the ends of the chunks completed inside the
 * piece (offsets into the piece), `finish` whether a last, shorter chunk remains.
 */
export class GearChunker {
  private hi = 0;
  private lo = 0;
  /** Bytes of the current chunk seen so far. */
  private size = 0;

  push(piece: Uint8Array): number[] {
    const cuts: number[] = [];
    let hi = this.hi;
    let lo = this.lo;
    let size = this.size;
    let i = 0;
    while (i < piece.length) {
      if (size < SKIP) {
        const skip = Math.min(SKIP - size, piece.length - i);
        i += skip;
        size += skip;
        continue;
      }
      const b = piece[i++]!;
      size++;
      // 64-bit (h << 1) + TABLE[b] on two int32 halves (V8 keeps int32 unboxed); the carry out
      // of the low half is the top bit of (x & y) | ((x | y) & ~sum).
      const x = lo << 1;
      const y = GEAR_LO[b]!;
      const sum = (x + y) | 0;
      hi = (((hi << 1) | (lo >>> 31)) + GEAR_HI[b]! + (((x & y) | ((x | y) & ~sum)) >>> 31)) | 0;
      lo = sum;
      if (size >= MIN_CHUNK && (size >= MAX_CHUNK || hi >>> 16 === 0)) {
        cuts.push(i);
        hi = lo = size = 0;
      }
    }
    this.hi = hi;
    this.lo = lo;
    this.size = size;
    return cuts;
  }

  /** True when bytes after the last cut form one more chunk. */
  finish(): boolean {
    const rest = this.size > 0;
    this.hi = this.lo = this.size = 0;
    return rest;
  }
}

/** Chunk end offsets of a whole buffer (the last one is its length unless it is empty). */
export function chunkBoundaries(data: Uint8Array): number[] {
  const c = new GearChunker();
  const ends = c.push(data);
  if (c.finish()) ends.push(data.length);
  return ends;
}
