/**
 * xxHash32 (the checksum of LZ4 frame descriptors, blocks and content). Written out because the
 * LZ4 decoder is synchronous and the fast libraries (xxhash-wasm) need an asynchronous start;
 * with Math.imul it runs well above the speed of the frames it checks.
 */
const P1 = 0x9e3779b1;
const P2 = 0x85ebca77;
const P3 = 0xc2b2ae3d;
const P4 = 0x27d4eb2f;
const P5 = 0x165667b1;

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

function round(acc: number, lane: number): number {
  return Math.imul(rotl((acc + Math.imul(lane, P2)) | 0, 13), P1);
}

function u32(b: Uint8Array, p: number): number {
  return b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24);
}

/** xxh32 of `data[start, end)` with `seed`, as an unsigned 32-bit number. */
export function xxh32(data: Uint8Array, seed = 0, start = 0, end = data.length): number {
  let p = start;
  let h: number;
  if (end - start >= 16) {
    let v1 = (seed + P1 + P2) | 0;
    let v2 = (seed + P2) | 0;
    let v3 = seed | 0;
    let v4 = (seed - P1) | 0;
    for (const limit = end - 16; p <= limit; p += 16) {
      v1 = round(v1, u32(data, p));
      v2 = round(v2, u32(data, p + 4));
      v3 = round(v3, u32(data, p + 8));
      v4 = round(v4, u32(data, p + 12));
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) | 0;
  } else {
    h = (seed + P5) | 0;
  }
  h = (h + (end - start)) | 0;
  for (; p + 4 <= end; p += 4) h = Math.imul(rotl((h + Math.imul(u32(data, p), P3)) | 0, 17), P4);
  for (; p < end; p++) h = Math.imul(rotl((h + Math.imul(data[p]!, P5)) | 0, 11), P1);
  h = Math.imul(h ^ (h >>> 15), P2);
  h = Math.imul(h ^ (h >>> 13), P3);
  return (h ^ (h >>> 16)) >>> 0;
}
