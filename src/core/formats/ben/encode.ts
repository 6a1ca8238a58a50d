import { FormatError } from '../../errors.js';
import { BufferedSink } from '../../io/bufferedSink.js';
import type { ByteSink } from '../../model.js';
import { BitWriter, writeValueRuns } from './bits.js';
import { BANNER_BYTES, type Variant } from './model.js';
import { MAX_RUN, type Plan, RunBuffer, bitWidth, expand, samePlan } from './plan.js';

/**
 * Writing streams, in two steps: a Framer decides what frames a sequence of samples becomes
 * (spec §3 repeat folding, §4 TwoDelta classification), a Packer lays those frames out as BEN
 * bytes, an XBEN BEN32 body or an XBEN TwoDelta columnar body. The same framing serves all.
 */
export type OutFrame =
  | { readonly kind: 'full'; readonly plan: Plan; readonly count: number }
  | { readonly kind: 'delta'; readonly a: number; readonly b: number; readonly lengths: Uint16Array; readonly count: number };

export interface Packer {
  begin(variant: Variant): Promise<void>;
  frame(f: OutFrame): Promise<void>;
  end(): Promise<void>;
}

const MAX_COUNT = 0xffff;
const BANNER_TEXT: Record<Variant, string> = { standard: 'STANDARD BEN FILE', mkv_chain: 'MKVCHAIN BEN FILE', two_delta: 'TWODELTA BEN FILE' };

export function banner(variant: Variant): Uint8Array {
  const b = new TextEncoder().encode(BANNER_TEXT[variant]);
  if (b.length !== BANNER_BYTES) throw new Error('banner length');
  return b;
}

/**
 * Samples in, frames out. Standard writes one frame per sample; MkvChain folds identical
 * consecutive samples into a count (at most 65535); TwoDelta writes a delta when the change
 * swaps two ids that both occur already and every pair run fits 16 bits, a snapshot otherwise.
 */
export class Framer {
  private pending: { frame: OutFrame; count: number } | undefined;
  private last = new RunBuffer();
  private prev: Uint16Array = new Uint16Array(0);
  private prevN = -1;
  private cur: Uint16Array = new Uint16Array(0);
  samples = 0;
  frames = 0;

  constructor(
    readonly variant: Variant,
    private readonly packer: Packer,
  ) {}

  begin(): Promise<void> {
    return this.packer.begin(this.variant);
  }

  /** Adds `count` samples of `plan`. */
  async add(plan: Plan, count = 1): Promise<void> {
    if (count < 1) return;
    this.samples += count;
    if (this.variant === 'standard') {
      for (let k = 0; k < count; k++) await this.emit({ kind: 'full', plan, count: 1 });
      return;
    }
    if (this.pending && this.prevN >= 0 && samePlan(this.last, plan)) return this.repeat(count);
    await this.flushPending();
    if (this.variant === 'mkv_chain') {
      this.last.copyFrom(plan);
      this.pending = { frame: { kind: 'full', plan: this.last, count: 0 }, count: 0 };
      this.prevN = plan.nodes;
      return this.repeat(count);
    }
    this.cur = expand(plan, this.cur);
    const delta = this.prevN === plan.nodes ? this.classify(this.prev, this.cur, plan.nodes) : undefined;
    this.last.copyFrom(plan);
    this.pending = { frame: delta ?? { kind: 'full', plan: this.last, count: 0 }, count: 0 };
    [this.prev, this.cur] = [this.cur, this.prev];
    this.prevN = plan.nodes;
    return this.repeat(count);
  }

  private async repeat(count: number): Promise<void> {
    let left = count;
    while (left > 0) {
      const p = this.pending!;
      const take = Math.min(left, MAX_COUNT - p.count);
      p.count += take;
      left -= take;
      if (left > 0) {
        await this.flushPending();
        // The 65536th repeat: MkvChain writes the frame again; TwoDelta a delta that changes nothing.
        this.pending = { frame: this.variant === 'two_delta' ? this.noOpDelta() : { kind: 'full', plan: this.last, count: 0 }, count: 0 };
      }
    }
  }

