import CRC32C from 'crc-32/crc32c';
import type { IHasher } from 'hash-wasm';

/**
 * CRC-32C (Castagnoli, reflected 0x82F63B78, init and xorout 0xFFFFFFFF), as an unsigned
 * 32-bit number. `previous` continues a CRC over data split into pieces.
 *
 * hash-wasm's WebAssembly table walk runs at ~1.7 GB/s against ~0.5 GB/s for the `crc-32` JS
 * package (DESIGN.md); WebAssembly only compiles asynchronously, so `crc-32` answers until the
 * fast hasher is ready, a few milliseconds after the first large input asks for it. Both give the
 * same CRC. The WebAssembly starts only once a process has checked START_WASM_AFTER bytes: loading
 * and compiling it cost `binlens info` on a 1.7 KB bindu ~8 ms of CPU (its 12 frame CRCs at open),
 * about what the JS walk spends on 4 MB.
 */
let fast: IHasher | undefined;
let ready: Promise<void> | undefined;
let checked = 0;

/** Starts the WebAssembly CRC; resolves once it is in use (benchmarks and tests wait for it). */
export function crc32cReady(): Promise<void> {
  return (ready ??= import('./hashWasm.js')
    .then((m) => m.createCRC32(0x82f63b78))
    .then(
      (h) => {
        fast = h;
      },
      () => undefined,
    ));
}

/** Small inputs cost more to marshal into WebAssembly than to checksum in JS. */
const WASM_FROM = 256;
/** Bytes checked in JS before the WebAssembly is started: a small file's checks end first. */
const START_WASM_AFTER = 1 << 20;

export function crc32c(data: Uint8Array, previous?: number): number {
  if (data.length >= WASM_FROM && !fast && (checked += data.length) >= START_WASM_AFTER) void crc32cReady();
  if (fast && data.length >= WASM_FROM) {
    fast.init();
    fast.update(data);
    const crc = parseInt(fast.digest('hex'), 16);
    return previous === undefined ? crc : combine(previous, crc, data.length);
  }
  // crc-32 takes and returns the finalised CRC as a signed int32, so chaining needs no fix-up.
  return CRC32C.buf(data, previous === undefined ? undefined : previous | 0) >>> 0;
}

const POLY = 0x82f63b78;

/** a(x)·b(x) mod P in the reflected representation (bit 31 = x^0). */
function multModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** X2N[k] = x^(2^k) mod P. */
const X2N: number[] = [0x40000000];
for (let k = 1; k < 32; k++) X2N.push(multModP(X2N[k - 1]!, X2N[k - 1]!));

/**
 * The CRC of A‖B from crc(A), crc(B) and |B| (zlib's crc32_combine): crc(A) is shifted through
 * |B| zero bytes, i.e. multiplied by x^(8·|B|) mod P, then combined with crc(B).
 */
function combine(crcA: number, crcB: number, lengthB: number): number {
  let p = 0x80000000;
  for (let n = lengthB, k = 3; n > 0; n = Math.floor(n / 2), k++) if (n & 1) p = multModP(X2N[k & 31]!, p);
  return (multModP(p, crcA) ^ crcB) >>> 0;
}
