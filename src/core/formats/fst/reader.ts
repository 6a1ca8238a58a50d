import { holdMemoryOf } from '../../codecs/wasm/module.js';
import { FormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { FST_FOOTER, NODES_START, type FstLayout, rootProblem } from './header.js';
import { FastWalk } from './fastWalk.js';
import { FstNode, type NodeBytes, u64 } from './node.js';

/**
 * Random access to the nodes of an fst whatever its size: node data is read in windows of
 * 64 KiB that overlap by more than the largest node, so every node lies wholly inside the
 * window of its state byte. Windows are kept in a small LRU, so memory stays bounded for
 * files of many GB, and a file that fits in a few windows is read once.
 *
 * Node lookups are synchronous when the window is loaded (`nodeIfLoaded`); walks fall back
 * to `load` only on a miss, so a walk over cached data never waits for a promise per node.
 */
const WINDOW = 64 * 1024;
const OVERLAP = 8 * 1024;
const MAX_WINDOWS = 256;

export class FstReader {
  readonly version: number;
  /** Root node address (0 = the EMPTY node: only the empty key). */
  readonly root: number;
  /** End of node data (the footer offset): no node byte lies at or past it. */
  readonly limit: number;
  readonly keyCount: bigint;
  /** Loaded windows by `addr / WINDOW` (an array: looked up for every node of every walk). */
  private readonly windows: (NodeBytes | undefined)[] = [];
  /** Window keys in load order, for evicting the oldest. */
  private readonly loaded: number[] = [];
  private readonly loading = new Map<number, Promise<NodeBytes>>();
  private fastWalk: FastWalk | null | undefined;

  constructor(
    private readonly src: ByteSource,
    layout: FstLayout,
  ) {
    const problem = rootProblem(layout);
    if (problem?.severity === 'error') {
      throw new FormatError('out-of-range', problem.detail, FST_FOOTER.at('rootAddress', layout.footer.offset));
    }
    this.version = Number(layout.header.version);
    this.root = Number(layout.footer.rootAddress);
    this.limit = layout.footer.offset;
    this.keyCount = layout.footer.keyCount;
    holdMemoryOf(this, FstReader.walkBytes, FstReader.dropWalk);
  }

  /**
   * The walker's WebAssembly memory, counted with the thread's (module.ts wasmMemory): its windows
   * and a search's DFA table grow it, and it never shrinks, so a trim lets the walker go and the
   * next walk makes a fresh one (a stream under way keeps the one it holds).
   */
  private static walkBytes(reader: FstReader): number {
    return reader.fastWalk?.memoryBytes() ?? 0;
  }

  private static dropWalk(reader: FstReader): void {
    if (reader.fastWalk) reader.fastWalk = undefined;
  }

  /** The WebAssembly walker (fastWalk.ts) of this file, made on first use; undefined where it cannot serve. */
  fast(): FastWalk | undefined {
    if (this.fastWalk === undefined) this.fastWalk = FastWalk.create(this.version, this.limit, this.root, this.src) ?? null;
    return this.fastWalk ?? undefined;
  }

  /** The node at `addr` if its bytes are loaded, else undefined. Throws a FormatError for damaged nodes. */
  nodeIfLoaded(addr: number): FstNode | undefined {
    if (addr === 0) return FstNode.at(null, 0, this.version);
    const w = this.windowFor(addr);
    return w === undefined ? undefined : FstNode.at(w, addr, this.version);
  }

  /** The loaded window holding the node at `addr` (not 0), or undefined; throws for addresses outside node data. */
  windowFor(addr: number): NodeBytes | undefined {
    if (addr < NODES_START || addr >= this.limit) throw outside(addr, this.limit);
    return this.windows[Math.floor(addr / WINDOW)];
  }

  async node(addr: number): Promise<FstNode> {
    return this.nodeIfLoaded(addr) ?? (await this.load(addr), this.nodeIfLoaded(addr)!);
  }

  /** Loads the window holding the node whose state byte is at `addr`. */
  async load(addr: number): Promise<void> {
    if (addr < NODES_START || addr >= this.limit) throw outside(addr, this.limit);
    const key = Math.floor(addr / WINDOW);
    if (this.windows[key] !== undefined) return;
    let pending = this.loading.get(key);
    if (!pending) {
      const from = Math.max(NODES_START, key * WINDOW - OVERLAP);
      const to = Math.min(this.limit, (key + 1) * WINDOW);
      pending = this.src.read(from, to - from).then((bytes) => ({ bytes, base: from, low: from }));
      this.loading.set(key, pending);
    }
    try {
      const w = await pending;
      if (this.windows[key] === undefined) {
        this.windows[key] = w;
        this.loaded.push(key);
        while (this.loaded.length > MAX_WINDOWS) this.windows[this.loaded.shift()!] = undefined;
      }
    } finally {
      this.loading.delete(key);
    }
  }

  /** Bytes of the node windows kept (up to 256 of 72 KiB): the document's share of the viewer's memory budget. */
  cacheBytes(): number {
    return this.loaded.reduce((n, key) => n + (this.windows[key]?.bytes.length ?? 0), 0);
  }

  /** Forgets the node windows; walks load them again. */
  dropWindows(): void {
    this.windows.length = 0;
    this.loaded.length = 0;
  }

  /** The value of `key`, or undefined when the fst does not hold it. */
  get(key: Uint8Array): Promise<bigint | undefined> {
    // The WebAssembly lookup first (no promise of its own while its windows are loaded); where
    // it stops at a defect, the TypeScript one says what it is.
    const walk = this.fast();
    if (walk === undefined) return this.slowGet(key);
    const fast = walk.get(key);
    if (fast === 'bail') return this.slowGet(key);
    if (fast instanceof Promise) return fast.then((v) => (v === 'bail' ? this.slowGet(key) : v));
    return Promise.resolve(fast);
  }

  private slowGet(key: Uint8Array): Promise<bigint | undefined> {
    // Over loaded windows a lookup needs no await at all; only a window miss goes async.
    let found: bigint | undefined | typeof MISSING;
    try {
      found = this.lookupLoaded(key);
    } catch (e) {
      // A damaged node: the promise rejects, as when the lookup had to wait for a window.
      return Promise.reject(e);
    }
    if (found !== MISSING) return Promise.resolve(found);
    return this.lookup(key).then((r) => r?.value);
  }

  /** `get` over loaded windows only: MISSING when a window must be read first. */
  private lookupLoaded(key: Uint8Array): bigint | undefined | typeof MISSING {
    const walk = new KeyWalk(this.root);
    return this.follow(key, walk) ? walk.value() : MISSING;
  }

  /** The value of `key` and the node its path ends in, or undefined. */
  async lookup(key: Uint8Array): Promise<{ value: bigint; node: FstNode } | undefined> {
    const walk = new KeyWalk(this.root);
    while (!this.follow(key, walk)) await this.load(walk.next);
    const value = walk.value();
    return value === undefined ? undefined : { value, node: walk.node };
  }

  /**
   * Follows `key` from where `walk` stands for as long as the windows it needs are loaded: true
   * when the walk is over (the key's end, or where the fst has no transition for it), false at a
   * node whose window must be loaded first (`walk.next`); called again then, it goes on from there.
   */
  private follow(key: Uint8Array, walk: KeyWalk): boolean {
    const node = walk.node;
    for (;;) {
      if (walk.next >= 0) {
        if (walk.next === 0) node.decode(EMPTY_WINDOW, 0, this.version);
        else {
          const w = this.windowFor(walk.next);
          if (w === undefined) return false;
          node.decode(w, walk.next, this.version);
        }
        walk.next = -1;
      }
      if (walk.depth === key.length) return true;
      const i = node.find(key[walk.depth]!);
      if (i < 0) {
        walk.absent = true;
        return true;
      }
      node.output(i);
      walk.lo += u64.lo;
      walk.hi += u64.hi;
      walk.next = node.target(i);
      walk.depth++;
    }
  }

  /** The addresses along `key`'s path (as far as it exists), root first. */
  async path(key: Uint8Array): Promise<{ nodes: FstNode[]; matched: number }> {
    const nodes = [await this.node(this.root)];
    for (let d = 0; d < key.length; d++) {
      const node = nodes[nodes.length - 1]!;
      const i = node.find(key[d]!);
      if (i < 0) return { nodes, matched: d };
      nodes.push(await this.node(node.target(i)));
    }
    return { nodes, matched: key.length };
  }
}

/**
 * A lookup under way: one node decoded into at every step (a lookup allocates nothing per byte),
 * the key bytes followed, and the output summed in halves on the way.
 */
class KeyWalk {
  readonly node = new FstNode();
  depth = 0;
  hi = 0;
  lo = 0;
  absent = false;

  constructor(
    /** The node to decode next (-1: `node` is current). */
    public next: number,
  ) {}

  /** The value where the walk ended: undefined unless the key ended on a final node. */
  value(): bigint | undefined {
    if (this.absent || !this.node.isFinal) return undefined;
    return joinHalves(this.hi + this.node.finalHi, this.lo + this.node.finalLo);
  }
}

const TWO32 = 4294967296;
const MISSING: unique symbol = Symbol('window not loaded');
const EMPTY_WINDOW: NodeBytes = { bytes: new Uint8Array(0), base: 0, low: 0 };

/** Sums of halves (each possibly ≥ 2^32 after additions) → an exact u64 bigint, wrapping like u64 addition. */
export function joinHalves(hi: number, lo: number): bigint {
  if (hi === 0 && lo < TWO32) return BigInt(lo);
  const carry = Math.floor(lo / TWO32);
  return BigInt.asUintN(64, (BigInt((hi + carry) % TWO32) << 32n) | BigInt(lo % TWO32));
}

function outside(addr: number, limit: number): FormatError {
  return new FormatError('out-of-range', `node address ${addr} is outside the node data [16, ${limit})`, {
    offset: Math.min(addr, limit),
    field: 'node address',
  });
}