  /** Pair (value at node 0, first other value), runs over the nodes holding either: applying it changes nothing. */
  private noOpDelta(): OutFrame {
    const a = this.prev;
    const n = this.prevN;
    const v0 = a[0]!;
    let other = -1;
    for (let i = 1; i < n && other < 0; i++) if (a[i] !== v0) other = a[i]!;
    if (other < 0) other = v0 === 0xffff ? 0 : v0 + 1;
    return { kind: 'delta', a: v0, b: other, lengths: pairRuns(a, n, v0, other)!, count: 0 };
  }

  private classify(prev: Uint16Array, cur: Uint16Array, n: number): OutFrame | undefined {
    let x = -1;
    let y = -1;
    for (let i = 0; i < n; i++) {
      const p = prev[i]!;
      const c = cur[i]!;
      if (p === c) continue;
      if (x < 0) ((x = p), (y = c));
      else if (!((p === x && c === y) || (p === y && c === x))) return undefined;
    }
    if (x < 0) return undefined;
    let yOccurs = false;
    for (let i = 0; i < n && !yOccurs; i++) yOccurs = prev[i] === y;
    if (!yOccurs) return undefined;
    let first = 0;
    while (cur[first] !== x && cur[first] !== y) first++;
    const a = cur[first]!;
    const b = a === x ? y : x;
    const lengths = pairRuns(cur, n, a, b);
    return lengths ? { kind: 'delta', a, b, lengths, count: 0 } : undefined;
  }

  private async flushPending(): Promise<void> {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    await this.emit({ ...p.frame, count: p.count } as OutFrame);
  }

  private emit(f: OutFrame): Promise<void> {
    this.frames++;
    return this.packer.frame(f);
  }

  async end(): Promise<void> {
    await this.flushPending();
    await this.packer.end();
  }
}

/** Run lengths of the pair-projected assignment (nodes holding a or b), or undefined when one exceeds 16 bits. */
function pairRuns(cur: Uint16Array, n: number, a: number, b: number): Uint16Array | undefined {
  const out: number[] = [];
  let active = -1;
  let len = 0;
  for (let i = 0; i < n; i++) {
    const v = cur[i]!;
    if (v !== a && v !== b) continue;
    if (v === active) len++;
    else {
      if (active >= 0) out.push(len);
      active = v;
      len = 1;
    }
    if (len > MAX_RUN) return undefined;
  }
  if (active >= 0) out.push(len);
  return Uint16Array.from(out);
}

function maxOf(a: Uint16Array, n: number): number {
  let m = 0;
  for (let i = 0; i < n; i++) if (a[i]! > m) m = a[i]!;
  return m;
}

/** BEN bytes (spec §3, §4): bit-packed runs, big-endian headers. */
export class BenPacker implements Packer {
  private readonly out: BufferedSink;
  private variant: Variant = 'standard';

  constructor(sink: ByteSink) {
    this.out = new BufferedSink(sink);
  }

  get written(): number {
    return this.out.written;
  }

  async begin(variant: Variant): Promise<void> {
    this.variant = variant;
    await this.out.write(banner(variant));
  }

  async frame(f: OutFrame): Promise<void> {
    const counted = this.variant !== 'standard';
    if (f.kind === 'full') {
      const p = f.plan;
      const vbits = bitWidth(maxOf(p.values, p.runs));
      const lbits = bitWidth(maxOf(p.lengths, p.runs));
      const nBytes = Math.ceil(((vbits + lbits) * p.runs) / 8);
      const tag = this.variant === 'two_delta' ? 1 : 0;
      const { buf, at } = await this.out.reserve(tag + 6 + nBytes + 2);
      let pos = at;
      if (tag) buf[pos++] = 0;
      buf[pos] = vbits;
      buf[pos + 1] = lbits;
      setU32(buf, pos + 2, nBytes);
      pos = writeValueRuns(p, vbits, lbits, buf, pos + 6);
      if (counted) pos = setU16(buf, pos, f.count);
      this.out.commit(pos - at);
      return;
    }
    if (this.variant !== 'two_delta') throw new FormatError('unsupported', 'a delta frame outside a TwoDelta stream');
    const lbits = bitWidth(maxOf(f.lengths, f.lengths.length));
    const nBytes = Math.ceil((lbits * f.lengths.length) / 8);
    const { buf, at } = await this.out.reserve(10 + nBytes + 2);
    buf[at] = 1;
    setU16(buf, at + 1, f.a);
    setU16(buf, at + 3, f.b);
    buf[at + 5] = lbits;
    setU32(buf, at + 6, nBytes);
    const pos = setU16(buf, writeLengths(f.lengths, lbits, buf, at + 10), f.count);
    this.out.commit(pos - at);
  }

