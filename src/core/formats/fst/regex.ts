import { FormatError } from '../../errors.js';
import type { Automaton } from './automaton.js';
import { type ByteClasses, classesSplitAt } from './byteClasses.js';
import { type Ast, MAX_CP, normalise, parseRegex } from './regexSyntax.js';

/**
 * Regular expressions as a byte automaton over keys, matching the whole key (as `fst grep`
 * does), with the syntax and meaning of the crate's regex (regexSyntax.ts): Unicode `\d \w \s`
 * and `\p{…}`, `(?i)` and the other flags, nested classes; `\xHH` above 7f is one raw byte.
 * Characters are Unicode: `.` and classes match whole UTF-8 sequences, so `caf.` matches `café`.
 *
 * Written here rather than taken from a library: JavaScript regex engines match strings, not
 * byte automata that can be stepped one byte at a time and asked "can anything still match?",
 * which is what intersecting with an fst needs. The pattern compiles to a Thompson NFA over
 * byte ranges; the DFA is built lazily, one state per distinct NFA state set actually reached,
 * capped so a pathological pattern fails with a clear error instead of exhausting memory.
 */

const MAX_NFA = 200_000;
const MAX_DFA_STATES = 20_000;

export function regexAutomaton(pattern: string): Automaton<number> {
  const nfa = compileNfa(parseRegex(pattern));
  return lazyDfa(nfa);
}

// ---- UTF-8: a code point range as alternatives of byte-range sequences ----

const UTF8_LIMITS = [0x7f, 0x7ff, 0xffff, MAX_CP];

export function utf8Sequences(lo: number, hi: number): [number, number][][] {
  const out: [number, number][][] = [];
  const work: [number, number][] = [[lo, hi]];
  while (work.length) {
    let [a, b] = work.pop()!;
    // Surrogates are not characters.
    if (a <= 0xdfff && b >= 0xd800) {
      if (a < 0xd800) work.push([a, 0xd7ff]);
      if (b > 0xdfff) work.push([0xe000, b]);
      continue;
    }
    let split = false;
    for (const limit of UTF8_LIMITS) {
      if (a <= limit && b > limit) {
        work.push([a, limit], [limit + 1, b]);
        split = true;
        break;
      }
    }
    if (split) continue;
    const n = a <= 0x7f ? 1 : a <= 0x7ff ? 2 : a <= 0xffff ? 3 : 4;
    for (let k = 1; k < n; k++) {
      const m = (1 << (6 * k)) - 1;
      if ((a & ~m) !== (b & ~m)) {
        if ((a & m) !== 0) {
          work.push([a, a | m], [(a | m) + 1, b]);
          split = true;
          break;
        }
        if ((b & m) !== m) {
          work.push([a, (b & ~m) - 1], [b & ~m, b]);
          split = true;
          break;
        }
      }
    }
    if (split) continue;
    const ea = encode(a);
    const eb = encode(b);
    out.push(ea.map((x, j) => [x, eb[j]!] as [number, number]));
  }
  return out;
}

function encode(cp: number): number[] {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 0x3f)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
}

/**
 * A class's UTF-8 sequences as a trie of byte ranges, keyed by range: sequences that start alike
 * share their first states, so the DFA steps through a handful of NFA states per byte instead of
 * one per sequence (`\w` has about a thousand; its first search spent most of its time there).
 * UTF-8 lead bytes fix a sequence's length, so a sequence never ends where another goes on.
 */
type Trie = Map<number, { lo: number; hi: number; tails: Trie }>;

function trieOf(sequences: [number, number][][]): Trie {
  const root: Trie = new Map();
  for (const seq of sequences) {
    let level = root;
    for (const [lo, hi] of seq) {
      let b = level.get((lo << 8) | hi);
      if (b === undefined) level.set((lo << 8) | hi, (b = { lo, hi, tails: new Map() }));
      level = b.tails;
    }
  }
  return root;
}

// ---- NFA ----

const SPLIT = 0;
const RANGE = 1;
const MATCH = 2;

interface Nfa {
  readonly kind: number[];
  readonly lo: number[];
  readonly hi: number[];
  readonly a: number[];
  readonly b: number[];
  readonly start: number;
}

