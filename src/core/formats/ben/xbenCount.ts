import { throwIfAborted } from '../../errors.js';
import type { ByteCursor } from './cursor.js';
import { COUNT_BYTES } from './model.js';
import { MAX_NODES } from './plan.js';

/** A run: u16 value, u16 length (spec §5); a frame ends at the run 00000000. */
const RUN_BYTES = 4;

/**
 * Counts the frames and samples of a Standard or MkvChain XBEN body (spec §5: runs of u16 value,
 * u16 length up to a 00000000 terminator, then a u16 count in MkvChain), banner already read,
 * without building plans: a decode spent 35 µs a frame making plans nobody looks at, where xz
 * gives the bytes in a fraction of that. It checks what `xbenFrames` checks of such a frame and
 * returns undefined at anything else (damage, a cut, a safety cap), so the caller decodes and
 * the decoder names it: the count is the decode's count whenever this gives one.
 */
export async function countBen32Body(c: ByteCursor, hasCount: boolean, signal?: AbortSignal): Promise<{ frames: number; samples: number } | undefined> {
  let frames = 0;
  let samples = 0;
  /** Nodes of the frame being read, and whether its first run has been read (a cut there is a cut frame). */
  let nodes = 0;
  let inFrame = false;
  for (;;) {
    if (c.available < RUN_BYTES) {
      if (!inFrame && c.available === 0 && (await c.atEnd())) return { frames, samples };
      if ((await c.need(RUN_BYTES)) < RUN_BYTES) return undefined;
    }
    // The runs at hand, in one loop over the array: the cursor moves a run at a time, so a piece
    // boundary leaves at most 3 bytes to carry over, never a frame.
    const b = c.bytes;
    const last = b.length - RUN_BYTES;
    let p = c.pos;
    let length = 0;
    while (p <= last && (length = (b[p + 2]! << 8) | b[p + 3]!) !== 0) {
      nodes += length;
      p += RUN_BYTES;
    }
    c.pos = p;
    // Nodes only grow within a frame, so checking once per stretch refuses what a check per run would.
    if (nodes > MAX_NODES) return undefined;
    inFrame = true;
    if (p > last) continue;
    // A run of length 0: the terminator only when its value is 0 too.
    if (b[p] !== 0 || b[p + 1] !== 0) return undefined;
    let count = 1;
    if (hasCount) {
      const need = RUN_BYTES + COUNT_BYTES;
      if (c.available < need && (await c.need(need)) < need) return undefined;
      count = (c.bytes[c.pos + RUN_BYTES]! << 8) | c.bytes[c.pos + RUN_BYTES + 1]!;
      if (count === 0) return undefined;
      c.pos += COUNT_BYTES;
    }
    c.pos += RUN_BYTES;
    frames++;
    samples += count;
    ((nodes = 0), (inFrame = false));
    if ((frames & 4095) === 0) throwIfAborted(signal);
  }
}
