import { xzDecompress } from '../../codecs/xz/decode.js';
import { FormatError, rethrowUnlessFormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { ByteCursor } from './cursor.js';
import { checkedChunks, xzChecks } from './checkedXz.js';
import { type DecodeOptions, type DecodedFrame, benFrames, readBanner, xbenFrames } from './decode.js';
import type { Variant } from './model.js';
import { countBen32Body, skipBen32Frames } from './xbenCount.js';

/** Where a stream of plans lives: a .ben or .xben file, or the stream inside a bundle. */
export interface StreamLocation {
  readonly format: 'ben' | 'xben';
  readonly offset: number;
  readonly length: number;
}

/**
 * Decompressed XBEN bodies have no file offsets of their own: a body error is reported at the
 * start of the xz data, with the decompressed position in its text.
 */
function inBody(e: unknown, loc: StreamLocation): unknown {
  if (!(e instanceof FormatError) || e.code === 'cancelled' || e.detail.includes('(decompressed byte')) return e;
  if (e.field?.startsWith('xz')) return e;
  return new FormatError(e.code, `${e.detail} (decompressed byte ${e.offset ?? 0})`, { offset: loc.offset, field: e.field });
}

export interface OpenedFrames {
  readonly variant: Variant;
  readonly frames: AsyncGenerator<DecodedFrame>;
  /**
   * Frees the decoder when the frames are not read to the end. Breaking out of a for-await does
   * it too; a caller that only wanted the variant must call this (an XBEN decoder holds its
   * dictionary, up to 64 MiB of WASM memory, until then).
   */
  close(): Promise<void>;
}

export interface ReadOptions extends DecodeOptions {
  /**
   * Decode XBEN bytes as they come out, before their xz block check: only for what is not
   * output (the banner an open reads for the variant) or is shown labelled as damaged.
   */
  readonly unchecked?: boolean;
  /**
   * The 0-based sample a reader wants first: an XBEN BEN32 body's frames before the one holding
   * it are counted, not decoded (skipBen32Frames), and not yielded. Other streams yield every frame.
   */
  readonly fromSample?: number;
}

/**
 * Every frame of a stream from its start: the one decode path for cat, convert, verify and views.
 * An XBEN's frames come only from xz blocks whose check passed (checkedXz.ts).
 */
export async function readFrames(src: ByteSource, loc: StreamLocation, opts: ReadOptions = {}): Promise<OpenedFrames> {
  if (loc.format === 'ben') {
    const c = ByteCursor.over(src, loc.offset, loc.length);
    const variant = await readBanner(c);
    const frames = benFrames(c, variant, undefined, opts);
    return { variant, frames, close: async () => void (await frames.return(undefined)) };
  }
  const chunks = await xbenChunks(src, loc, opts);
  const c = ByteCursor.overChunks(chunks);
  let variant: Variant;
  try {
    variant = await readBanner(c);
  } catch (e) {
    await chunks.return(undefined);
    throw inBody(e, loc);
  }
  async function* mapped(): AsyncGenerator<DecodedFrame> {
    try {
      const from = opts.fromSample ?? 0;
      const start = from > 0 && variant !== 'two_delta' ? await skipBen32Frames(c, variant === 'mkv_chain', from, opts.signal) : undefined;
      yield* xbenFrames(c, variant, opts, start);
    } catch (e) {
      throw inBody(e, loc);
    } finally {
      await chunks.return(undefined);
    }
  }
  const frames = mapped();
  return {
    variant,
    frames,
    close: async () => {
      await frames.return(undefined);
      await chunks.return(undefined);
    },
  };
}

/** The decompressed body of an XBEN stream, from xz blocks whose check passed unless `unchecked`. */
async function xbenChunks(src: ByteSource, loc: StreamLocation, opts: ReadOptions): Promise<AsyncGenerator<Uint8Array>> {
  const open = () => xzDecompress(src, { offset: loc.offset, length: loc.length, signal: opts.signal, field: 'xz data' });
  const checks = opts.unchecked ? undefined : await xzChecks(src, loc.offset, loc.length);
  return checks?.checked ? checkedChunks(open, checks.blocks) : open();
}

/**
 * Frames and samples of an XBEN stream counted without decoding plans (xbenCount.ts); undefined
 * where only a decode can say (TwoDelta deltas, damage of any kind). The bytes are counted before
 * their block's check, as the count is not output: it is given only when liblzma reached the end
 * of the data, every check passed, and a failed one sends the caller to the decode that names it.
 */
export async function countXbenStream(src: ByteSource, loc: StreamLocation, signal?: AbortSignal): Promise<{ frames: number; samples: number } | undefined> {
  const chunks = xzDecompress(src, { offset: loc.offset, length: loc.length, signal, field: 'xz data', borrow: true });
  try {
    const c = ByteCursor.overChunks(chunks);
    const variant = await readBanner(c);
    if (variant === 'two_delta') return undefined;
    async function* body(): AsyncGenerator<Uint8Array> {
      yield c.bytes.subarray(c.pos);
      yield* chunks;
    }
    return await countBen32Body(body(), variant === 'mkv_chain', signal);
  } catch (e) {
    rethrowUnlessFormatError(e, 'cancelled');
    return undefined;
  } finally {
    await chunks.return(undefined);
  }
}
