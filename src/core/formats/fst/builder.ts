import { crc32c } from '../../codecs/crc32c.js';
import { FormatError } from '../../errors.js';
import type { FieldSpec, FixedLayout, LayoutValues } from '../../io/layout.js';
import { FST_FOOTER, FST_HEADER, maskChecksum } from './header.js';
import { compareBytes, escapeKey } from './keyText.js';
import { COMMON_CODE, INDEX_THRESHOLD } from './node.js';

/**
 * Writes an fst the way the reference builder does (fst crate `raw::Builder`, which vellum
 * copies), so that the same keys give the same bytes: the stack of unfinished nodes along the
 * last key, outputs pushed towards the root (each transition keeps the common prefix — the
 * minimum — of the values below it), suffixes shared through a registry of 10 000 rows × 2
 * cells hashed with FNV-1a 64 (a cell is reused only for an identical node; the least recently
 * used cell of a row is replaced), and the same choice of node kind and widths.
 *
 * Memory is bounded by the longest key and the registry; bytes are handed out with
 * `takeBytes` as they are produced, so a writer can stream them to disk.
 */
export type WriteVersion = 1 | 2 | 3;

interface Trans {
  inp: number;
  out: bigint;
  addr: number;
}

interface BuilderNode {
  isFinal: boolean;
  finalOutput: bigint;
  trans: Trans[];
}

interface Unfinished {
  node: BuilderNode;
  /** The transition towards the key being added; its target is not compiled yet. */
  last: { inp: number; out: bigint } | undefined;
}

const EMPTY_ADDRESS = 0;
const NONE_ADDRESS = 1;
const REGISTRY_ROWS = 10_000;
const REGISTRY_COLUMNS = 2;

export class FstBuilder {
  private buf = new Uint8Array(1 << 16);
  private n = 0;
  /** Bytes handed out by takeBytes so far. */
  private flushed = 0;
  private crc = 0;
  private readonly stack: Unfinished[] = [];
  private readonly registry = new Registry();
  private lastKey: Uint8Array | undefined;
  private lastAddr = NONE_ADDRESS;
  private len = 0;
  private finished = false;

  constructor(
    readonly version: WriteVersion = 3,
    fstType = 0n,
  ) {
    this.fixed(FST_HEADER, { version: BigInt(version), fstType });
    this.pushEmpty(false);
  }

  /** Keys added so far (what the footer will count). */
  get count(): number {
    return this.len;
  }

  /** Adds a map entry. Keys must come in strictly increasing byte order. */
  insert(key: Uint8Array, value: bigint): void {
    this.checkOrder(key, true);
    this.insertOutput(key, value);
  }

  /** Adds a set member; a repeat of the previous key is ignored, as the reference SetBuilder does. */
  add(key: Uint8Array): void {
    this.checkOrder(key, false);
    this.insertOutput(key, undefined);
  }

  /** Bytes produced since the last call. */
  takeBytes(): Uint8Array {
    const out = this.buf.slice(0, this.n);
    if (this.version >= 3) this.crc = crc32c(out, this.crc);
    this.flushed += this.n;
    this.n = 0;
    return out;
  }

  /** Compiles what remains and writes the footer; returns the last bytes of the file. */
  finish(): Uint8Array {
    if (this.finished) throw new Error('builder already finished');
    this.finished = true;
    this.compileFrom(0);
    const root = this.stack.pop()!;
    const rootAddr = this.compile(root.node);
    this.fixed(FST_FOOTER, { keyCount: BigInt(this.len), rootAddress: BigInt(rootAddr) });
    const tail = this.takeBytes();
    if (this.version < 3) return tail;
    const sum = maskChecksum(this.crc);
    const out = new Uint8Array(tail.length + 4);
    out.set(tail);
    new DataView(out.buffer).setUint32(tail.length, sum, true);
    return out;
  }

  private checkOrder(key: Uint8Array, rejectDuplicate: boolean): void {
    const last = this.lastKey;
    if (last !== undefined) {
      const c = compareBytes(key, last);
      if (c === 0 && rejectDuplicate) throw new FormatError('corrupt', `duplicate key ${escapeKey(key)}`, { field: 'key' });
      if (c < 0) throw new FormatError('corrupt', `key ${escapeKey(key)} comes after ${escapeKey(last)}: keys must be sorted`, { field: 'key' });
    }
    this.lastKey = key.slice();
  }

  private insertOutput(key: Uint8Array, value: bigint | undefined): void {
    if (key.length === 0) {
      this.len = 1;
      this.stack[0]!.node.isFinal = true;
      this.stack[0]!.node.finalOutput = value ?? 0n;
      return;
    }
    let prefixLen: number;
    let out = value ?? 0n;
    if (value === undefined) prefixLen = this.commonPrefix(key);
    else [prefixLen, out] = this.commonPrefixAndSetOutput(key, value);
    if (prefixLen === key.length) return; // a repeated set member
    this.len++;
    this.compileFrom(prefixLen);
    this.addSuffix(key.subarray(prefixLen), out);
  }

