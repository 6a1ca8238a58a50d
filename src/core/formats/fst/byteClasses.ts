/**
 * Byte classes of an automaton: bytes with the same class number lead from every state to states
 * that behave the same, so the WebAssembly walk keeps one transition per class and state instead
 * of one per byte (fastWalk.ts). A partition of the 256 byte values, numbered from 0 in order of
 * each class's first byte.
 */
export type ByteClasses = Uint8Array;

/** Each byte of `apart` in a class of its own, all other bytes in class 0. */
export function classesApart(apart: ArrayLike<number>): ByteClasses {
  const ids = new Uint16Array(256);
  for (let i = 0; i < apart.length; i++) ids[apart[i]!] = i + 1;
  return number(ids, apart.length + 1);
}

/** Each group in a class (a byte in several groups: in the last), all other bytes in class 0. */
export function classesOf(groups: Iterable<Iterable<number>>): ByteClasses {
  const ids = new Uint16Array(256);
  let next = 1;
  for (const group of groups) {
    for (const b of group) ids[b] = next;
    next++;
  }
  return number(ids, next);
}

/** Intervals of bytes: each value of `starts` (0–256) begins a new class, for automata that compare bytes by order. */
export function classesSplitAt(starts: Iterable<number>): ByteClasses {
  const cut = new Uint8Array(257);
  for (const x of starts) cut[x] = 1;
  const classes = new Uint8Array(256);
  for (let x = 1, c = 0; x < 256; x++) classes[x] = c += cut[x]!;
  return classes;
}

/** The coarsest partition finer than both: bytes share a class where they share one in each. */
export function refineClasses(a: ByteClasses, b: ByteClasses): ByteClasses {
  const width = count(b);
  const ids = new Uint16Array(256);
  for (let x = 0; x < 256; x++) ids[x] = a[x]! * width + b[x]!;
  return number(ids, count(a) * width);
}

/** How many classes. */
export function count(classes: ByteClasses): number {
  let max = 0;
  for (let x = 0; x < 256; x++) if (classes[x]! > max) max = classes[x]!;
  return max + 1;
}

/** Ids below `bound` numbered as classes. */
function number(ids: Uint16Array, bound: number): ByteClasses {
  const out = new Uint8Array(256);
  const seen = new Int16Array(bound).fill(-1);
  let next = 0;
  for (let x = 0; x < 256; x++) {
    const id = ids[x]!;
    if (seen[id] === -1) seen[id] = next++;
    out[x] = seen[id]!;
  }
  return out;
}
