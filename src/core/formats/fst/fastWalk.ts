// @ts-ignore: a .wasm file, inlined as its bytes by the bundler (esbuild's binary loader, the vitest plugin); tsc cannot type it
import fstWalkWasm from '../../codecs/wasm/fstwalk.wasm';
import { instantiate, lazyModule } from '../../codecs/wasm/module.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { Automaton } from './automaton.js';
import { DfaRows, MAX_ROWS, UNBUILT } from './dfaRows.js';
import { type Bailed, FastStream } from './fastStream.js';

/**
 * The key stream, the searches and the key lookup of an fst in WebAssembly (`codecs/wasm/fstwalk.wat`),
 * 2–3× faster than the TypeScript walk (DESIGN.md, Performance). A search's automaton runs there as
 * a DFA table built lazily (dfaRows.ts): the module calls out only for a transition it has not met
 * yet, so the walk steps the automaton without leaving WebAssembly for each byte. The walks only read node bytes;
 * this class keeps the file's 64 KiB windows in the module's memory (at most MAX_SLOTS of them,
 * so memory stays bounded for files of any size) and loads the ones a walk asks for.
 *
 * The module never explains a defect: where node.ts would throw it stops and says where, and the
 * caller goes on in TypeScript from that key, which throws the located FormatError (stream.ts,
 * reader.ts). Files of 2 GiB and more (the module's addresses are 32-bit) walk in TypeScript.
 */

/** Where a walker reads node bytes: a ByteSource's reads, the synchronous one where the source has it. */
export type WindowSource = Pick<ByteSource, 'read' | 'readIntoSync'>;

/** Memory layout and window geometry: fstwalk.wat's constants. */
const WINDOW = 65536;
const OVERLAP = 8192;
const SLOT = WINDOW + OVERLAP;
const MAX_KEY = 16384;
const KEYIN = 16384;
/** Where `get` leaves the value it found (fstwalk.wat's memory map). */
const VALUE = 0xfff40;
const FRAMES = 32768;
const FRAME = 56;
const TABLE = 0x100000;
const SLOTS = 0x120000;
const FLAGS = 0xe8000;
const CLASSES = 0xea000;
const ABSENT = -0x80000000;
/** 18 MiB of windows, as reader.ts keeps in TypeScript. */
const MAX_SLOTS = 256;
/** Windows read in one request below a missing one (1 MiB). */
const RUN = 16;
/** Steps between returns to the caller, which checks for cancellation there. */
const BUDGET = 1 << 16;

const enum Walked {
  Done = 0,
  Paused = 1,
  Need = 2,
  Bail = 3,
  Yield = 4,
}

interface WasmGlobal {
  value: number;
}

interface FstWalkExports {
  readonly memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  init(version: number, limit: number): void;
  streamStart(root: number): number;
  seek(root: number, len: number, resume: number): number;
  readonly dfa: WasmGlobal;
  readonly classes: WasmGlobal;
  stream(budget: number): number;
  get(root: number, len: number, resume: number): number;
  readonly depth: WasmGlobal;
  readonly need: WasmGlobal;
  readonly bailDepth: WasmGlobal;
  readonly bailInput: WasmGlobal;
}

/** The final node a streamed key ends in, as stream.ts's visitors read it. */
export interface FinalNode {
  addr: number;
  start: number;
}

/** Receives each key as stream.ts's Visit does. */
export type FastVisit = (key: Uint8Array, len: number, hi: number, lo: number, node: FinalNode, state: unknown) => boolean;

const wasmModule = lazyModule(fstWalkWasm as Uint8Array);

/** The state a stream that ended leaves to claim: nothing to copy. */
const FINISHED = { depth: -1, frames: new Uint8Array(0), key: new Uint8Array(0) };
/** Where the walk starts over in TypeScript: from the start, no key given yet. */
const FROM_START: Bailed = { frames: [], key: new Uint8Array(0) };

