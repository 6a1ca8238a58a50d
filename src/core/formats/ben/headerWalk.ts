import type { FramePosition } from './frames.js';
import { COUNT_BYTES, DELTA_HEADER_BYTES, FRAME_HEADER_BYTES, MAX_BITS, type Variant } from './model.js';

/**
 * Where a header walk stands: plain numbers updated in place, so hopping over millions of frames
 * allocates nothing per frame (a FramePosition is made only for a checkpoint or the caller).
 */
export class WalkState {
  index: number;
  offset: number;
  firstSample: number;
  /** TwoDelta: the latest snapshot before `index` (-1: none yet). */
  anchorIndex = -1;
  anchorOffset = 0;
  anchorSample = 0;

  constructor(at: FramePosition) {
    this.index = at.index;
    this.offset = at.offset;
    this.firstSample = at.firstSample;
    if (at.anchor) this.setAnchor(at.anchor.index, at.anchor.offset, at.anchor.firstSample);
  }

  setAnchor(index: number, offset: number, firstSample: number): void {
    this.anchorIndex = index;
    this.anchorOffset = offset;
    this.anchorSample = firstSample;
  }

  /** The same position as `nextPosition` in frames.ts would give. */
  position(): FramePosition {
    const anchor = this.anchorIndex < 0 ? undefined : { index: this.anchorIndex, offset: this.anchorOffset, firstSample: this.anchorSample };
    return { index: this.index, offset: this.offset, firstSample: this.firstSample, anchor };
  }
}

/** Why `hopFrames` returned. */
export const Hop = {
  /** At `stopIndex`, or at the frame holding `stopSample`. */
  Stopped: 0,
  /** At the stream's end: every frame walked. */
  End: 1,
  /** The next header (or its count) lies past the buffer: read on from `state.offset`. */
  Refill: 2,
  /**
   * The frame at `state.offset` is not one this loop takes as it is (a bad tag, bits or count, a
   * length past the stream's end): `readFrame` reads it, and names the error if there is one.
   */
  Slow: 3,
} as const;
export type Hop = (typeof Hop)[keyof typeof Hop];

/** One checkpoint every this many frames: 2 M frames cost 2 k checkpoints. */
export const CHECKPOINT_EVERY = 1024;

/**
 * Hops from frame header to frame header over `buf` (the stream bytes at absolute `bufOffset`),
 * skipping payloads by their length (spec §3, §4), until a stop, the end of the buffer or of the
 * stream. Only frames valid by the same rules as `readFrame` are taken here; anything else is
 * left to it, so errors stay the ones it reports. `onCheckpoint` runs at each multiple of 1024.
 */
export function hopFrames(
  buf: Uint8Array,
  bufOffset: number,
  variant: Variant,
  s: WalkState,
  streamEnd: number,
  stopIndex: number,
  /** 0-based sample: stop at the frame that holds it (Infinity: never). */
  stopSample: number,
  onCheckpoint: (s: WalkState) => void,
): Hop {
  // Locals, not fields of `s`, inside the loop (written back on every return): the cursor `p`
  // indexes the buffer as a small integer, where an absolute offset past 2 GiB is a double.
  const twoDelta = variant === 'two_delta';
  const hasCount = variant !== 'standard';
  const limit = buf.length;
  const streamLimit = streamEnd - bufOffset;
  let p = s.offset - bufOffset;
  let index = s.index;
  let sample = s.firstSample;
  let untilCheckpoint = CHECKPOINT_EVERY - (index % CHECKPOINT_EVERY);
  let result: Hop;
  for (;;) {
    if (index >= stopIndex) {
      result = Hop.Stopped;
      break;
    }
    if (p >= streamLimit) {
      result = Hop.End;
      break;
    }
    const end = frameEnd(buf, p, limit, streamLimit, twoDelta, hasCount, index === 0);
    if (end < 0) {
      result = end === REFILL ? Hop.Refill : Hop.Slow;
      break;
    }
    let count = 1;
    if (hasCount) {
      if (end > limit) {
        result = Hop.Refill;
        break;
      }
      count = (buf[end - 2]! << 8) | buf[end - 1]!;
      if (count === 0) {
        result = Hop.Slow;
        break;
      }
    }
    if (sample - 1 + count > stopSample) {
      result = Hop.Stopped;
      break;
    }
    if (twoDelta && buf[p] === 0) s.setAnchor(index, bufOffset + p, sample);
    index++;
    p = end;
    sample += count;
    if (--untilCheckpoint === 0) {
      untilCheckpoint = CHECKPOINT_EVERY;
      s.index = index;
      s.offset = bufOffset + p;
      s.firstSample = sample;
      onCheckpoint(s);
    }
  }
  s.index = index;
  s.offset = bufOffset + p;
  s.firstSample = sample;
  return result;
}

/** `frameEnd`'s answers other than an end: the frame is `readFrame`'s to read, or its header lies past the buffer. */
const SLOW = -1;
const REFILL = -2;

/**
 * Where the frame at `p` ends (past its count), from its header alone; SLOW for a frame this walk
 * does not take as it is (a bad tag or bits, a delta first, an end past the stream's), REFILL
 * where the header lies past the buffer and the stream goes on.
 */
function frameEnd(buf: Uint8Array, p: number, limit: number, streamLimit: number, twoDelta: boolean, hasCount: boolean, first: boolean): number {
  let q = p;
  let delta = false;
  if (twoDelta) {
    if (q + 1 > limit) return limit >= streamLimit ? SLOW : REFILL;
    const tag = buf[q]!;
    if (tag === 1) delta = true;
    else if (tag !== 0) return SLOW;
    if (delta && first) return SLOW;
    q++;
  }
  if (q + (delta ? DELTA_HEADER_BYTES : FRAME_HEADER_BYTES) > limit) return limit >= streamLimit ? SLOW : REFILL;
  if (delta) {
    const lbits = buf[q + 4]!;
    if (lbits < 1 || lbits > MAX_BITS) return SLOW;
    q += 5;
  } else {
    const vbits = buf[q]!;
    const lbits = buf[q + 1]!;
    if (vbits < 1 || vbits > MAX_BITS || lbits < 1 || lbits > MAX_BITS) return SLOW;
    q += 2;
  }
  const payloadBytes = (buf[q]! * 0x1000000 + ((buf[q + 1]! << 16) | (buf[q + 2]! << 8) | buf[q + 3]!)) >>> 0;
  const end = q + 4 + payloadBytes + (hasCount ? COUNT_BYTES : 0);
  return end > streamLimit ? SLOW : end;
}
