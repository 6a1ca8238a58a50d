import type { Automaton } from './automaton.js';
import { count } from './byteClasses.js';

/** Table entries besides row numbers (fstwalk.wat): a transition not built yet, one to a state that cannot match, a full table. */
export const UNBUILT = -1;
export const DEAD = -2;
export const FULL = -3;

const EVERY_BYTE = Uint8Array.from({ length: 256 }, (_, b) => b);

/**
 * Rows of the DFA table past which a search goes on in TypeScript with its automaton (at most 8 MiB
 * of table, at 1 KiB a row of 256 classes): memory stays bounded whatever the pattern or query.
 */
export const MAX_ROWS = 8192;

/**
 * The states of one search's automaton that the WebAssembly walk has reached, numbered as the
 * rows of its DFA table. States that behave the same (equal `key`) share a row, so a lazily
 * stepped automaton (the regex's DFA, Levenshtein rows) becomes a finite table.
 */
export class DfaRows<S> {
  readonly states: S[] = [];
  private readonly rows = new Map<unknown, number>();
  /** The start state cannot match anything: the search has no keys. */
  readonly empty: boolean;
  /** The class of each byte, and how many classes (the table's row width). */
  readonly classes: Uint8Array;
  readonly width: number;

  constructor(
    readonly automaton: Automaton<S>,
    private readonly maxRows = MAX_ROWS,
  ) {
    this.empty = this.row(automaton.start()) < 0;
    this.classes = automaton.classes ?? EVERY_BYTE;
    this.width = count(this.classes);
  }

  /** The row of the state after `row` reads `byte`: DEAD, FULL or a row number (new rows are appended). */
  step(row: number, byte: number): number {
    return this.row(this.automaton.accept(this.states[row]!, byte));
  }

  private row(state: S): number {
    const aut = this.automaton;
    if (!aut.canMatch(state)) return DEAD;
    const key = aut.key ? aut.key(state) : state;
    let r = this.rows.get(key);
    if (r === undefined) {
      if (this.states.length >= this.maxRows) return FULL;
      r = this.states.length;
      this.states.push(state);
      this.rows.set(key, r);
    }
    return r;
  }

  isMatch(row: number): boolean {
    return this.automaton.isMatch(this.states[row]!);
  }
}