export class FastWalk {
  private readonly ex: FstWalkExports;
  private heap!: Uint8Array;
  /** The module's memory as i32s (the DFA table). */
  private words!: Int32Array;
  /** The u64 at VALUE. */
  private found!: BigUint64Array;
  private table!: Int32Array;
  /** Window key held by each slot, in load order (the oldest is evicted first). */
  private readonly slots: number[] = [];
  private readonly slotOf = new Map<number, number>();
  private readonly loading = new Map<number, Promise<void>>();
  /** The stream whose frames are in the module's memory now. */
  private owner: FastStream | undefined;
  private visit: FastVisit | undefined;
  private readonly node: FinalNode = { addr: 0, start: 0 };
  /** The automaton whose table is in the module's memory now, and how many of its rows are there. */
  private dfa: DfaRows<unknown> | undefined;
  private dfaRows = 0;
  /** The automaton state of every key a prefix search gives (FastStream.matched). */
  private matched: unknown;
  /** The table's address: past the most the window slots can take. */
  private readonly dfaBase: number;
  /** The lookup waiting for a window, if any. */
  private waiting: Promise<unknown> | undefined;

  /** A walker for node data [16, limit), or undefined where WebAssembly or 32-bit addresses do not serve. */
  static create(version: number, limit: number, root: number, source: WindowSource, maxSlots = MAX_SLOTS, maxRows = MAX_ROWS): FastWalk | undefined {
    if (limit >= 2 ** 31 - SLOT) return undefined;
    const mod = wasmModule();
    if (!mod) return undefined;
    return new FastWalk(mod, version, limit, root, source, Math.max(3, maxSlots), maxRows);
  }

  private constructor(
    mod: object,
    version: number,
    private readonly limit: number,
    readonly root: number,
    private readonly source: WindowSource,
    /** At least 3: a step needs its node's window and its target's, and the windows below are read with them. */
    private readonly maxSlots: number,
    /** Rows of a search's DFA table past which it goes on in TypeScript. */
    private readonly maxRows: number,
  ) {
    const emit = (len: number, lo: number, hi: number, addr: number, start: number, state: number): number => {
      this.node.addr = addr;
      this.node.start = start;
      return this.visit!(this.heap, len, hi >>> 0, lo >>> 0, this.node, this.dfa ? this.dfa.states[state] : this.matched) ? 1 : 0;
    };
    const step = (row: number, byte: number): number => {
      const next = this.dfa!.step(row, byte);
      if (next >= this.dfaRows) this.addRows();
      return next;
    };
    this.ex = instantiate<FstWalkExports>(mod, { host: { emit, step } });
    this.dfaBase = Math.ceil((SLOTS + maxSlots * SLOT + 8) / 65536) * 65536;
    this.ex.init(version, limit);
    this.views();
    this.table.fill(ABSENT);
  }

  /** The module's memory in bytes: what this walker holds (the budget counts it, reader.ts). */
  memoryBytes(): number {
    return this.ex.memory.buffer.byteLength;
  }

  /** Puts the rows of the current automaton not in the table yet there, none of their transitions built. */
  private addRows(): void {
    const dfa = this.dfa!;
    const rows = dfa.states.length;
    const need = this.dfaBase + rows * dfa.width * 4;
    const have = this.ex.memory.buffer.byteLength;
    if (need > have) {
      this.ex.memory.grow(Math.ceil((need - have) / 65536));
      this.views();
    }
    for (let r = this.dfaRows; r < rows; r++) this.heap[FLAGS + r] = dfa.isMatch(r) ? 1 : 0;
    this.words.fill(UNBUILT, (this.dfaBase >> 2) + this.dfaRows * dfa.width, (this.dfaBase >> 2) + rows * dfa.width);
    this.dfaRows = rows;
  }

  /** Views of the module's memory, made again whenever it grows (growing detaches the old buffer). */
  private views(): void {
    const buffer = this.ex.memory.buffer;
    this.heap = new Uint8Array(buffer);
    this.words = new Int32Array(buffer);
    this.found = new BigUint64Array(buffer, VALUE, 1);
    this.table = new Int32Array(buffer, TABLE, Math.ceil(this.limit / WINDOW));
  }

