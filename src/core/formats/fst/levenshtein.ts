import type { Automaton } from './automaton.js';
import { type ByteClasses, classesOf } from './byteClasses.js';

/**
 * Keys within an edit distance of a query, counted in Unicode characters (not bytes), so a
 * CJK or accented key costs one edit per character (fst#38, fst#175). Optionally a swap of two
 * adjacent characters counts as one edit (optimal string alignment, as vellum's builder offers),
 * and optionally any key that *starts with* something within the distance matches (fuzzy
 * prefix search, fst#2).
 *
 * The state is one row of the edit-distance table (capped at max + 1) plus, for transpositions,
 * the row before it. Key bytes are decoded as UTF-8 inside the state; a byte that is not part
 * of valid UTF-8 counts as one character of its own, so binary keys still work.
 */
export interface LevenshteinOptions {
  readonly distance: number;
  readonly transpositions: boolean;
  readonly prefix: boolean;
}

export interface LevState {
  readonly row: Uint8Array;
  /** The row before the last character, and that character (for transpositions). */
  readonly prevRow: Uint8Array | null;
  readonly lastChar: number;
  /** A UTF-8 sequence under way: code point so far, continuation bytes still expected, bytes taken. */
  readonly cp: number;
  readonly need: number;
  readonly pending: readonly number[];
  /** Prefix mode: a prefix already matched, so every continuation matches. */
  readonly matched: boolean;
}

export const MAX_DISTANCE = 3;

export function levenshtein(query: string, opts: LevenshteinOptions): Automaton<LevState> & { distance(s: LevState): number } {
  const q = Array.from(query, (c) => c.codePointAt(0)!);
  const n = q.length;
  const max = opts.distance;
  const cap = max + 1;

  const step = (s: LevState, ch: number): LevState => {
    const prev = s.row;
    const row = new Uint8Array(n + 1);
    row[0] = Math.min(cap, prev[0]! + 1);
    for (let j = 1; j <= n; j++) {
      let v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (q[j - 1] === ch ? 0 : 1));
      if (opts.transpositions && s.prevRow !== null && j >= 2 && q[j - 1] === s.lastChar && q[j - 2] === ch) {
        v = Math.min(v, s.prevRow[j - 2]! + 1);
      }
      row[j] = Math.min(cap, v);
    }
    return {
      row,
      prevRow: opts.transpositions ? prev : null,
      lastChar: ch,
      cp: 0,
      need: 0,
      pending: [],
      matched: s.matched || (opts.prefix && row[n]! <= max),
    };
  };

  const classes = levenshteinClasses(q);
  const inQuery = new Set(q);
  // A sequence under way that cannot decode to ASCII any more ends as a character no ASCII query holds, whatever its value.
  const asciiOnly = q.every((c) => c < 0x80);

  const dead = (s: LevState) => !s.matched && s.row.every((v) => v > max);

  return {
    start: () => {
      const row = new Uint8Array(n + 1).map((_, j) => Math.min(cap, j));
      return { row, prevRow: null, lastChar: -1, cp: 0, need: 0, pending: [], matched: opts.prefix && row[n]! <= max };
    },
    isMatch: (s) => s.need === 0 && (s.matched || s.row[n]! <= max),
    canMatch: (s) => !dead(s),
    accept: (s, b) => {
      if (s.matched) return s;
      if (s.need > 0) {
        if ((b & 0xc0) === 0x80) {
          const cp = (s.cp << 6) | (b & 0x3f);
          return s.need === 1 ? step(s, cp) : { ...s, cp, need: s.need - 1, pending: [...s.pending, b] };
        }
        // A broken sequence: its bytes count as characters of their own, then this byte starts afresh.
        let t = s;
        for (const p of s.pending) t = step({ ...t, need: 0 }, 0x110000 + p);
        return acceptLead(t, b);
      }
      return acceptLead(s, b);
    },
    distance: (s) => s.row[n]!,
    classes,
    // All a state's future depends on: the last character and the row before only count for swaps.
    // All a state's future depends on. The bytes of a broken sequence count as characters no query
    // holds, so only their number counts; the last character and the row before count for swaps only.
    key: (s) => {
      const base = `${s.row.join()};${+s.matched};${s.need};${asciiOnly && s.cp * 64 ** s.need >= 0x80 ? -1 : s.cp};${s.pending.length}`;
      return opts.transpositions ? `${base};${s.prevRow?.join() ?? ''};${inQuery.has(s.lastChar) ? s.lastChar : -1}` : base;
    },
  };

  function acceptLead(s: LevState, b: number): LevState {
    if (b < 0x80) return step(s, b);
    if (b >= 0xc2 && b <= 0xdf) return { ...s, cp: b & 0x1f, need: 1, pending: [b] };
    if (b >= 0xe0 && b <= 0xef) return { ...s, cp: b & 0x0f, need: 2, pending: [b] };
    if (b >= 0xf0 && b <= 0xf4) return { ...s, cp: b & 0x07, need: 3, pending: [b] };
    return step(s, 0x110000 + b);
  }
}

/**
 * Bytes the automaton treats alike in every state (byteClasses.ts): an ASCII character is either
 * one of the query's or any other. For a query of ASCII only, a character of several bytes never
 * equals one of it, so lead bytes of one length are alike, as are the bytes no UTF-8 starts with;
 * but E0 and F0 stay apart, as do continuation bytes, since an overlong sequence decodes to ASCII.
 */
function levenshteinClasses(q: readonly number[]): ByteClasses {
  const ascii = q.filter((c) => c < 0x80);
  const range = (lo: number, hi: number) => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  const single = (lo: number, hi: number) => range(lo, hi).map((b) => [b]);
  const high =
    ascii.length === q.length
      ? [...single(0x80, 0xbf), [0xc0, 0xc1, ...range(0xf5, 0xff)], range(0xc2, 0xdf), [0xe0], range(0xe1, 0xef), [0xf0], range(0xf1, 0xf4)]
      : single(0x80, 0xff);
  return classesOf([...ascii.map((c) => [c]), ...high]);
}
