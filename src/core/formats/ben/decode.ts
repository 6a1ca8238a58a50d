import { FormatError, throwIfAborted } from '../../errors.js';
import { yieldToEventLoop } from '../../io/scan.js';
import { BitReader, readValueRuns } from './bits.js';
import type { ByteCursor } from './cursor.js';
import { BANNER_BYTES, COUNT_BYTES, DELTA_HEADER_BYTES, FRAME_HEADER_BYTES, type FrameKind, type Variant } from './model.js';
import { MAX_NODES, type Plan, RunBuffer, expand } from './plan.js';
import { checkBits, checkCount, parseBanner } from './frames.js';

/** One decoded frame: the plan it yields `count` times. `plan` is reused by the next frame. */
export interface DecodedFrame {
  readonly index: number;
  /** Where the frame starts: in the file for .ben, in the decompressed body for .xben. */
  readonly offset: number;
  readonly length: number;
  readonly kind: FrameKind;
  readonly count: number;
  /** 1-based number of the frame's first sample. */
  readonly firstSample: number;
  readonly plan: Plan;
  readonly pair?: readonly [number, number];
}

/** Where decoding starts: frame and sample numbers of the first frame (0 and 1 for a whole stream). */
export interface DecodeStart {
  readonly index: number;
  readonly firstSample: number;
}

export interface DecodeOptions {
  readonly signal?: AbortSignal;
  /** Frames decoded between yields to the event loop (a responsive worker, cancellable). */
  readonly yieldEvery?: number;
}

/** Reads and checks the 17-byte banner at the cursor. */
export async function readBanner(c: ByteCursor): Promise<Variant> {
  const at = c.offset;
  await c.require(BANNER_BYTES, 'banner');
  const v = parseBanner(c.bytes.subarray(c.pos, c.pos + BANNER_BYTES), at);
  c.pos += BANNER_BYTES;
  return v;
}

/** The TwoDelta state: the current assignment, expanded, that deltas rewrite in place. */
class Anchor {
  nodes: Uint16Array = new Uint16Array(0);
  n = 0;
  set(p: Plan): void {
    this.nodes = expand(p, this.nodes);
    this.n = p.nodes;
  }
}

/**
 * Applies a delta (spec §4): every node holding A or B gets the active id of the current run;
 * runs alternate A, B, A… and must cover the pair positions exactly.
 */
function applyDelta(state: Anchor, a: number, b: number, lengths: Uint16Array, runs: number, at: number, field: string): void {
  const s = state.nodes;
  let r = 0;
  let left = runs > 0 ? lengths[0]! : 0;
  let active = a;
  for (let i = 0; i < state.n; i++) {
    const v = s[i]!;
    if (v !== a && v !== b) continue;
    if (r >= runs) throw new FormatError('corrupt', `runs exhausted at node ${i} before every node of pair ${a}/${b} was covered`, { offset: at, field });
    s[i] = active;
    if (--left === 0) {
      r++;
      active = active === a ? b : a;
      left = r < runs ? lengths[r]! : 0;
    }
  }
  if (r < runs) throw new FormatError('corrupt', `${runs - r} runs left over after the last node of pair ${a}/${b}`, { offset: at, field });
}

/**
 * What a decoder carries from frame to frame: the plan, the TwoDelta anchor, a buffer of delta run
 * lengths, and the numbers of the next frame.
 */
class FrameState {
  readonly runs = new RunBuffer();
  private readonly anchor = new Anchor();
  private lengths = new Uint16Array(1024);
  anchored = false;

  constructor(
    public index: number,
    public sample: number,
  ) {}

  /** Room for `n` delta run lengths (callers cap `n` at MAX_NODES). */
  lengthsFor(n: number): Uint16Array {
    if (n > this.lengths.length) this.lengths = new Uint16Array(n);
    return this.lengths;
  }

  /** The plan just read in full becomes the anchor that the next deltas rewrite. */
  setAnchor(): void {
    this.anchor.set(this.runs);
    this.anchored = true;
  }

