import { failFrom, info, pass, plural, warn } from '../../describe.js';
import { FormatError, rethrowUnlessFormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { Check, TaskContext } from '../../model.js';
import { readFrames, type StreamLocation } from './stream.js';

export interface DecodeOutcome {
  readonly frames: number;
  readonly samples: number;
  readonly error?: FormatError;
}

/**
 * Decodes every frame (a BEN stream has no checksum: decoding to the end is its structural
 * check, spec §8) and reports the first bad frame with its offset, the samples before it, and
 * whether the node count stays the same.
 */
export async function* verifyDecode(src: ByteSource, loc: StreamLocation, ctx: TaskContext): AsyncGenerator<Check, DecodeOutcome> {
  let frames = 0;
  let samples = 0;
  let minN = Infinity;
  let maxN = -Infinity;
  try {
    const { frames: all } = await readFrames(src, loc, { signal: ctx.signal });
    for await (const f of all) {
      frames++;
      samples += f.count;
      minN = Math.min(minN, f.plan.nodes);
      maxN = Math.max(maxN, f.plan.nodes);
      if (frames % 1024 === 0)
        ctx.progress?.({ done: f.offset - loc.offset, total: loc.format === 'ben' ? loc.length : undefined, message: `${samples} samples decoded` });
    }
  } catch (e) {
    rethrowUnlessFormatError(e, 'cancelled');
    yield failFrom('decode', e);
    yield info('good prefix', `${plural(samples, 'complete sample')} in ${plural(frames, 'frame')} decode before the error; Convert → Recover keeps them`);
    return { frames, samples, error: e };
  }
  yield pass('decode', `${plural(frames, 'frame')}, ${plural(samples, 'sample')}: every frame decodes and the stream ends at a frame boundary`, loc.offset);
  if (frames > 0) {
    yield minN === maxN
      ? pass('node count', `${plural(minN, 'node')} in every sample`)
      : warn('node count', `varies between samples, from ${minN} to ${maxN} (the reference allows it; a chain over one graph would not)`);
  }
  return { frames, samples };
}
