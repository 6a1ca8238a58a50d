import { FormatError } from '../../errors.js';
import type { Automaton } from './automaton.js';
import { sameState, searchAutomaton } from './bounds.js';
import type { Bailed, FastStream } from './fastStream.js';
import type { FastVisit, FinalNode } from './fastWalk.js';
import { corrupt, FstNode, type NodeBytes, u64 } from './node.js';
import type { FstReader } from './reader.js';

/** A bound of a key range; `inclusive` says whether the bound key itself belongs to the range. */
export interface Bound {
  readonly key: Uint8Array;
  readonly inclusive: boolean;
}

export interface StreamOptions<S> {
  /** Lower bound: the stream seeks to it through the automaton instead of skipping keys. */
  readonly from?: Bound;
  /** Upper bound: the stream ends at the first key past it. */
  readonly to?: Bound;
  /** Only keys the automaton matches; subtrees it cannot match are never visited. */
  readonly automaton?: Automaton<S>;
  /**
   * Deep verify: also fail on transitions out of order, on non-final nodes without
   * transitions and on a v2/v3 index that disagrees with the transitions.
   */
  readonly strict?: boolean;
  /**
   * Called with the error when a transition leads to a damaged node (or its target cannot be
   * read), and the key bytes of that transition; returning true skips the subtree under it and
   * walks on (salvage), false rethrows.
   */
  readonly onDamaged?: (e: FormatError, prefix: Uint8Array) => boolean;
  /** Walk in TypeScript even where WebAssembly serves (the tests comparing the two walks). */
  readonly inTypeScript?: boolean;
}

/**
 * Receives each key: `key[0..len)` is a buffer the stream reuses (copy what you keep), the
 * value is `hi * 2^32 + lo`, `node` gives the address and start of the final node the key ends
 * in (also reused: read it during the call only). Return false to pause;
 * the next `run` resumes after this key.
 */
export type Visit<S> = (key: Uint8Array, len: number, hi: number, lo: number, node: FinalNode, state: S | undefined) => boolean;

const TWO32 = 4294967296;
const EMPTY_WINDOW: NodeBytes = { bytes: new Uint8Array(0), base: 0, low: 0 };
/** Empty frame arrays every stream starts with, never written to: `grow` replaces them. */
const NO_FRAMES = { next: new Int32Array(0), hi: new Uint32Array(0), lo: new Uint32Array(0), cmp: new Int8Array(0), key: new Uint8Array(0) };

/**
 * Keys in byte order by depth-first walk, the way the reference readers stream: one frame per
 * key byte holding the node, the next transition to take, the value so far, the automaton
 * state and how the key compares with the upper bound so far (-1 below, 0 a prefix of it,
 * 1 past it). Resumable, so a table page or a search batch costs only what it returns.
 * Addresses strictly decrease along every edge (the node decoder rejects others), so the walk
 * ends on any input.
 */
export class KeyStream<S = unknown> {
  private readonly nodes: FstNode[] = [];
  /** One node object per depth, decoded into again and again. */
  private readonly pool: FstNode[] = [];
  // Per-depth frame fields in typed arrays (grown with the key): the walk's hottest memory. Empty
  // until this walk runs in TypeScript: a search in WebAssembly keeps its frames there, and a batch
  // of short queries paid for five arrays each.
  private next = NO_FRAMES.next;
  private hi = NO_FRAMES.hi;
  private lo = NO_FRAMES.lo;
  private cmp = NO_FRAMES.cmp;
  private readonly states: unknown[] = [];
  private key = NO_FRAMES.key;
  private depth = -1;
  private started = false;
  /**
   * A stream that is not strict walks in WebAssembly (fastWalk.ts), its bounds and automaton as
   * one automaton (bounds.ts), until it ends or stops at a defect or at the DFA table's cap; then
   * this stream takes over the module's frames and states and walks on in TypeScript with that
   * automaton, which throws the located error or continues.
   */
  private fast: FastStream | undefined;
  private readonly opts: StreamOptions<unknown>;
  /** The caller's automaton state within the walk's (the walk's own without bounds). */
  private readonly project: (state: unknown) => S | undefined = sameState<S>;

