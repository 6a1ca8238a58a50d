import { throwIfAborted } from '../../errors.js';
import type { ByteCursor } from './cursor.js';
import type { DecodeStart } from './decode.js';
import { COUNT_BYTES } from './model.js';
import { MAX_NODES } from './plan.js';

/** A run: u16 value, u16 length (spec §5); a frame ends at the run 00000000. */
const RUN_BYTES = 4;
/** Enough bytes after a cut unit (at most a terminator and its count, 6 bytes) to finish it. */
const BRIDGE_BYTES = 8;

/** The count so far and the frame being read, across pieces. */
class RunCounter {
  frames = 0;
  samples = 0;
  /** Nodes of the frame being read: 0 between frames, as a frame's runs are never empty. */
  nodes = 0;

  constructor(private readonly hasCount: boolean) {}

  /**
   * Counts the whole runs and terminators of `b` from `p`: where the first unit `b` does not hold
   * whole begins (b.length when none), or -1 at what xbenFrames would refuse.
   */
  scan(b: Uint8Array, p: number): number {
    const last = b.length - RUN_BYTES;
    let nodes = this.nodes;
    for (;;) {
      let length = 0;
      while (p <= last && (length = (b[p + 2]! << 8) | b[p + 3]!) !== 0) {
        nodes += length;
        p += RUN_BYTES;
      }
      // Nodes only grow within a frame, so checking once per stretch refuses what a check per run would.
      if (nodes > MAX_NODES) return -1;
      this.nodes = nodes;
      if (p > last) return p;
      // A run of length 0: the terminator only when its value is 0 too.
      if (b[p] !== 0 || b[p + 1] !== 0) return -1;
      let count = 1;
      if (this.hasCount) {
        if (p + RUN_BYTES + COUNT_BYTES > b.length) return p;
        count = (b[p + RUN_BYTES]! << 8) | b[p + RUN_BYTES + 1]!;
        if (count === 0) return -1;
        p += COUNT_BYTES;
      }
      p += RUN_BYTES;
      this.frames++;
      this.samples += count;
      this.nodes = nodes = 0;
    }
  }
}

/**
 * Counts the frames and samples of a Standard or MkvChain XBEN body (spec §5: runs of u16 value,
 * u16 length up to a 00000000 terminator, then a u16 count in MkvChain), banner already read,
 * without building plans: a decode spent 35 µs a frame making plans nobody looks at, where xz
 * gives the bytes in a fraction of that. It counts in the pieces as they come, each valid only
 * until the next is asked for (liblzma's own output buffer), so no byte is copied but the few of a
 * unit a piece's end cuts. It checks what `xbenFrames` checks of such a frame and returns
 * undefined at anything else (damage, a cut, a safety cap), so the caller decodes and the decoder
 * names it: the count is the decode's count whenever this gives one.
 */
export async function countBen32Body(
  pieces: AsyncIterable<Uint8Array>,
  hasCount: boolean,
  signal?: AbortSignal,
): Promise<{ frames: number; samples: number } | undefined> {
  const counter = new RunCounter(hasCount);
  /** The start of a unit the last piece cut, copied: the next piece overwrites that one. */
  let carry = new Uint8Array(0);
  for await (const piece of pieces) {
    throwIfAborted(signal);
    let p = 0;
    if (carry.length > 0) {
      const take = Math.min(piece.length, BRIDGE_BYTES);
      const bridge = new Uint8Array(carry.length + take);
      bridge.set(carry);
      bridge.set(piece.subarray(0, take), carry.length);
      const q = counter.scan(bridge, 0);
      if (q < 0) return undefined;
      if (take === piece.length) {
        carry = bridge.slice(q);
        continue;
      }
      // BRIDGE_BYTES past the carry end every unit it began, so the scan stopped inside the piece.
      p = q - carry.length;
    }
    const q = counter.scan(piece, p);
    if (q < 0) return undefined;
    carry = piece.slice(q);
  }
  return carry.length === 0 && counter.nodes === 0 ? { frames: counter.frames, samples: counter.samples } : undefined;
}

/**
 * Moves the cursor (after the banner of a Standard or MkvChain XBEN body) over the frames before
 * the one holding 0-based sample `position`, counting them as `countBen32Body` does instead of
 * decoding plans nobody sees: a seek to the last of 4 000 frames of 140 000 nodes spent 300 ms
 * building them. Returns the numbers of the frame it stopped at. It stops early, at the start of
 * the frame, at anything `xbenFrames` might refuse or at the end, so the decoder reads that
 * frame on and names what is wrong there with the frame's own number and offset.
 */
export async function skipBen32Frames(c: ByteCursor, hasCount: boolean, position: number, signal?: AbortSignal): Promise<DecodeStart> {
  let frames = 0;
  let samples = 0;
  // q: bytes of the frame at c.pos read so far, relative as `need` may move the bytes.
  for (let q = 0, nodes = 0; samples < position; ) {
    const b = c.bytes;
    const last = b.length - RUN_BYTES;
    let p = c.pos + q;
    let length = 0;
    while (p <= last && (length = (b[p + 2]! << 8) | b[p + 3]!) !== 0) {
      nodes += length;
      p += RUN_BYTES;
    }
    q = p - c.pos;
    if (nodes > MAX_NODES) break;
    const unit = q + RUN_BYTES + (hasCount ? COUNT_BYTES : 0);
    if (p > last || (length === 0 && c.available < unit)) {
      throwIfAborted(signal);
      if ((await c.need(unit)) < unit) break;
      continue;
    }
    if (b[p] !== 0 || b[p + 1] !== 0) break;
    const count = hasCount ? (b[p + RUN_BYTES]! << 8) | b[p + RUN_BYTES + 1]! : 1;
    // The frame holding the sample (a count of 0 is the decoder's to refuse).
    if (count === 0 || samples + count > position) break;
    c.pos += unit;
    frames++;
    samples += count;
    q = nodes = 0;
  }
  return { index: frames, firstSample: samples + 1 };
}