  private pushEmpty(isFinal: boolean): void {
    this.stack.push({ node: { isFinal, finalOutput: 0n, trans: [] }, last: undefined });
  }

  private commonPrefix(key: Uint8Array): number {
    let i = 0;
    while (i < key.length && i < this.stack.length && this.stack[i]!.last?.inp === key[i]) i++;
    return i;
  }

  private commonPrefixAndSetOutput(key: Uint8Array, value: bigint): [number, bigint] {
    let out = value;
    let i = 0;
    while (i < key.length) {
      const t = this.stack[i]!.last;
      if (t === undefined || t.inp !== key[i]) break;
      i++;
      const common = t.out < out ? t.out : out;
      const addPrefix = t.out - common;
      out -= common;
      t.out = common;
      if (addPrefix !== 0n) addOutputPrefix(this.stack[i]!, addPrefix);
    }
    return [i, out];
  }

  private addSuffix(bs: Uint8Array, out: bigint): void {
    const top = this.stack[this.stack.length - 1]!;
    top.last = { inp: bs[0]!, out };
    for (let i = 1; i < bs.length; i++) this.stack.push({ node: { isFinal: false, finalOutput: 0n, trans: [] }, last: { inp: bs[i]!, out: 0n } });
    this.pushEmpty(true);
  }

  /** Compiles the nodes below depth `istate` (they can gain no more transitions) and links them. */
  private compileFrom(istate: number): void {
    let addr = NONE_ADDRESS;
    while (istate + 1 < this.stack.length) {
      const u = this.stack.pop()!;
      if (addr !== NONE_ADDRESS) freeze(u, addr);
      addr = this.compile(u.node);
    }
    freeze(this.stack[this.stack.length - 1]!, addr);
  }

  private compile(node: BuilderNode): number {
    if (node.isFinal && node.trans.length === 0 && node.finalOutput === 0n) return EMPTY_ADDRESS;
    const cell = this.registry.entry(node);
    if (cell.addr !== NONE_ADDRESS) return cell.addr;
    const start = this.flushed + this.n;
    this.writeNode(node, start);
    this.lastAddr = this.flushed + this.n - 1;
    cell.addr = this.lastAddr;
    return this.lastAddr;
  }

  private writeNode(node: BuilderNode, start: number): void {
    const trans = node.trans;
    if (trans.length !== 1 || node.isFinal) return this.writeAnyTrans(node, start);
    const t = trans[0]!;
    const code = COMMON_CODE[t.inp]!;
    if (t.addr === this.lastAddr && t.out === 0n) {
      if (code === 0) this.byte(t.inp);
      this.byte(0b1100_0000 | code);
      return;
    }
    const osize = t.out === 0n ? 0 : packSize(t.out);
    if (osize) this.uint(t.out, osize);
    const delta = deltaOf(start, t.addr);
    const tsize = packSizeNumber(delta);
    this.uintNumber(delta, tsize);
    this.byte((tsize << 4) | osize);
    if (code === 0) this.byte(t.inp);
    this.byte(0b1000_0000 | code);
  }

  private writeAnyTrans(node: BuilderNode, start: number): void {
    const trans = node.trans;
    let tsize = 0;
    let osize = packSize(node.finalOutput);
    let anyOuts = node.finalOutput !== 0n;
    for (const t of trans) {
      tsize = Math.max(tsize, packSizeNumber(deltaOf(start, t.addr)));
      osize = Math.max(osize, packSize(t.out));
      anyOuts ||= t.out !== 0n;
    }
    if (!anyOuts) osize = 0;
    if (anyOuts) {
      if (node.isFinal) this.uint(node.finalOutput, osize);
      for (let i = trans.length - 1; i >= 0; i--) this.uint(trans[i]!.out, osize);
    }
    for (let i = trans.length - 1; i >= 0; i--) this.uintNumber(deltaOf(start, trans[i]!.addr), tsize);
    for (let i = trans.length - 1; i >= 0; i--) this.byte(trans[i]!.inp);
    if (this.version >= 2 && trans.length > INDEX_THRESHOLD) {
      const index = new Uint8Array(256).fill(255);
      trans.forEach((t, i) => (index[t.inp] = i));
      for (const b of index) this.byte(b);
    }
    this.byte((tsize << 4) | osize);
    const n = trans.length;
    const inState = n >= 1 && n <= 0x3f;
    if (!inState) this.byte(n === 256 ? 1 : n);
    this.byte((node.isFinal ? 0b0100_0000 : 0) | (inState ? n : 0));
  }

