// Draws media/icon.png (128×128): a magnifying lens over rows of bits. Run once; the PNG is committed.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import CRC32 from 'crc-32';

const N = 128;
const px = new Uint8Array(N * N * 4);
const set = (x, y, [r, g, b, a]) => {
  const i = (y * N + x) * 4;
  const t = a / 255;
  px[i] = Math.round(px[i] * (1 - t) + r * t);
  px[i + 1] = Math.round(px[i + 1] * (1 - t) + g * t);
  px[i + 2] = Math.round(px[i + 2] * (1 - t) + b * t);
  px[i + 3] = Math.max(px[i + 3], a);
};
const bg = [30, 41, 59, 255];
const bit = [94, 234, 212, 255];
const dim = [71, 85, 105, 255];
const lens = [250, 204, 21, 255];
for (let y = 0; y < N; y++) {
  for (let x = 0; x < N; x++) {
    const r = 22;
    const dx = Math.max(0, Math.abs(x - 63.5) - (63.5 - r));
    const dy = Math.max(0, Math.abs(y - 63.5) - (63.5 - r));
    if (dx * dx + dy * dy <= r * r) set(x, y, bg);
  }
}
// Rows of bits: small squares, brighter inside the lens.
const cx = 56,
  cy = 56,
  R = 34;
let seed = 7;
for (let row = 0; row < 8; row++) {
  for (let col = 0; col < 8; col++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const on = (seed >> 16) & 1;
    const x0 = 18 + col * 12,
      y0 = 18 + row * 12;
    const inside = (x0 + 4 - cx) ** 2 + (y0 + 4 - cy) ** 2 < (R - 4) ** 2;
    for (let y = y0; y < y0 + (on ? 8 : 3); y++) for (let x = x0; x < x0 + 8; x++) set(x, on ? y : y + 5, inside ? bit : dim);
  }
}
// Lens ring and handle, anti-aliased by distance.
for (let y = 0; y < N; y++) {
  for (let x = 0; x < N; x++) {
    const d = Math.hypot(x - cx, y - cy);
    const ring = 1 - Math.min(1, Math.abs(d - R) / 4.5);
    if (ring > 0) set(x, y, [...lens.slice(0, 3), Math.round(255 * Math.min(1, ring * 1.6))]);
    const t = (x - cx + (y - cy)) / 2;
    const off = Math.abs(x - cx - (y - cy)) / Math.SQRT2;
    if (t > R / Math.SQRT2 + 2 && t < R / Math.SQRT2 + 34 && off < 6) set(x, y, [...lens.slice(0, 3), Math.round(255 * Math.min(1, 6 - off))]);
  }
}
const raw = Buffer.alloc(N * (N * 4 + 1));
for (let y = 0; y < N; y++) px.subarray(y * N * 4, (y + 1) * N * 4).forEach((v, i) => (raw[y * (N * 4 + 1) + 1 + i] = v));
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeInt32BE(CRC32.buf(td));
  return Buffer.concat([len, td, crc]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(N, 0);
ihdr.writeUInt32BE(N, 4);
ihdr.set([8, 6, 0, 0, 0], 8);
writeFileSync(
  'media/icon.png',
  Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]),
);
