/** Deterministic synthetic content for the benches' generated inputs. */

/** xorshift32 (13, 17, 5) from `seed`: the next 32-bit value per call. */
export function xorshift32(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}

const WORDS = ['id', 'alpha', 'bravo', 'charlie', '0.25', '1024', 'ELECTRIC', 'HYBRID', ',', '\n'].map((w) => Uint8Array.from(w, (c) => c.charCodeAt(0)));

/** Fills `out[from, to)` with CSV-like text of a few repeated words (compressible as logs are). */
export function fillWords(out: Uint8Array, from: number, to: number, next: () => number): void {
  for (let i = from; i < to; ) for (const b of WORDS[next() % WORDS.length]!) if (i < to) out[i++] = b;
}