  private byte(b: number): void {
    if (this.n === this.buf.length) {
      const bigger = new Uint8Array(this.buf.length * 2);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    this.buf[this.n++] = b;
  }

  private uint(v: bigint, width: number): void {
    if (v <= 0xffffffffn) return this.uintNumber(Number(v), width);
    for (let i = 0; i < width; i++) this.byte(Number((v >> BigInt(8 * i)) & 0xffn));
  }

  /** `uint` for values below 2^32 (deltas, most outputs) without BigInt arithmetic. */
  private uintNumber(v: number, width: number): void {
    for (let i = 0; i < width; i++) this.byte(i < 4 ? (v >>> (8 * i)) & 0xff : 0);
  }

  /** A header or footer, laid out by its declaration in header.ts. */
  private fixed<D extends Record<string, FieldSpec>>(l: FixedLayout<D>, values: LayoutValues<D>): void {
    const bytes = new Uint8Array(l.size);
    l.write(values, bytes);
    for (const b of bytes) this.byte(b);
  }
}

function freeze(u: Unfinished, addr: number): void {
  if (u.last === undefined) return;
  u.node.trans.push({ inp: u.last.inp, out: u.last.out, addr });
  u.last = undefined;
}

function addOutputPrefix(u: Unfinished, prefix: bigint): void {
  if (u.node.isFinal) u.node.finalOutput = prefix + u.node.finalOutput;
  for (const t of u.node.trans) t.out = prefix + t.out;
  if (u.last !== undefined) u.last.out = prefix + u.last.out;
}

function deltaOf(nodeStart: number, target: number): number {
  return target === EMPTY_ADDRESS ? EMPTY_ADDRESS : nodeStart - target;
}

/** Bytes needed for v: 1 for 0..255 (and for 0), up to 8. */
function packSize(v: bigint): number {
  if (v <= 0xffffffffn) return packSizeNumber(Number(v));
  let n = 5;
  while (n < 8 && v >= 1n << BigInt(8 * n)) n++;
  return n;
}

function packSizeNumber(v: number): number {
  return v < 0x100 ? 1 : v < 0x10000 ? 2 : v < 0x1000000 ? 3 : v < 0x100000000 ? 4 : v < 2 ** 40 ? 5 : v < 2 ** 48 ? 6 : 7;
}

interface Cell {
  addr: number;
  node: BuilderNode | undefined;
}

/** The reference builder's node cache: rows of two cells, most recently used first. */
class Registry {
  private readonly cells: Cell[] = Array.from({ length: REGISTRY_ROWS * REGISTRY_COLUMNS }, () => ({ addr: NONE_ADDRESS, node: undefined }));

  /** The cell holding an identical node (addr set), or a cleared cell to record it in (addr NONE). */
  entry(node: BuilderNode): Cell {
    const start = hash(node) * REGISTRY_COLUMNS;
    const c0 = this.cells[start]!;
    const c1 = this.cells[start + 1]!;
    if (c0.node !== undefined && c0.addr !== NONE_ADDRESS && sameNode(c0.node, node)) return { addr: c0.addr, node: undefined };
    if (c1.node !== undefined && c1.addr !== NONE_ADDRESS && sameNode(c1.node, node)) {
      this.cells[start] = c1;
      this.cells[start + 1] = c0;
      return { addr: c1.addr, node: undefined };
    }
    // Replace the least recently used cell and make it the most recent.
    c1.node = cloneNode(node);
    c1.addr = NONE_ADDRESS;
    this.cells[start] = c1;
    this.cells[start + 1] = c0;
    return c1;
  }
}

function sameNode(a: BuilderNode, b: BuilderNode): boolean {
  if (a.isFinal !== b.isFinal || a.finalOutput !== b.finalOutput || a.trans.length !== b.trans.length) return false;
  for (let i = 0; i < a.trans.length; i++) {
    const x = a.trans[i]!;
    const y = b.trans[i]!;
    if (x.inp !== y.inp || x.out !== y.out || x.addr !== y.addr) return false;
  }
  return true;
}

function cloneNode(n: BuilderNode): BuilderNode {
  return { isFinal: n.isFinal, finalOutput: n.finalOutput, trans: n.trans.map((t) => ({ inp: t.inp, out: t.out, addr: t.addr })) };
}

// FNV-1a over u64 words, computed on 32-bit halves so it needs no BigInt.
const TWO32 = 4294967296;
let hHi = 0;
let hLo = 0;

function mix(xHi: number, xLo: number): void {
  const a = (hHi ^ xHi) >>> 0;
  const b = (hLo ^ xLo) >>> 0;
  // (a·2^32 + b) · 0x100_0000_01b3 mod 2^64; every partial product stays below 2^53.
  const low = b * 0x1b3;
  hLo = low >>> 0;
  hHi = (a * 0x1b3 + b * 0x100 + Math.floor(low / TWO32)) >>> 0;
}

function mixBig(v: bigint): void {
  if (v <= 0xffffffffn) mix(0, Number(v));
  else mix(Number(v >> 32n), Number(v & 0xffffffffn));
}

function hash(node: BuilderNode): number {
  hHi = 0xcbf29ce4;
  hLo = 0x84222325;
  mix(0, node.isFinal ? 1 : 0);
  mixBig(node.finalOutput);
  for (const t of node.trans) {
    mix(0, t.inp);
    mixBig(t.out);
    mix(Math.floor(t.addr / TWO32), t.addr >>> 0);
  }
  // (hHi·2^32 + hLo) mod 10 000, exactly.
  return ((hHi % REGISTRY_ROWS) * (TWO32 % REGISTRY_ROWS) + hLo) % REGISTRY_ROWS;
}