  /** Rewrites the anchor by the first `runs` lengths, and the plan from it. */
  applyDelta(a: number, b: number, runs: number, at: number, field: string): void {
    applyDelta(this.anchor, a, b, this.lengths, runs, at, field);
    this.runs.fromAssignment(this.anchor.nodes, this.anchor.n);
  }

  /** The frame just read, numbered; the numbers move on past its samples. */
  frame(offset: number, length: number, kind: FrameKind, count: number, pair?: readonly [number, number]): DecodedFrame {
    const frame = { index: this.index, offset, length, kind, count, firstSample: this.sample, plan: this.runs, pair };
    this.index++;
    this.sample += count;
    return frame;
  }
}

/**
 * Whether another frame follows; every `yieldEvery` frames it first yields to the event loop and
 * honours the abort signal, so a long decode keeps a worker responsive and cancellable.
 */
async function moreFrames(c: ByteCursor, index: number, opts: DecodeOptions): Promise<boolean> {
  const yieldEvery = opts.yieldEvery ?? 256;
  if (index % yieldEvery === yieldEvery - 1) {
    throwIfAborted(opts.signal);
    await yieldToEventLoop();
  }
  return !(await c.atEnd());
}

/** A u16 count at the cursor, checked. */
function readCount(c: ByteCursor, field: string): number {
  const at = c.offset;
  const count = c.u16();
  checkCount(count, at, field);
  return count;
}

/** A TwoDelta frame's kind from its tag byte. */
function twoDeltaKind(tag: number, offset: number, f: string): FrameKind {
  if (tag === 1) return 'delta';
  if (tag === 0) return 'snapshot';
  throw new FormatError('corrupt', `unknown TwoDelta frame tag ${tag} (0 snapshot, 1 delta)`, { offset, field: `${f} tag` });
}

/**
 * Decodes BEN frames from the cursor (positioned after the banner, or at any frame boundary a
 * frame index gave) to the end of the data. A TwoDelta stream must start at a snapshot: callers
 * that seek start at the latest snapshot before the sample they want. EOF exactly between frames
 * is the clean end; anything else is a located FormatError after the good frames were yielded.
 */
export async function* benFrames(
  c: ByteCursor,
  variant: Variant,
  start: DecodeStart = { index: 0, firstSample: 1 },
  opts: DecodeOptions = {},
): AsyncGenerator<DecodedFrame> {
  const s = new FrameState(start.index, start.firstSample);
  while (await moreFrames(c, s.index, opts)) {
    const offset = c.offset;
    const f = `frame ${s.index}`;
    const kind = variant === 'two_delta' ? twoDeltaKind(c.u8(), offset, f) : 'frame';
    if (kind === 'delta') {
      if (!s.anchored) throw new FormatError('corrupt', 'a delta before any snapshot', { offset, field: `${f} tag` });
      await c.require(DELTA_HEADER_BYTES, `${f} delta header`, offset);
      const pair: [number, number] = [c.u16(), c.u16()];
      const lbits = c.u8();
      checkBits(lbits, c.offset - 1, `${f} lbits`);
      const nBytes = c.u32();
      await c.require(nBytes + COUNT_BYTES, `${f} payload`, offset);
      const count = readBenDelta(c, s, pair, lbits, nBytes, offset, f);
      yield s.frame(offset, c.offset - offset, kind, count, pair);
    } else {
      await c.require(FRAME_HEADER_BYTES, `${f} header`, offset);
      const vbits = c.u8();
      checkBits(vbits, c.offset - 1, `${f} vbits`);
      const lbits = c.u8();
      checkBits(lbits, c.offset - 1, `${f} lbits`);
      const nBytes = c.u32();
      const hasCount = variant !== 'standard';
      await c.require(nBytes + (hasCount ? COUNT_BYTES : 0), `${f} payload`, offset);
      readValueRuns(c.bytes, c.pos, nBytes, vbits, lbits, s.runs, c.offset, `${f} payload`);
      c.pos += nBytes;
      const count = hasCount ? readCount(c, `${f} count`) : 1;
      if (variant === 'two_delta') s.setAnchor();
      yield s.frame(offset, c.offset - offset, kind, count);
    }
  }
}

