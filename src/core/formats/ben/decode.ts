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
  const runs = new RunBuffer();
  const state = new Anchor();
  let lengths = new Uint16Array(1024);
  let anchored = false;
  let index = start.index;
  let sample = start.firstSample;
  const yieldEvery = opts.yieldEvery ?? 256;
  for (;;) {
    if (index % yieldEvery === yieldEvery - 1) {
      throwIfAborted(opts.signal);
      await yieldToEventLoop();
    }
    if (await c.atEnd()) return;
    const offset = c.offset;
    const f = `frame ${index}`;
    let kind: FrameKind = 'frame';
    if (variant === 'two_delta') {
      const tag = c.u8();
      if (tag === 1) kind = 'delta';
      else if (tag === 0) kind = 'snapshot';
      else throw new FormatError('corrupt', `unknown TwoDelta frame tag ${tag} (0 snapshot, 1 delta)`, { offset, field: `${f} tag` });
    }
    let pair: [number, number] | undefined;
    let count = 1;
    if (kind === 'delta') {
      if (!anchored) throw new FormatError('corrupt', 'a delta before any snapshot', { offset, field: `${f} tag` });
      await c.require(DELTA_HEADER_BYTES, `${f} delta header`, offset);
      pair = [c.u16(), c.u16()];
      const lbits = c.u8();
      checkBits(lbits, c.offset - 1, `${f} lbits`);
      const nBytes = c.u32();
      const payloadAt = c.offset;
      await c.require(nBytes + COUNT_BYTES, `${f} payload`, offset);
      const slots = Math.floor((nBytes * 8) / lbits);
      if (slots > lengths.length) {
        if (slots > MAX_NODES) throw new FormatError('limit', `${slots} delta runs`, { offset, field: `${f} n_bytes` });
        lengths = new Uint16Array(slots);
      }
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
      const countAt = c.offset;
      count = c.u16();
      checkCount(count, countAt, `${f} count`);
      applyDelta(state, pair[0], pair[1], lengths, real, payloadAt, `${f} payload`);
      runs.fromAssignment(state.nodes, state.n);
    } else {
      await c.require(FRAME_HEADER_BYTES, `${f} header`, offset);
      const vbits = c.u8();
      checkBits(vbits, c.offset - 1, `${f} vbits`);
      const lbits = c.u8();
      checkBits(lbits, c.offset - 1, `${f} lbits`);
      const nBytes = c.u32();
      const payloadAt = c.offset;
      const hasCount = variant !== 'standard';
      await c.require(nBytes + (hasCount ? COUNT_BYTES : 0), `${f} payload`, offset);
      readValueRuns(c.bytes, c.pos, nBytes, vbits, lbits, runs, payloadAt, `${f} payload`);
      c.pos += nBytes;
      if (hasCount) {
        const countAt = c.offset;
        count = c.u16();
        checkCount(count, countAt, `${f} count`);
      }
      if (variant === 'two_delta') {
        state.set(runs);
        anchored = true;
      }
    }
    yield { index, offset, length: c.offset - offset, kind, count, firstSample: sample, plan: runs, pair };
    index++;
    sample += count;
  }
}

/** Cap on one XBEN chunk's delta count before allocating its columns (the writer uses 10000). */
const MAX_CHUNK_DELTAS = 1 << 22;

/**
 * Decodes the body of an .xben (spec §5), banner already read: BEN32 frames for Standard and
 * MkvChain, full frames and delta chunks for TwoDelta. Offsets are in the decompressed body.
 */
