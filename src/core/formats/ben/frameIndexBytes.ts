import { FormatError } from '../../errors.js';
import { BinReader } from '../../io/binReader.js';
import type { FramePosition } from './frames.js';
import { CHECKPOINT_EVERY } from './headerWalk.js';
import type { Variant } from './model.js';

/**
 * A frame index as bytes, for the viewer's index store: `BFI1`, the variant, whether the walk
 * reached the end, the stream's end, the frontier, then every checkpoint (checkpoint i is frame
 * i · 1024). A position is six f64: index, offset, first sample, and its TwoDelta anchor's three
 * (−1 without one). About 48 bytes per 1024 frames: 530 KB for an 11 M-frame stream.
 */
export interface FrameIndexState {
  readonly variant: Variant;
  readonly end: number;
  readonly frontier: FramePosition;
  readonly complete: boolean;
  readonly checkpoints: readonly FramePosition[];
}

const MAGIC = 'BFI1';
const VARIANTS: readonly Variant[] = ['standard', 'mkv_chain', 'two_delta'];
const HEAD_BYTES = 4 + 1 + 1 + 2 + 8 + 4;
const POSITION_BYTES = 6 * 8;

export function encodeFrameIndex(s: FrameIndexState): Uint8Array {
  const out = new Uint8Array(HEAD_BYTES + POSITION_BYTES * (1 + s.checkpoints.length));
  const v = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) out[i] = MAGIC.charCodeAt(i);
  out[4] = VARIANTS.indexOf(s.variant);
  out[5] = s.complete ? 1 : 0;
  v.setFloat64(8, s.end, true);
  v.setUint32(16, s.checkpoints.length, true);
  let at = HEAD_BYTES;
  for (const p of [s.frontier, ...s.checkpoints]) {
    for (const n of [p.index, p.offset, p.firstSample, p.anchor?.index ?? -1, p.anchor?.offset ?? -1, p.anchor?.firstSample ?? -1]) {
      v.setFloat64(at, n, true);
      at += 8;
    }
  }
  return out;
}

/**
 * Reads what `encodeFrameIndex` wrote and checks that it describes a walk of a stream from
 * `start` to `end`: checkpoints every 1024 frames at rising offsets inside the stream, anchors
 * behind their frames, a frontier past the last checkpoint, and a complete walk ending at `end`.
 */
export function decodeFrameIndex(bytes: Uint8Array, start: FramePosition, end: number): FrameIndexState {
  const r = new BinReader(bytes);
  const magic = String.fromCharCode(...r.bytesOf(4, 'magic'));
  if (magic !== MAGIC) throw bad(0, 'magic', `"${magic}", not "${MAGIC}"`);
  const variant = VARIANTS[r.u8('variant')];
  if (!variant) throw bad(4, 'variant', 'unknown');
  const complete = r.u8('complete') === 1;
  r.skip(2, 'reserved');
  const savedEnd = r.f64le('stream end');
  if (savedEnd !== end) throw bad(8, 'stream end', `${savedEnd}, the stream ends at ${end}`);
  const count = r.u32le('checkpoint count');
  r.need(POSITION_BYTES * (1 + count), 'positions');
  const position = (field: string): FramePosition => {
    const at = r.offset;
    const [index, offset, firstSample, aIndex, aOffset, aFirst] = [0, 0, 0, 0, 0, 0].map(() => r.f64le(field)) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const ints = [index, offset, firstSample].every((n) => Number.isSafeInteger(n) && n >= 0);
    if (!ints || offset < start.offset || offset > end || firstSample < 1) throw bad(at, field, `frame ${index} at ${offset} lies outside the stream`);
    if (aIndex === -1) return { index, offset, firstSample };
    if (!(aIndex >= 0 && aIndex <= index && aOffset >= start.offset && aOffset <= offset && aFirst >= 1 && aFirst <= firstSample)) {
      throw bad(at, field, `frame ${index}'s snapshot anchor is not behind it`);
    }
    return { index, offset, firstSample, anchor: { index: aIndex, offset: aOffset, firstSample: aFirst } };
  };
  const frontier = position('frontier');
  const checkpoints: FramePosition[] = [];
  for (let i = 0; i < count; i++) {
    const p = position(`checkpoint ${i}`);
    const prev = checkpoints[i - 1];
    if (p.index !== i * CHECKPOINT_EVERY || (prev && (p.offset <= prev.offset || p.firstSample < prev.firstSample))) {
      throw bad(r.offset - POSITION_BYTES, `checkpoint ${i}`, `frame ${p.index} at ${p.offset} does not follow the one before`);
    }
    checkpoints.push(p);
  }
  const first = checkpoints[0];
  if (!first || first.offset !== start.offset || first.firstSample !== start.firstSample) throw bad(HEAD_BYTES, 'checkpoint 0', 'not the stream start');
  const last = checkpoints[checkpoints.length - 1]!;
  if (frontier.index < last.index || frontier.offset < last.offset) throw bad(HEAD_BYTES, 'frontier', 'behind the last checkpoint');
  if (complete && frontier.offset !== end) throw bad(HEAD_BYTES, 'frontier', `a complete walk ends at ${end}, not ${frontier.offset}`);
  return { variant, end, frontier, complete, checkpoints };
}

function bad(offset: number, field: string, what: string): FormatError {
  return new FormatError('corrupt', `saved frame index: ${field} ${what}`, { offset, field });
}
