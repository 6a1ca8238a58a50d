import { type ByteClasses, classesApart } from './byteClasses.js';

/**
 * An automaton over key bytes, intersected with the fst by the stream: the walk follows a
 * transition only while `canMatch` holds for the state it leads to, so a search visits the
 * part of the fst that can still match instead of every key (the `Automaton` of the fst crate
 * and of vellum).
 */
export interface Automaton<S> {
  start(): S;
  /** The bytes read so far form a match. */
  isMatch(state: S): boolean;
  /** Some continuation of the bytes read so far may still match. */
  canMatch(state: S): boolean;
  accept(state: S, byte: number): S;
  /**
   * A value (compared with SameValueZero) equal for states that behave the same from here on;
   * without it the state itself. The WebAssembly walk numbers states by it (dfaRows.ts).
   */
  key?(state: S): unknown;
  /** Bytes that every state treats alike (byteClasses.ts); without it every byte is its own class. */
  readonly classes?: ByteClasses;
  /** Bytes every key it matches starts with (a seek to them is then no bound of its own: bounds.ts). */
  readonly keysStartWith?: Uint8Array;
  /**
   * It matches every key that starts with `keysStartWith`, whatever follows: the WebAssembly walk
   * then seeks to those bytes and streams the subtree under them without stepping it (fastStream.ts).
   */
  readonly wholeSubtree?: boolean;
}

/** Keys that start with `prefix`. State: bytes of the prefix matched, or -1 after a mismatch. */
export function startsWith(prefix: Uint8Array): Automaton<number> {
  let classes: ByteClasses | undefined;
  return {
    start: () => 0,
    isMatch: (s) => s === prefix.length,
    canMatch: (s) => s >= 0,
    // Made on first use: a prefix search in WebAssembly needs none, and a batch of queries makes one each.
    get classes() {
      return (classes ??= classesApart(prefix));
    },
    keysStartWith: prefix,
    wholeSubtree: true,
    accept: (s, b) => (s < 0 ? -1 : s === prefix.length ? s : prefix[s] === b ? s + 1 : -1),
  };
}

/** Keys that contain the bytes of `needle` in order, not necessarily adjacent (fuzzy finders). */
export function subsequence(needle: Uint8Array): Automaton<number> {
  return {
    start: () => 0,
    isMatch: (s) => s === needle.length,
    canMatch: () => true,
    classes: classesApart(needle),
    accept: (s, b) => (s < needle.length && needle[s] === b ? s + 1 : s),
  };
}