export async function* xbenFrames(c: ByteCursor, variant: Variant, opts: DecodeOptions = {}): AsyncGenerator<DecodedFrame> {
  const runs = new RunBuffer();
  const state = new Anchor();
  let lengths = new Uint16Array(1024);
  let anchored = false;
  let index = 0;
  let sample = 1;
  const yieldEvery = opts.yieldEvery ?? 256;
  const hasCount = variant !== 'standard';
  for (;;) {
    if (index % yieldEvery === yieldEvery - 1) {
      throwIfAborted(opts.signal);
      await yieldToEventLoop();
    }
    if (await c.atEnd()) return;
    const offset = c.offset;
    const f = `frame ${index}`;
    if (variant !== 'two_delta') {
      runs.clear();
      for (;;) {
        await c.require(4, `${f} run`, offset);
        const value = c.u16();
        const length = c.u16();
        if (length === 0) {
          if (value !== 0)
            throw new FormatError('corrupt', `run of length 0 with value ${value} (only 00000000 ends a frame)`, { offset: c.offset - 4, field: `${f} run` });
          break;
        }
        runs.push(value, length);
        if (runs.nodes > MAX_NODES) throw new FormatError('limit', `a plan of more than ${MAX_NODES} nodes`, { offset, field: f });
      }
      let count = 1;
      if (hasCount) {
        await c.require(COUNT_BYTES, `${f} count`, offset);
        count = c.u16();
        checkCount(count, c.offset - 2, `${f} count`);
      }
      yield { index, offset, length: c.offset - offset, kind: 'frame', count, firstSample: sample, plan: runs };
      index++;
      sample += count;
      continue;
    }
    const tag = c.u8();
    if (tag === 0) {
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
      const count = c.u16();
      checkCount(count, c.offset - 2, `${f} count`);
      state.set(runs);
      anchored = true;
      yield { index, offset, length: c.offset - offset, kind: 'snapshot', count, firstSample: sample, plan: runs };
      index++;
      sample += count;
    } else if (tag === 2) {
      if (!anchored) throw new FormatError('corrupt', 'a delta chunk before any full frame', { offset, field: `${f} tag` });
      await c.require(4, `${f} chunk size`, offset);
      const n = c.u32();
      if (n > MAX_CHUNK_DELTAS) throw new FormatError('limit', `${n} deltas in one chunk`, { offset: offset + 1, field: `${f} chunk size` });
      await c.require(n * 12, `${f} chunk columns`, offset);
      const pairs = c.bytes.slice(c.pos, c.pos + n * 4);
      c.pos += n * 4;
      const counts = c.bytes.slice(c.pos, c.pos + n * 2);
      c.pos += n * 2;
      const runCounts = c.bytes.slice(c.pos, c.pos + n * 4);
      c.pos += n * 4;
      const be16 = (b: Uint8Array, i: number) => (b[2 * i]! << 8) | b[2 * i + 1]!;
      const be32 = (b: Uint8Array, i: number) => (b[4 * i]! * 0x1000000 + ((b[4 * i + 1]! << 16) | (b[4 * i + 2]! << 8) | b[4 * i + 3]!)) >>> 0;
      for (let d = 0; d < n; d++) {
        const dAt = c.offset;
        const fd = `frame ${index}`;
        const a = be16(pairs, 2 * d);
        const b = be16(pairs, 2 * d + 1);
        const count = be16(counts, d);
        checkCount(count, offset, `${fd} count (chunk column)`);
        const rc = be32(runCounts, d);
        if (rc > MAX_NODES) throw new FormatError('limit', `${rc} runs`, { offset, field: `${fd} run count` });
        await c.require(rc * 2, `${fd} run lengths`, dAt);
        if (rc > lengths.length) lengths = new Uint16Array(rc);
        for (let i = 0; i < rc; i++) {
          const len = c.u16();
          if (len === 0) throw new FormatError('corrupt', `delta run ${i} has length 0`, { offset: c.offset - 2, field: `${fd} run lengths` });
          lengths[i] = len;
        }
        applyDelta(state, a, b, lengths, rc, dAt, `${fd} run lengths`);
        runs.fromAssignment(state.nodes, state.n);
        yield { index, offset: dAt, length: c.offset - dAt, kind: 'delta', count, firstSample: sample, plan: runs, pair: [a, b] };
        index++;
        sample += count;
      }
    } else {
      throw new FormatError('corrupt', `unknown XBEN frame tag ${tag} (0 full frame, 2 delta chunk)`, { offset, field: `${f} tag` });
    }
  }
}
