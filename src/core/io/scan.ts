import { throwIfAborted } from '../errors.js';
import type { TaskContext } from '../model.js';
import type { ByteSource } from './byteSource.js';
import { checkRange } from './byteSource.js';

const CHUNK = 1 << 20;

/**
 * Feeds [offset, offset + length) of a source to `fn` in pieces of at most 1 MiB, reporting
 * progress and yielding to the event loop between pieces, so checksumming a 2 GB file keeps
 * memory flat, can be cancelled and never blocks its thread for long.
 */
export async function scanRange(
  src: ByteSource,
  offset: number,
  length: number,
  ctx: TaskContext,
  fn: (piece: Uint8Array, at: number) => unknown,
  label = 'reading',
): Promise<void> {
  checkRange(src.size, offset, length);
  for (let done = 0; done < length; ) {
    throwIfAborted(ctx.signal);
    const n = Math.min(CHUNK, length - done);
    const piece = await src.read(offset + done, n);
    const pending = fn(piece, offset + done);
    // A consumer that must await (a hasher to start) gets the next piece only after.
    if (pending instanceof Promise) await pending;
    done += n;
    ctx.progress?.({ done, total: length, message: label });
    if (done < length) await yieldToEventLoop();
  }
}

/** Lets other events run; `setImmediate` where it exists (Node), a zero timeout in browsers. */
export function yieldToEventLoop(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (cb: () => void) => unknown }).setImmediate;
  return new Promise((resolve) => (immediate ? immediate(resolve) : setTimeout(resolve, 0)));
}
