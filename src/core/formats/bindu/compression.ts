import { deflateRaw, inflateRaw } from '../../codecs/deflate.js';
import { decodeZstd } from '../../codecs/zstd.js';
import { FormatError } from '../../errors.js';
import { lz4 as lz4Adapter, type Lz4FrameCodec } from './lz4.js';
import { Codec, codecName } from './model.js';

/** The general-purpose compressors a chain may end with, and that COMPRESSED frames use (spec C.2, C.6). */
export interface DecompressOptions {
  readonly maxSize: number;
  readonly expectedSize?: number;
  readonly offset?: number;
  readonly field?: string;
}

/** Why a compressor cannot be decoded here, or undefined when it can. */
export function missingDecoder(codec: number, lz4: Lz4FrameCodec | undefined = lz4Adapter): string | undefined {
  return codec === Codec.LZ4 && !lz4 ? 'describe-only: LZ4 codec not available' : undefined;
}

export function decompress(codec: number, data: Uint8Array, opts: DecompressOptions, lz4: Lz4FrameCodec | undefined = lz4Adapter): Uint8Array {
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
      if (!lz4) throw new FormatError('unsupported', 'describe-only: LZ4 codec not available', where);
      return lz4.decodeLz4Frame(data, opts);
    default:
      throw new FormatError('unsupported', `${codecName(codec)} is not a compressor`, where);
  }
}

/** Compressors the writer offers: DEFLATE (default), none, and LZ4 once the codec is wired. */
export function compress(codec: number, data: Uint8Array, lz4: Lz4FrameCodec | undefined = lz4Adapter): Uint8Array {
  switch (codec) {
    case Codec.NONE:
      return data;
    case Codec.DEFLATE:
      return deflateRaw(data, 9);
    case Codec.LZ4:
      if (!lz4) throw new FormatError('unsupported', 'LZ4 codec not available');
      return lz4.encodeLz4Frame(data);
    default:
      throw new FormatError('unsupported', `the writer does not compress with ${codecName(codec)}`);
  }
}