  /**
   * Reads the window holding file address `addr` into a slot, with the absent windows below it
   * (walks go downwards: every edge points to a lower address) up to RUN windows in one read, or
   * all of a file whose windows fit in the slots. The oldest slots are reused when all are taken.
   */
  async load(addr: number): Promise<void> {
    const w = Math.floor(addr / WINDOW);
    if (this.slotOf.has(w)) return;
    let pending = this.loading.get(w);
    if (!pending) {
      const windows = Math.ceil(this.limit / WINDOW);
      let low = windows <= this.maxSlots ? 0 : w;
      if (low === w) while (low > 0 && w - low + 1 < Math.min(RUN, this.maxSlots - 2) && !this.slotOf.has(low - 1) && !this.loading.has(low - 1)) low--;
      const high = windows <= this.maxSlots ? windows - 1 : w;
      pending = this.readRun(low, high).finally(() => {
        for (let k = low; k <= high; k++) this.loading.delete(k);
      });
      for (let k = low; k <= high; k++) if (!this.slotOf.has(k)) this.loading.set(k, pending);
    }
    await pending;
  }

  private async readRun(low: number, high: number): Promise<void> {
    const start = (k: number) => Math.max(16, k * WINDOW - OVERLAP);
    const end = (k: number) => Math.min(this.limit, (k + 1) * WINDOW);
    const { readIntoSync } = this.source;
    if (readIntoSync) {
      // Straight into each slot (a local file): no buffer of the whole run to fault in and copy again.
      for (let k = high; k >= low; k--) {
        if (this.slotOf.has(k)) continue;
        const at = SLOTS + this.takeSlot(k) * SLOT;
        readIntoSync.call(this.source, start(k), this.heap.subarray(at, at + end(k) - start(k)));
        this.table[k] = at - start(k);
      }
      return;
    }
    const base = start(low);
    const bytes = await this.source.read(base, end(high) - base);
    for (let k = high; k >= low; k--) {
      if (this.slotOf.has(k)) continue;
      const at = SLOTS + this.takeSlot(k) * SLOT;
      this.heap.set(bytes.subarray(start(k) - base, end(k) - base), at);
      this.table[k] = at - start(k);
    }
  }

  /** A slot for window k: a new one while there are fewer than MAX_SLOTS, else the oldest. */
  private takeSlot(k: number): number {
    let slot: number;
    if (this.slots.length < Math.min(this.maxSlots, Math.ceil(this.limit / WINDOW))) {
      slot = this.slots.length;
      // 8 bytes of slack after the last slot: the module reads integers 8 bytes at a time.
      const need = SLOTS + (slot + 1) * SLOT + 8;
      const have = this.ex.memory.buffer.byteLength;
      if (need > have) {
        this.ex.memory.grow(Math.ceil((need - have) / 65536));
        this.views();
      }
    } else {
      const evicted = this.slots.shift()!;
      slot = this.slotOf.get(evicted)!;
      this.slotOf.delete(evicted);
      this.table[evicted] = ABSENT;
    }
    this.slots.push(k);
    this.slotOf.set(k, slot);
    return slot;
  }

  /**
   * The value of `key`: a bigint, undefined when absent, 'bail' when the TypeScript lookup must
   * decide; synchronous while the windows it needs are loaded. A lookup waiting for a window keeps
   * its place in the module, so the lookups after it wait their turn.
   */
  get(key: Uint8Array): bigint | undefined | 'bail' | Promise<bigint | undefined | 'bail'> {
    if (key.length > MAX_KEY) return 'bail';
    if (this.waiting) return this.waiting.then(() => this.get(key));
    this.heap.set(key, KEYIN);
    const r = this.ex.get(this.root, key.length, 0);
    if (r !== Walked.Need) return this.result(r);
    const finish: Promise<bigint | undefined | 'bail'> = this.finishLookup(key.length).finally(() => {
      if (this.waiting === finish) this.waiting = undefined;
    });
    this.waiting = finish;
    return finish;
  }

