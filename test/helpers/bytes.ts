/**
 * Deterministic test bytes: the low byte of each xorshift32 step (x ^= x << 13; x ^= x >> 17;
 * x ^= x << 5), the generator of the xorb spec's chunker test vector. Incompressible.
 */
export function xorshiftBytes(n: number, seed = 1): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}