  end(): Promise<void> {
    return this.out.flush();
  }
}

function writeLengths(lengths: Uint16Array, lbits: number, buf: Uint8Array, pos: number): number {
  const w = new BitWriter(buf, pos);
  for (let i = 0; i < lengths.length; i++) w.write(lengths[i]!, lbits);
  return w.flush();
}

function setU16(buf: Uint8Array, at: number, v: number): number {
  buf[at] = v >>> 8;
  buf[at + 1] = v & 0xff;
  return at + 2;
}

function setU32(buf: Uint8Array, at: number, v: number): number {
  buf[at] = v >>> 24;
  buf[at + 1] = (v >>> 16) & 0xff;
  buf[at + 2] = (v >>> 8) & 0xff;
  buf[at + 3] = v & 0xff;
  return at + 4;
}

/** XBEN's TwoDelta chunks hold this many deltas (the reference default). */
export const CHUNK_DELTAS = 10000;

/**
 * The decompressed XBEN body (spec §5): BEN32 frames (u16 value, u16 length runs ended by a
 * zero word, MkvChain count after) or, for TwoDelta, full frames and columnar delta chunks.
 */
export class XbenBodyPacker implements Packer {
  private readonly out: BufferedSink;
  private variant: Variant = 'standard';
  private deltas: Extract<OutFrame, { kind: 'delta' }>[] = [];

  constructor(
    sink: ByteSink,
    private readonly chunkDeltas = CHUNK_DELTAS,
  ) {
    this.out = new BufferedSink(sink);
  }

  async begin(variant: Variant): Promise<void> {
    this.variant = variant;
    await this.out.write(banner(variant));
  }

  async frame(f: OutFrame): Promise<void> {
    if (f.kind === 'delta') {
      this.deltas.push(f);
      if (this.deltas.length >= this.chunkDeltas) await this.flushChunk();
      return;
    }
    await this.flushChunk();
    const p = f.plan;
    const twoDelta = this.variant === 'two_delta';
    const { buf, at } = await this.out.reserve(p.runs * 4 + 11);
    let pos = at;
    if (twoDelta) {
      buf[pos++] = 0;
      pos = setU32(buf, pos, p.runs);
    }
    for (let i = 0; i < p.runs; i++) {
      pos = setU16(buf, pos, p.values[i]!);
      pos = setU16(buf, pos, p.lengths[i]!);
    }
    if (!twoDelta) pos = setU32(buf, pos, 0);
    if (this.variant !== 'standard') pos = setU16(buf, pos, f.count);
    this.out.commit(pos - at);
  }

  private async flushChunk(): Promise<void> {
    const d = this.deltas;
    if (d.length === 0) return;
    this.deltas = [];
    const runs = d.reduce((n, x) => n + x.lengths.length, 0);
    const { buf, at } = await this.out.reserve(5 + d.length * 10 + runs * 2);
    let pos = at;
    buf[pos++] = 2;
    pos = setU32(buf, pos, d.length);
    for (const x of d) ((pos = setU16(buf, pos, x.a)), (pos = setU16(buf, pos, x.b)));
    for (const x of d) pos = setU16(buf, pos, x.count);
    for (const x of d) pos = setU32(buf, pos, x.lengths.length);
    for (const x of d) for (let i = 0; i < x.lengths.length; i++) pos = setU16(buf, pos, x.lengths[i]!);
    this.out.commit(pos - at);
  }

  async end(): Promise<void> {
    await this.flushChunk();
    await this.out.flush();
  }
}
