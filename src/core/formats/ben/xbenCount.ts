import { throwIfAborted } from '../../errors.js';
import type { ByteCursor } from './cursor.js';
import { COUNT_BYTES } from './model.js';
import { MAX_NODES } from './plan.js';

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
  for (;;) {
    if (c.available === 0 && (await c.atEnd())) return { frames, samples };
    if ((frames & 4095) === 4095) throwIfAborted(signal);
    // Offsets from the frame's start: `need` may move the bytes, never the frame's start.
    let rel = 0;
    let nodes = 0;
    for (;;) {
      if (c.available < rel + 4 && (await c.need(rel + 4)) < rel + 4) return undefined;
      const b = c.bytes;
      const q = c.pos + rel;
      const length = (b[q + 2]! << 8) | b[q + 3]!;
      rel += 4;
      if (length === 0) {
        if (b[q] !== 0 || b[q + 1] !== 0) return undefined;
        break;
      }
      nodes += length;
      if (nodes > MAX_NODES) return undefined;
    }
    let count = 1;
    if (hasCount) {
      if (c.available < rel + COUNT_BYTES && (await c.need(rel + COUNT_BYTES)) < rel + COUNT_BYTES) return undefined;
      const q = c.pos + rel;
      count = (c.bytes[q]! << 8) | c.bytes[q + 1]!;
      if (count === 0) return undefined;
      rel += COUNT_BYTES;
    }
    c.pos += rel;
    frames++;
    samples += count;
  }
}
