import { type Ranges, normalise } from './codePointSets.js';
import { rangesOf } from './unicodeClasses.js';

/**
 * `(?i)`: a set closed under simple case folding, as regex-syntax does (and JavaScript's `/…/iu`): a
 * character stands for every character with the same simple case fold (`k`, `K` and the Kelvin sign K).
 *
 * The fold classes come from the engine, not a table: only characters that change under case mapping or
 * folding can share a class, each is joined to its one-character lower- and uppercase, and a join is kept
 * only when the engine's case-insensitive backreference (which compares simple case folds) agrees, so
 * `ı`, whose uppercase is `I`, stays alone as it does in CaseFolding.txt.
 */

let classes: { cps: Int32Array; members: number[][] } | undefined;

function foldClasses(): { cps: Int32Array; members: number[][] } {
  if (classes) return classes;
  const cps: number[] = [];
  for (const [lo, hi] of rangesOf('[\\p{Changes_When_Casemapped}\\p{Changes_When_Casefolded}]')) for (let c = lo; c <= hi; c++) cps.push(c);
  const parent = new Map<number, number>(cps.map((c) => [c, c]));
  const root = (c: number): number => {
    while (parent.get(c)! !== c) c = parent.get(c)!;
    return c;
  };
  const sameFold = /^(.)\1$/iu;
  for (const c of cps) {
    const s = String.fromCodePoint(c);
    for (const other of [s.toLowerCase(), s.toUpperCase()]) {
      const o = other.codePointAt(0)!;
      if (other.length !== String.fromCodePoint(o).length || o === c || !parent.has(o) || !sameFold.test(s + other)) continue;
      parent.set(root(c), root(o));
    }
  }
  const byRoot = new Map<number, number[]>();
  for (const c of cps) {
    const r = root(c);
    const list = byRoot.get(r);
    if (list) list.push(c);
    else byRoot.set(r, [c]);
  }
  const members = cps.map((c) => byRoot.get(root(c))!);
  classes = { cps: Int32Array.from(cps), members };
  return classes;
}

/** `ranges` with every character's fold class added. */
export function caseFold(ranges: Ranges): Ranges {
  const { cps, members } = foldClasses();
  const out: Ranges = [...ranges];
  // Both lists are sorted: one walk over the characters that have a class.
  let k = 0;
  for (const [lo, hi] of normalise(ranges)) {
    while (k < cps.length && cps[k]! < lo) k++;
    for (; k < cps.length && cps[k]! <= hi; k++) for (const m of members[k]!) out.push([m, m]);
  }
  return normalise(out);
}
