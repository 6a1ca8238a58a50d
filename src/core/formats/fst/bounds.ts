import type { Automaton } from './automaton.js';
import { classesSplitAt, refineClasses } from './byteClasses.js';
import type { Bound } from './stream.js';

/**
 * Key ranges as automata, so the WebAssembly walk serves range, prefix and seek streams with the
 * same DFA table as the other searches (fastWalk.ts): a bound becomes the states "still equal to
 * the bound's first d bytes" and "past it", and a search with bounds the product of its automaton
 * and theirs.
 */

const LOW = 1;
const HIGH = 2;

/**
 * Keys k with from ≤ k (or <) and k ≤ to (or <). State: −1 out of range; else the key length d
 * times 4 plus LOW while the key equals from[0..d) and HIGH while it equals to[0..d) (0 once
 * both are decided, whatever d).
 */
export function boundsAutomaton(from: Bound | undefined, to: Bound | undefined): Automaton<number> {
  return {
    start: () => (from ? LOW : 0) | (to ? HIGH : 0),
    classes: classesSplitAt([...edges(from), ...edges(to)]),
    canMatch: (s) => s >= 0,
    isMatch: (s) => {
      if (s < 0) return false;
      const d = s >> 2;
      const low = (s & LOW) === 0 || (d === from!.key.length && from!.inclusive);
      // Equal to a proper prefix of `to` is below it.
      return low && ((s & HIGH) === 0 || d < to!.key.length || to!.inclusive);
    },
    accept: (s, b) => {
      if (s < 0) return -1;
      const d = s >> 2;
      let flags = s & 3;
      if (flags & LOW) {
        const f = from!.key;
        if (d >= f.length || b > f[d]!) flags &= ~LOW;
        else if (b < f[d]!) return -1;
      }
      if (flags & HIGH) {
        const t = to!.key;
        if (d >= t.length || b > t[d]!) return -1;
        if (b < t[d]!) flags &= ~HIGH;
      }
      return flags === 0 ? 0 : ((d + 1) << 2) | flags;
    },
  };
}

/** Where a bound's bytes split the byte values: below, at and above each. */
function* edges(bound: Bound | undefined): Iterable<number> {
  for (const b of bound?.key ?? []) yield* [b, b + 1];
}

type Pair<A> = readonly [A, number];

/** Keys `aut` matches within the bounds; the bounds are stepped first, so a key out of range costs no step of `aut`. */
export function bounded<A>(aut: Automaton<A>, bounds: Automaton<number>): Automaton<Pair<A> | null> {
  return {
    start: () => [aut.start(), bounds.start()],
    canMatch: (s) => s !== null && aut.canMatch(s[0]),
    isMatch: (s) => s !== null && bounds.isMatch(s[1]) && aut.isMatch(s[0]),
    accept: (s, b) => {
      if (s === null) return null;
      const r = bounds.accept(s[1], b);
      return bounds.canMatch(r) ? [aut.accept(s[0], b), r] : null;
    },
    key: (s) => (s === null ? null : `${String(aut.key ? aut.key(s[0]) : s[0])}/${s[1]}`),
    classes: aut.classes && bounds.classes && refineClasses(aut.classes, bounds.classes),
  };
}

/** The projection of a search without bounds: its states are the caller's (a stream then hands keys on without a call between). */
export const sameState = <S>(state: unknown): S | undefined => state as S | undefined;

/**
 * The one automaton of a stream's bounds and automaton, and how to get the caller's automaton
 * state back from its states; undefined for a plain stream.
 */
export function searchAutomaton<S>(
  automaton: Automaton<S> | undefined,
  from: Bound | undefined,
  to: Bound | undefined,
): { automaton: Automaton<unknown>; project: (state: unknown) => S | undefined } | undefined {
  if (to === undefined && from?.inclusive && sameBytes(from.key, automaton?.keysStartWith)) from = undefined;
  if (from === undefined && to === undefined) return automaton && { automaton: automaton as Automaton<unknown>, project: sameState<S> };
  const bounds = boundsAutomaton(from, to);
  if (automaton === undefined) return { automaton: bounds as Automaton<unknown>, project: () => undefined };
  return { automaton: bounded(automaton, bounds) as Automaton<unknown>, project: (s) => (s as Pair<S>)[0] };
}

function sameBytes(a: Uint8Array, b: Uint8Array | undefined): boolean {
  return b !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);
}
