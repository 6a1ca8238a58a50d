import { sha256Digester } from '../../codecs/sha256.js';
import type { BloomIndex } from './model.js';

/**
 * Bloom filters (spec C.7): SHA-256 of a value's canonical bytes gives h1 and h2 (odd); bit i
 * of k is ((h1 + i·h2) mod 2^32) mod m, stored LSB-first.
 */
export type BitPositions = (canonical: Uint8Array) => number[];

export async function bloomPositions(k: number, mBits: number): Promise<BitPositions> {
  const digest = await sha256Digester();
  return (canonical) => {
    const d = digest(canonical);
    const h1 = (d[0]! | (d[1]! << 8) | (d[2]! << 16) | (d[3]! << 24)) >>> 0;
    const h2 = (d[4]! | (d[5]! << 8) | (d[6]! << 16) | (d[7]! << 24) | 1) >>> 0;
    const out: number[] = [];
    for (let i = 0; i < k; i++) out.push(((h1 + Math.imul(i, h2)) >>> 0) % mBits);
    return out;
  };
}

export function hasBits(filter: Uint8Array, bits: readonly number[]): boolean {
  return bits.every((j) => (filter[j >> 3]! >> (j & 7)) & 1);
}

export function setBits(filter: Uint8Array, bits: readonly number[]): void {
  for (const j of bits) filter[j >> 3]! |= 1 << (j & 7);
}

/** Writer sizing: m = ⌈−n·ln p / (ln 2)²⌉ rounded up to a multiple of 8 (at least 64), k = round(m/n · ln 2) in 1..32. */
export function bloomSize(n: number, p = 0.01): { k: number; mBits: number } {
  const m = Math.max(64, Math.ceil(Math.ceil((-n * Math.log(p)) / Math.LN2 ** 2) / 8) * 8);
  const k = n === 0 ? 1 : Math.min(32, Math.max(1, Math.round((m / n) * Math.LN2)));
  return { k, mBits: m };
}

/** "maybe" when every filter bit of the value is set (in any chunk's filter for per-chunk granularity). */
export async function bloomQuery(b: BloomIndex, canonical: Uint8Array): Promise<{ maybe: boolean; bits: number[]; filters: number[] }> {
  const bits = (await bloomPositions(b.k, b.mBits))(canonical);
  const filters = b.filters.flatMap((f, i) => (hasBits(f, bits) ? [i] : []));
  return { maybe: filters.length > 0, bits, filters };
}
