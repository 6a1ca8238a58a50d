import { deflateRaw, inflateRaw } from '../../codecs/deflate.js';
import { decodeLz4Frame } from '../../codecs/lz4.js';
import { encodeLz4Frame } from '../../codecs/lz4Encode.js';
import { decodeZstd } from '../../codecs/zstd.js';
import { FormatError } from '../../errors.js';
import { Codec, codecName } from './model.js';

/** The general-purpose compressors a chain may end with, and that COMPRESSED frames use (spec C.2, C.6). */
export interface DecompressOptions {
  readonly maxSize: number;
  readonly expectedSize?: number;
  readonly offset?: number;
  readonly field?: string;
}

export function decompress(codec: number, data: Uint8Array, opts: DecompressOptions): Uint8Array {
  const where = { offset: opts.offset, field: opts.field };
  switch (codec) {
    case Codec.NONE:
      if (data.length > opts.maxSize) throw new FormatError('limit', `${data.length} bytes, more than the ${opts.maxSize} allowed`, where);
      return data;
    case Codec.DEFLATE:
      return inflateRaw(data, opts);
    case Codec.ZSTD:
      return decodeZstd(data, opts);
    case Codec.LZ4:
      return decodeLz4Frame(data, opts);
    default:
      throw new FormatError('unsupported', `${codecName(codec)} is not a compressor`, where);
  }
}

/** Compressors the writer offers: DEFLATE (default), none and LZ4. */
export function compress(codec: number, data: Uint8Array): Uint8Array {
  switch (codec) {
    case Codec.NONE:
      return data;
    case Codec.DEFLATE:
      return deflateRaw(data, 9);
    case Codec.LZ4:
      return encodeLz4Frame(data);
    default:
      throw new FormatError('unsupported', `the writer does not compress with ${codecName(codec)}`);
  }
}
