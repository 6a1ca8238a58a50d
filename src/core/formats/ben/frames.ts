import { lookup } from '../../lookup.js';
import { FormatError } from '../../errors.js';
import { BinReader } from '../../io/binReader.js';
import type { ByteSource } from '../../io/byteSource.js';
import { readUpTo } from '../../io/byteSource.js';
import { BANNER_BYTES, BANNERS, type BenFrame, COUNT_BYTES, DELTA_HEADER_BYTES, MAX_BITS, type Variant } from './model.js';

const ascii = new TextDecoder('latin1');

/** The variant a 17-byte banner names, or a located error for any other bytes. */
export function parseBanner(bytes: Uint8Array, offset = 0): Variant {
  const text = ascii.decode(bytes.subarray(0, BANNER_BYTES));
  const variant = bytes.length >= BANNER_BYTES ? lookup(BANNERS, text) : undefined;
  if (!variant) {
    throw new FormatError('bad-magic', `unknown banner ${JSON.stringify(text)} (expected STANDARD, MKVCHAIN or TWODELTA BEN FILE)`, {
      offset,
      field: 'banner',
    });
  }
  return variant;
}

/** vbits and lbits are 1..16 (spec §3). */
export function checkBits(bits: number, offset: number, field: string): void {
  if (bits < 1 || bits > MAX_BITS) throw new FormatError('corrupt', `${bits} bits (must be 1..${MAX_BITS})`, { offset, field });
}

/** MkvChain and TwoDelta counts are at least 1 (spec §8; v0.3.0 silently dropped such frames). */
export function checkCount(count: number, offset: number, field: string): void {
  if (count === 0) throw new FormatError('corrupt', 'repeat count 0', { offset, field });
}

/** What is needed to place the next frame: where it starts and which sample it yields first. */
export interface FramePosition {
  readonly index: number;
  readonly offset: number;
  readonly firstSample: number;
  /** TwoDelta: the latest snapshot at or before this frame, where decoding must start. */
  readonly anchor?: FramePosition;
}

/**
 * Locates the frame at `at` from its header alone (spec §3, §4): payloads are skipped by their
 * length, so counting or paging frames never decodes them. Fails with the frame's offset when
 * the header is invalid or the frame runs past `streamEnd` (absolute, like every offset here).
 */
export async function readFrame(src: ByteSource, variant: Variant, at: FramePosition, streamEnd = src.size): Promise<BenFrame> {
  const { offset, index } = at;
  const head = new BinReader(await readUpTo(src, offset, Math.min(1 + DELTA_HEADER_BYTES, streamEnd - offset)), offset);
  let kind: BenFrame['kind'] = 'frame';
  if (variant === 'two_delta') {
    const tag = head.u8('frame tag');
    if (tag === 0) kind = 'snapshot';
    else if (tag === 1) kind = 'delta';
    else throw new FormatError('corrupt', `unknown TwoDelta frame tag ${tag} (0 snapshot, 1 delta)`, { offset, field: `frame ${index} tag` });
  }
  let vbits: number | undefined;
  let lbits: number;
  let pair: [number, number] | undefined;
  if (kind === 'delta') {
    if (index === 0) throw new FormatError('corrupt', 'a delta before any snapshot', { offset, field: 'frame 0 tag' });
    pair = [head.u16be(`frame ${index} pair_a`), head.u16be(`frame ${index} pair_b`)];
    lbits = head.u8(`frame ${index} lbits`);
    checkBits(lbits, head.offset - 1, `frame ${index} lbits`);
  } else {
    vbits = head.u8(`frame ${index} vbits`);
    checkBits(vbits, head.offset - 1, `frame ${index} vbits`);
    lbits = head.u8(`frame ${index} lbits`);
    checkBits(lbits, head.offset - 1, `frame ${index} lbits`);
  }
  const payloadBytes = head.u32be(`frame ${index} n_bytes`);
  const payloadOffset = head.offset;
  const hasCount = variant !== 'standard';
  const end = payloadOffset + payloadBytes + (hasCount ? COUNT_BYTES : 0);
  if (end > streamEnd) {
    throw new FormatError('truncated', `frame ${index} needs ${end - offset} bytes, the stream ends after ${streamEnd - offset}`, {
      offset,
      field: `frame ${index}`,
    });
  }
  let count = 1;
  if (hasCount) {
    const countAt = payloadOffset + payloadBytes;
    count = new BinReader(await src.read(countAt, COUNT_BYTES), countAt).u16be(`frame ${index} count`);
    checkCount(count, countAt, `frame ${index} count`);
  }
  return { index, offset, length: end - offset, kind, vbits, lbits, payloadOffset, payloadBytes, count, pair, firstSample: at.firstSample };
}

export function nextPosition(f: BenFrame, at: FramePosition): FramePosition {
  const anchor = f.kind === 'delta' ? at.anchor : f.kind === 'snapshot' ? { index: at.index, offset: at.offset, firstSample: at.firstSample } : undefined;
  return { index: f.index + 1, offset: f.offset + f.length, firstSample: f.firstSample + f.count, anchor };
}