  private async finishLookup(len: number): Promise<bigint | undefined | 'bail'> {
    for (;;) {
      await this.load(this.ex.need.value);
      const r = this.ex.get(this.root, len, 1);
      if (r !== Walked.Need) return this.result(r);
    }
  }

  private result(r: number): bigint | undefined | 'bail' {
    if (r === 1) return this.found[0]!;
    return r === 0 ? undefined : 'bail';
  }

  /** A stream of every key, or of the keys `automaton` matches (a prefix search: by a seek, with no DFA). */
  stream(automaton?: Automaton<unknown>): FastStream {
    // A prefix as deep as the frames reach goes the DFA's way, which bails at that depth.
    if (automaton?.wholeSubtree && automaton.keysStartWith!.length < MAX_KEY - 1) return new FastStream(this, undefined, automaton);
    return new FastStream(this, automaton && new DfaRows(automaton, this.maxRows));
  }

  /**
   * Runs `stream` in the module until it ends (true), `visit` pauses it (false), cancellation
   * (false) or a bail. Streams on one reader take turns: each keeps its frames here while it runs.
   */
  async run(stream: FastStream, visit: FastVisit, signal?: AbortSignal): Promise<boolean | Bailed> {
    const ex = this.ex;
    this.claim(stream);
    if (stream.dfa?.empty) return true;
    if (!stream.started) {
      for (let resume = 0; ; resume = 1) {
        const r = this.start(stream, resume);
        if (r === 0) break;
        if (r !== Walked.Need) return FROM_START;
        await this.load(ex.need.value);
        this.claim(stream);
      }
      stream.started = true;
    }
    for (;;) {
      this.visit = visit;
      const r = ex.stream(BUDGET);
      this.visit = undefined;
      switch (r) {
        case Walked.Done:
          return true;
        case Walked.Paused:
          return false;
        case Walked.Yield:
          if (signal?.aborted) return false;
          break;
        case Walked.Need:
          await this.load(ex.need.value);
          this.claim(stream);
          break;
        default:
          return ex.bailDepth.value < 0 ? FROM_START : stream.bailed(this.heap, ex.depth.value);
      }
    }
  }

  /** Puts a stream at its start: the root, or a prefix search's prefix (`resume` 1: on from where a seek needed a window). */
  private start(stream: FastStream, resume: number): number {
    const prefix = stream.prefix;
    if (prefix === undefined) return this.ex.streamStart(this.root);
    // A lookup may have used KEYIN while the seek waited for a window.
    this.heap.set(prefix, KEYIN);
    return this.ex.seek(this.root, prefix.length, resume);
  }

  /** Puts `stream`'s frames, key and automaton into the module's memory, keeping those of the stream there before. */
  private claim(stream: FastStream): void {
    if (this.owner === stream) return;
    // Another automaton's table: this one's rows come back with no transitions built, and build again as the walk meets them.
    if (stream.dfa !== this.dfa) {
      this.dfa = stream.dfa;
      this.dfaRows = 0;
      if (this.dfa) {
        this.heap.set(this.dfa.classes, CLASSES);
        this.ex.classes.value = this.dfa.width;
        this.addRows();
      }
    }
    this.ex.dfa.value = this.dfa ? this.dfaBase : 0;
    this.matched = stream.matched;
    const prev = this.owner;
    if (prev !== undefined) {
      const depth = this.ex.depth.value;
      prev.saved = depth < 0 ? FINISHED : { depth, frames: this.heap.slice(FRAMES, FRAMES + (depth + 1) * FRAME), key: this.heap.slice(0, depth) };
    }
    this.owner = stream;
    const s = stream.saved;
    if (s !== undefined) {
      this.heap.set(s.frames, FRAMES);
      this.heap.set(s.key, 0);
      this.ex.depth.value = s.depth;
      stream.saved = undefined;
    }
  }
}