  constructor(
    private readonly reader: FstReader,
    opts: StreamOptions<S> = {},
  ) {
    this.opts = opts;
    const fast = opts.strict || opts.inTypeScript ? undefined : reader.fast();
    if (fast === undefined) return;
    const search = searchAutomaton(opts.automaton, opts.from, opts.to);
    this.fast = fast.stream(search?.automaton);
    if (search === undefined) return;
    this.opts = { ...opts, automaton: search.automaton, from: undefined, to: undefined };
    this.project = search.project;
  }

  /** Walks until the end (true) or until `visit` returns false (false). */
  async run(visit: Visit<S>, signal?: AbortSignal): Promise<boolean> {
    if (this.fast !== undefined) {
      const done = await this.runFast(this.fast, visit, signal);
      if (done !== undefined) return done;
    }
    if (!this.started) await this.seek();
    const { reader, nodes, states, project } = this;
    const aut = this.opts.automaton;
    const to = this.opts.to;
    let steps = 0;
    while (this.depth >= 0) {
      const d = this.depth;
      const node = nodes[d]!;
      const i = this.next[d]!;
      if (i < 0) {
        this.next[d] = 0;
        if (!node.isFinal) continue;
        if (to !== undefined && this.cmp[d] === 0 && d === to.key.length && !to.inclusive) {
          this.depth = -1;
          break;
        }
        if (aut !== undefined && !aut.isMatch(states[d])) continue;
        let l = this.lo[d]! + node.finalLo;
        const carry = l >= TWO32 ? 1 : 0;
        l -= carry * TWO32;
        if (!visit(this.key, d, (this.hi[d]! + node.finalHi + carry) >>> 0, l, node, project(states[d]))) return false;
        continue;
      }
      if (i >= node.ntrans) {
        this.depth--;
        if ((++steps & 0xffff) === 0 && signal?.aborted) return false;
        continue;
      }
      const input = node.input(i);
      let c = this.cmp[d]!;
      if (to !== undefined && c === 0) {
        if (d >= to.key.length) c = 1;
        else {
          const u = to.key[d]!;
          c = input < u ? -1 : input > u ? 1 : 0;
        }
        if (c === 1) {
          this.depth = -1;
          break;
        }
      }
      let state: unknown;
      if (aut !== undefined) {
        state = aut.accept(states[d], input);
        if (!aut.canMatch(state)) {
          this.next[d] = i + 1;
          continue;
        }
      }
      let child = this.pool[d + 1];
      if (child === undefined) child = this.pool[d + 1] = new FstNode();
      try {
        const t = node.target(i);
        if (t === 0) child.decode(EMPTY_WINDOW, 0, reader.version);
        else {
          if (t >= node.start) throw corrupt(node.addr, `transition ${i} points forwards to ${t}`);
          const w = reader.windowFor(t);
          if (w === undefined) {
            await reader.load(t);
            continue;
          }
          child.decode(w, t, reader.version);
        }
      } catch (e) {
        if (!this.skipDamaged(e, d, input)) throw e;
        this.next[d] = i + 1;
        continue;
      }
      this.next[d] = i + 1;
      node.output(i);
      this.push(d, input, child, u64.hi, u64.lo, state, c);
    }
    return true;
  }

  /**
   * `run` in WebAssembly: its answer, or undefined where the module stopped (a defect, a file it
   * cannot serve) and this walk has taken over its frames to go on in TypeScript from that key.
   */
  private async runFast(fast: FastStream, visit: Visit<S>, signal: AbortSignal | undefined): Promise<boolean | undefined> {
    const { project } = this;
    const r = await fast.run(
      project === sameState ? (visit as FastVisit) : (key, len, hi, lo, node, state) => visit(key, len, hi, lo, node, project(state)),
      signal,
    );
    if (typeof r === 'boolean') return r;
    this.fast = undefined;
    await this.adopt(r);
    return undefined;
  }

  /** Whether the caller salvages past this damaged subtree (the key so far plus `input` leads to it). */
  private skipDamaged(e: unknown, d: number, input: number): boolean {
    const onDamaged = this.opts.onDamaged;
    if (onDamaged === undefined || !(e instanceof FormatError) || e.code === 'cancelled') return false;
    const prefix = new Uint8Array(d + 1);
    prefix.set(this.key.subarray(0, d));
    prefix[d] = input;
    return onDamaged(e, prefix);
  }