function compileNfa(ast: Ast): Nfa {
  const kind: number[] = [];
  const lo: number[] = [];
  const hi: number[] = [];
  const a: number[] = [];
  const b: number[] = [];
  const add = (k: number, l: number, h: number, x: number, y: number) => {
    if (kind.length >= MAX_NFA) throw new FormatError('limit', `regex: more than ${MAX_NFA} automaton states`, { field: 'regex' });
    kind.push(k);
    lo.push(l);
    hi.push(h);
    a.push(x);
    b.push(y);
    return kind.length - 1;
  };
  const match = add(MATCH, 0, 0, -1, -1);
  const tries = new Map<Ast, Trie>();
  const build = (node: Ast, next: number): number => {
    switch (node.t) {
      case 'byte':
        return add(RANGE, node.lo, node.hi, next, -1);
      case 'set': {
        // Repetitions build their item more than once: the class's trie is made once.
        let trie = tries.get(node);
        if (trie === undefined) tries.set(node, (trie = trieOf(normalise(node.ranges).flatMap(([l, h]) => utf8Sequences(l, h)))));
        if (trie.size === 0) return add(RANGE, 1, 0, next, -1); // matches nothing
        const branches = (level: Trie): number => {
          let start = -1;
          for (const b of level.values()) {
            const s = add(RANGE, b.lo, b.hi, b.tails.size ? branches(b.tails) : next, -1);
            start = start < 0 ? s : add(SPLIT, 0, 0, s, start);
          }
          return start;
        };
        return branches(trie);
      }
      case 'cat': {
        let s = next;
        for (let k = node.items.length - 1; k >= 0; k--) s = build(node.items[k]!, s);
        return s;
      }
      case 'alt': {
        let start = build(node.items[node.items.length - 1]!, next);
        for (let k = node.items.length - 2; k >= 0; k--) start = add(SPLIT, 0, 0, build(node.items[k]!, next), start);
        return start;
      }
      case 'rep': {
        let s = next;
        if (node.max === Infinity) {
          const loop = add(SPLIT, 0, 0, -1, next);
          a[loop] = build(node.item, loop);
          s = loop;
        } else {
          // x{n,m}: after n copies, up to m − n more, each of which may end the repetition.
          for (let k = node.min; k < node.max; k++) s = add(SPLIT, 0, 0, build(node.item, s), next);
        }
        for (let k = 0; k < node.min; k++) s = build(node.item, s);
        return s;
      }
    }
  };
  return { kind, lo, hi, a, b, start: build(ast, match) };
}

// ---- lazy DFA ----

/** Bytes no range of the NFA tells apart: split at every range's ends. */
function rangeClasses(nfa: Nfa): ByteClasses {
  const starts: number[] = [];
  nfa.kind.forEach((k, n) => {
    if (k === RANGE) starts.push(nfa.lo[n]!, nfa.hi[n]! + 1);
  });
  return classesSplitAt(starts);
}

function lazyDfa(nfa: Nfa): Automaton<number> {
  const sets: number[][] = [[]];
  const ids = new Map<string, number>([['', 0]]);
  const matches: boolean[] = [false];
  const table: Int32Array[] = [new Int32Array(256).fill(0)];
  const mark = new Int32Array(nfa.kind.length).fill(-1);
  let stamp = 0;

  const closure = (seeds: number[]): number => {
    stamp++;
    const out: number[] = [];
    const stack = [...seeds];
    while (stack.length) {
      const s = stack.pop()!;
      if (s < 0 || mark[s] === stamp) continue;
      mark[s] = stamp;
      if (nfa.kind[s] === SPLIT) stack.push(nfa.b[s]!, nfa.a[s]!);
      else out.push(s);
    }
    out.sort((x, y) => x - y);
    const key = out.join(',');
    let id = ids.get(key);
    if (id === undefined) {
      if (sets.length >= MAX_DFA_STATES)
        throw new FormatError('limit', `regex: more than ${MAX_DFA_STATES} automaton states; simplify the pattern`, { field: 'regex' });
      id = sets.length;
      ids.set(key, id);
      sets.push(out);
      matches.push(out.some((s) => nfa.kind[s] === MATCH));
      table.push(new Int32Array(256).fill(-1));
    }
    return id;
  };
  const start = closure([nfa.start]);
  return {
    start: () => start,
    classes: rangeClasses(nfa),
    isMatch: (s) => matches[s]!,
    canMatch: (s) => s !== 0,
    accept: (s, byte) => {
      const row = table[s]!;
      let t = row[byte]!;
      if (t < 0) {
        const next: number[] = [];
        for (const n of sets[s]!) if (nfa.kind[n] === RANGE && byte >= nfa.lo[n]! && byte <= nfa.hi[n]!) next.push(nfa.a[n]!);
        t = next.length === 0 ? 0 : closure(next);
        table[s]![byte] = t;
      }
      return t;
    },
  };
}