/**
 * A BEN delta's payload (spec §4), all in the buffer: its bit-packed run lengths (zero only as
 * padding at the end), then the count; applies it to the anchor and returns the count.
 */
function readBenDelta(c: ByteCursor, s: FrameState, pair: readonly [number, number], lbits: number, nBytes: number, offset: number, f: string): number {
  const payloadAt = c.offset;
  const slots = Math.floor((nBytes * 8) / lbits);
  if (slots > MAX_NODES) throw new FormatError('limit', `${slots} delta runs`, { offset, field: `${f} n_bytes` });
  const lengths = s.lengthsFor(slots);
  const r = new BitReader(c.bytes, c.pos, c.pos + nBytes);
  let real = 0;
  for (let i = 0; i < slots; i++) {
    const len = r.read(lbits);
    if (len === 0) continue;
    if (real !== i) throw new FormatError('corrupt', `delta run ${i} follows a zero-length run`, { offset: payloadAt, field: `${f} payload` });
    lengths[real++] = len;
  }
  if (Math.ceil((real * lbits) / 8) !== nBytes) {
    throw new FormatError('corrupt', `payload of ${nBytes} bytes holds ${real} runs that need ${Math.ceil((real * lbits) / 8)}`, {
      offset: payloadAt,
      field: `${f} payload`,
    });
  }
  c.pos += nBytes;
  const count = readCount(c, `${f} count`);
  s.applyDelta(pair[0], pair[1], real, payloadAt, `${f} payload`);
  return count;
}

/** Cap on one XBEN chunk's delta count before allocating its columns (the writer uses 10000). */
const MAX_CHUNK_DELTAS = 1 << 22;

/**
 * Decodes the body of an .xben (spec §5), banner already read (or at a BEN32 frame `start` whose
 * numbers the skip over the frames before it gave): BEN32 frames for Standard and MkvChain, full
 * frames and delta chunks for TwoDelta. Offsets are in the decompressed body.
 */
export async function* xbenFrames(
  c: ByteCursor,
  variant: Variant,
  opts: DecodeOptions = {},
  start: DecodeStart = { index: 0, firstSample: 1 },
): AsyncGenerator<DecodedFrame> {
  const s = new FrameState(start.index, start.firstSample);
  const hasCount = variant !== 'standard';
  while (await moreFrames(c, s.index, opts)) {
    const offset = c.offset;
    const f = `frame ${s.index}`;
    if (variant !== 'two_delta') {
      await readBen32Runs(c, s.runs, offset, f);
      let count = 1;
      if (hasCount) {
        await c.require(COUNT_BYTES, `${f} count`, offset);
        count = readCount(c, `${f} count`);
      }
      yield s.frame(offset, c.offset - offset, 'frame', count);
      continue;
    }
    const tag = c.u8();
    if (tag === 0) {
      await readXbenFullFrame(c, s.runs, offset, f);
      const count = readCount(c, `${f} count`);
      s.setAnchor();
      yield s.frame(offset, c.offset - offset, 'snapshot', count);
    } else if (tag === 2) {
      if (!s.anchored) throw new FormatError('corrupt', 'a delta chunk before any full frame', { offset, field: `${f} tag` });
      const chunk = await readChunkColumns(c, offset, f);
      for (let d = 0; d < chunk.n; d++) {
        const dAt = c.offset;
        const fd = `frame ${s.index}`;
        const a = chunk.a(d);
        const b = chunk.b(d);
        const count = chunk.count(d);
        checkCount(count, offset, `${fd} count (chunk column)`);
        const rc = chunk.runCount(d);
        if (rc > MAX_NODES) throw new FormatError('limit', `${rc} runs`, { offset, field: `${fd} run count` });
        await c.require(rc * 2, `${fd} run lengths`, dAt);
        readChunkDelta(c, s, a, b, rc, dAt, fd);
        yield s.frame(dAt, c.offset - dAt, 'delta', count, [a, b]);
      }
    } else {
      throw new FormatError('corrupt', `unknown XBEN frame tag ${tag} (0 full frame, 2 delta chunk)`, { offset, field: `${f} tag` });
    }
  }
}

