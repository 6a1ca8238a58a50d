/**
 * Mutations of a valid file that real damage produces: flipped bits, overwritten bytes,
 * truncation at structure boundaries, length fields inflated to 2^32 / 2^63, splices of two
 * files and repeated regions. Deterministic for a given seed, so every finding can be replayed.
 */

export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }
  next(): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state;
  }
  below(n: number): number {
    return n <= 0 ? 0 : this.next() % n;
  }
  pick<T>(list: readonly T[]): T {
    return list[this.below(list.length)]!;
  }
}

/** Places worth damaging, from the original file's structure: where fields start and end, and the fields of 1–8 bytes. */
export interface Landmarks {
  readonly boundaries: readonly number[];
  readonly fields: readonly { offset: number; length: number }[];
}

const INTERESTING = [0x00, 0xff, 0x7f, 0x80, 0x01, 0xfe];
const WIDE = [0xffffffffn, 0x100000000n, 0x8000000000000000n, 0x7fffffffffffffffn, 0xffffffffffffffffn, 0x20000000000000n];

export type MutationKind = 'bitflip' | 'byteset' | 'truncate' | 'inflate' | 'splice' | 'repeat';
export const KINDS: readonly MutationKind[] = ['bitflip', 'byteset', 'truncate', 'inflate', 'splice', 'repeat'];

export function mutate(kind: MutationKind, input: Uint8Array, marks: Landmarks, other: Uint8Array, rng: Rng): Uint8Array {
  const out = input.slice();
  switch (kind) {
    case 'bitflip':
      for (let i = 1 + rng.below(8); i > 0 && out.length; i--) {
        const at = rng.below(out.length);
        out[at] = out[at]! ^ (1 << rng.below(8));
      }
      return out;
    case 'byteset':
      for (let i = 1 + rng.below(4); i > 0 && out.length; i--) out[rng.below(out.length)] = rng.pick(INTERESTING);
      return out;
    case 'truncate': {
      const at = marks.boundaries.length && rng.below(4) ? rng.pick(marks.boundaries) : rng.below(input.length + 1);
      return input.slice(0, Math.min(at, input.length));
    }
    case 'inflate': {
      const f = marks.fields.length ? rng.pick(marks.fields) : { offset: rng.below(Math.max(1, out.length - 8)), length: 4 };
      const width = Math.min(f.length, 8, out.length - f.offset);
      if (width <= 0) return out;
      const value = rng.pick(WIDE);
      const bigEndian = rng.below(2) === 1;
      for (let i = 0; i < width; i++) {
        const byte = Number((value >> BigInt(8 * i)) & 0xffn);
        out[f.offset + (bigEndian ? width - 1 - i : i)] = byte;
      }
      return out;
    }
    case 'splice': {
      const a = rng.below(input.length + 1);
      const b = rng.below(other.length + 1);
      const joined = new Uint8Array(a + other.length - b);
      joined.set(input.subarray(0, a));
      joined.set(other.subarray(b), a);
      return joined;
    }
    case 'repeat': {
      const from = marks.boundaries.length ? rng.pick(marks.boundaries) : rng.below(input.length);
      const to = Math.min(input.length, from + 1 + rng.below(256));
      const times = 1 + rng.below(3);
      const piece = input.subarray(from, to);
      const grown = new Uint8Array(input.length + piece.length * times);
      grown.set(input.subarray(0, to));
      for (let t = 0; t < times; t++) grown.set(piece, to + t * piece.length);
      grown.set(input.subarray(to), to + piece.length * times);
      return grown;
    }
  }
}
