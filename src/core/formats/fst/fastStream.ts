import type { Automaton } from './automaton.js';
import type { DfaRows } from './dfaRows.js';
import type { FastVisit, FastWalk } from './fastWalk.js';

/** One frame of a stream that stopped in the module: the node, its next transition (-1: its own key first), the value so far and the automaton state. */
export interface WalkFrame {
  readonly addr: number;
  readonly next: number;
  readonly hi: number;
  readonly lo: number;
  readonly state: unknown;
}

/**
 * Where a stream stopped in the module: its frames, root first, and the key bytes along them,
 * for the TypeScript walk to go on from exactly there (empty: from the start).
 */
export interface Bailed {
  readonly frames: readonly WalkFrame[];
  readonly key: Uint8Array;
}

/** Frame layout: fstwalk.wat's. */
const FRAMES = 32768;
const FRAME = 56;
const FRAME_STATE = 36;

/**
 * One stream's place in a FastWalk. A prefix search (an automaton that matches every key under
 * its prefix and no other) steps no DFA: the module seeks to the prefix itself and streams the
 * subtree there whole, so a query costs no table, no byte classes and no call out per new state.
 */
export class FastStream {
  started = false;
  saved: { depth: number; frames: Uint8Array; key: Uint8Array } | undefined;
  /** The prefix a prefix search seeks to, and its automaton's state on every key it gives. */
  readonly prefix: Uint8Array | undefined;
  readonly matched: unknown;

  constructor(
    private readonly walk: FastWalk,
    readonly dfa: DfaRows<unknown> | undefined,
    private readonly subtree?: Automaton<unknown>,
  ) {
    this.prefix = subtree?.keysStartWith;
    if (subtree && this.prefix) {
      let state = subtree.start();
      for (let i = 0; i < this.prefix.length; i++) state = subtree.accept(state, this.prefix[i]!);
      this.matched = state;
    }
  }

  run(visit: FastVisit, signal?: AbortSignal): Promise<boolean | Bailed> {
    return this.walk.run(this, visit, signal);
  }

  /** The frames in the module's memory (`heap`) down to `depth`, with their automaton states, for the TypeScript walk. */
  bailed(heap: Uint8Array, depth: number): Bailed {
    const view = new DataView(heap.buffer);
    const key = heap.slice(0, depth);
    const along = this.subtree && statesAlong(this.subtree, key);
    const frames: WalkFrame[] = [];
    for (let d = 0; d <= depth; d++) {
      const at = FRAMES + d * FRAME;
      frames.push({
        addr: view.getInt32(at, true),
        next: view.getInt32(at + 16, true),
        lo: view.getUint32(at + 40, true),
        hi: view.getUint32(at + 44, true),
        state: along ? along[d] : this.dfa?.states[view.getInt32(at + FRAME_STATE, true)],
      });
    }
    return { frames, key };
  }
}

/** The automaton's state after each prefix of `key`, the empty one first. */
function statesAlong(aut: Automaton<unknown>, key: Uint8Array): unknown[] {
  const states = [aut.start()];
  for (const b of key) states.push(aut.accept(states[states.length - 1], b));
  return states;
}