  /** Takes over the frames of a stream that stopped in WebAssembly, to walk on from exactly there. */
  private async adopt(b: Bailed): Promise<void> {
    if (b.frames.length === 0) return;
    this.started = true;
    while (this.key.length <= b.frames.length) this.grow();
    for (const [d, f] of b.frames.entries()) {
      let node = this.pool[d];
      if (node === undefined) node = this.pool[d] = new FstNode();
      if (f.addr !== 0) await this.reader.load(f.addr);
      this.nodes[d] = node.decode(f.addr === 0 ? EMPTY_WINDOW : this.reader.windowFor(f.addr)!, f.addr, this.reader.version);
      this.next[d] = f.next;
      this.hi[d] = f.hi;
      this.lo[d] = f.lo;
      this.cmp[d] = 0;
      this.states[d] = f.state;
    }
    this.key.set(b.key);
    this.depth = b.frames.length - 1;
  }

  private grow(): void {
    const n = Math.max(64, this.key.length * 2);
    const widen = <T extends Uint8Array | Int8Array | Int32Array | Uint32Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.key = widen(this.key, (k) => new Uint8Array(k));
    this.next = widen(this.next, (k) => new Int32Array(k));
    this.hi = widen(this.hi, (k) => new Uint32Array(k));
    this.lo = widen(this.lo, (k) => new Uint32Array(k));
    this.cmp = widen(this.cmp, (k) => new Int8Array(k));
  }

  private push(d: number, input: number, child: FstNode, outHi: number, outLo: number, state: unknown, c: number): void {
    if (d + 1 >= this.key.length) this.grow();
    this.key[d] = input;
    let l = this.lo[d]! + outLo;
    const carry = l >= TWO32 ? 1 : 0;
    l -= carry * TWO32;
    const n = d + 1;
    this.nodes[n] = child;
    this.next[n] = -1;
    this.lo[n] = l;
    this.hi[n] = (this.hi[d]! + outHi + carry) >>> 0;
    this.states[n] = state;
    this.cmp[n] = c;
    this.depth = n;
  }

  /** Sets up the frames along the lower bound, so the walk starts at the first key ≥ (or >) it. */
  private async seek(): Promise<void> {
    this.started = true;
    if (this.key.length === 0) this.grow();
    const { reader } = this;
    const aut = this.opts.automaton;
    const from = this.opts.from;
    const to = this.opts.to;
    this.nodes[0] = await reader.node(reader.root);
    this.next[0] = from === undefined || (from.key.length === 0 && from.inclusive) ? -1 : 0;
    this.hi[0] = 0;
    this.lo[0] = 0;
    this.states[0] = aut?.start();
    this.cmp[0] = 0;
    this.depth = 0;
    if (aut !== undefined && !aut.canMatch(this.states[0])) {
      this.depth = -1;
      return;
    }
    if (from === undefined) return;
    for (let d = 0; d < from.key.length; d++) {
      const node = this.nodes[d]!;
      const b = from.key[d]!;
      const i = node.find(b);
      if (i < 0) {
        let j = 0;
        while (j < node.ntrans && node.input(j) < b) j++;
        this.next[d] = j;
        return;
      }
      let c = this.cmp[d]!;
      if (to !== undefined && c === 0) {
        c = d >= to.key.length ? 1 : b < to.key[d]! ? -1 : b > to.key[d]! ? 1 : 0;
        if (c === 1) {
          this.depth = -1;
          return;
        }
      }
      let state: unknown;
      if (aut !== undefined) {
        state = aut.accept(this.states[d], b);
        if (!aut.canMatch(state)) {
          this.next[d] = i + 1;
          return;
        }
      }
      const child = await reader.node(node.target(i));
      this.next[d] = i + 1;
      node.output(i);
      this.push(d, b, child, u64.hi, u64.lo, state, c);
      // A proper prefix of the bound sorts before it: skip its final; the bound itself counts if inclusive.
      this.next[d + 1] = d + 1 === from.key.length && from.inclusive ? -1 : 0;
    }
  }
}