/** A BEN32 plan: (value, length) u16 pairs up to the 00000000 that ends it. */
async function readBen32Runs(c: ByteCursor, runs: RunBuffer, offset: number, f: string): Promise<void> {
  runs.clear();
  for (;;) {
    // An await and a field name per run cost XBEN cat 4 s of 8 in garbage for 11 M runs: only at a piece's end.
    if (c.available < 4) await c.require(4, `${f} run`, offset);
    const value = c.u16();
    const length = c.u16();
    if (length === 0) {
      if (value !== 0)
        throw new FormatError('corrupt', `run of length 0 with value ${value} (only 00000000 ends a frame)`, { offset: c.offset - 4, field: `${f} run` });
      return;
    }
    runs.push(value, length);
    if (runs.nodes > MAX_NODES) throw new FormatError('limit', `a plan of more than ${MAX_NODES} nodes`, { offset, field: f });
  }
}

/** An XBEN TwoDelta full frame after its tag: a run count, the runs, and (left at the cursor, in the buffer) its count. */
async function readXbenFullFrame(c: ByteCursor, runs: RunBuffer, offset: number, f: string): Promise<void> {
  await c.require(4, `${f} run count`, offset);
  const n = c.u32();
  if (n > MAX_NODES) throw new FormatError('limit', `${n} runs`, { offset: offset + 1, field: `${f} run count` });
  await c.require(n * 4 + COUNT_BYTES, `${f} runs`, offset);
  runs.clear();
  for (let i = 0; i < n; i++) {
    const value = c.u16();
    const length = c.u16();
    if (length === 0) throw new FormatError('corrupt', `run ${i} has length 0`, { offset: c.offset - 4, field: `${f} runs` });
    runs.push(value, length);
  }
  if (runs.nodes > MAX_NODES) throw new FormatError('limit', `a plan of more than ${MAX_NODES} nodes`, { offset, field: f });
}

const be16 = (b: Uint8Array, i: number) => (b[2 * i]! << 8) | b[2 * i + 1]!;
const be32 = (b: Uint8Array, i: number) => (b[4 * i]! * 0x1000000 + ((b[4 * i + 1]! << 16) | (b[4 * i + 2]! << 8) | b[4 * i + 3]!)) >>> 0;

/** The column part of an XBEN delta chunk (spec §5): pairs, counts and run counts of its `n` deltas. */
async function readChunkColumns(c: ByteCursor, offset: number, f: string) {
  await c.require(4, `${f} chunk size`, offset);
  const n = c.u32();
  if (n > MAX_CHUNK_DELTAS) throw new FormatError('limit', `${n} deltas in one chunk`, { offset: offset + 1, field: `${f} chunk size` });
  await c.require(n * 12, `${f} chunk columns`, offset);
  const column = (bytes: number) => {
    const col = c.bytes.slice(c.pos, c.pos + bytes);
    c.pos += bytes;
    return col;
  };
  const pairs = column(n * 4);
  const counts = column(n * 2);
  const runCounts = column(n * 4);
  return {
    n,
    a: (d: number) => be16(pairs, 2 * d),
    b: (d: number) => be16(pairs, 2 * d + 1),
    count: (d: number) => be16(counts, d),
    runCount: (d: number) => be32(runCounts, d),
  };
}

/** One delta of a chunk: its `rc` u16 run lengths, all in the buffer, applied to the anchor. */
function readChunkDelta(c: ByteCursor, s: FrameState, a: number, b: number, rc: number, dAt: number, fd: string): void {
  const lengths = s.lengthsFor(rc);
  for (let i = 0; i < rc; i++) {
    const len = c.u16();
    if (len === 0) throw new FormatError('corrupt', `delta run ${i} has length 0`, { offset: c.offset - 2, field: `${fd} run lengths` });
    lengths[i] = len;
  }
  s.applyDelta(a, b, rc, dAt, `${fd} run lengths`);
}
