import { Decompress } from 'fzstd';
import { FormatError } from '../errors.js';
import { concatBytes } from '../io/bytes.js';

/**
 * Zstandard decoding (RFC 8878) with fzstd, pure JavaScript. zstddec (WebAssembly) decodes
 * about twice as fast but does not check libzstd's error results and trusts the frame's
 * declared size for its allocation, so a damaged file could make it allocate or return
 * garbage; fzstd throws on bad input and streams, which lets us cap the output (DESIGN.md).
 */
export interface ZstdOptions {
  /** Never produce more than this many bytes (a decompression bomb stops here). */
  readonly maxSize: number;
  readonly offset?: number;
  readonly field?: string;
}

export function decodeZstd(data: Uint8Array, opts: ZstdOptions): Uint8Array {
  const where = { offset: opts.offset, field: opts.field ?? 'zstd data' };
  const chunks: Uint8Array[] = [];
  let total = 0;
  let ended = false;
  try {
    const d = new Decompress((chunk, final) => {
      total += chunk.length;
      if (total > opts.maxSize) throw new FormatError('limit', `decompresses to more than ${opts.maxSize} bytes`, where);
      chunks.push(chunk);
      if (final) ended = true;
    });
    d.push(data, true);
  } catch (e) {
    if (e instanceof FormatError) throw e;
    throw new FormatError('corrupt', `invalid Zstandard data: ${(e as Error).message}`, where);
  }
  if (!ended && total === 0 && data.length > 0) throw new FormatError('corrupt', 'invalid Zstandard data: no complete frame', where);
  return concatBytes(chunks);
}
