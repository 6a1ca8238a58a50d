import { FormatError, throwIfAborted } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { checkRange } from '../../io/byteSource.js';
import { concatBytes } from '../../io/bytes.js';
import {
  LZMA_BUF_ERROR,
  LZMA_CONCATENATED,
  LZMA_DATA_ERROR,
  LZMA_FINISH,
  LZMA_FORMAT_ERROR,
  LZMA_MEMLIMIT_ERROR,
  LZMA_MEM_ERROR,
  LZMA_OK,
  LZMA_OPTIONS_ERROR,
  LZMA_RUN,
  LZMA_STREAM_END,
  LzmaStream,
  liblzma,
} from './liblzma.js';

export interface XzDecodeOptions {
  /** Where the .xz data starts in the source (0 for an .xben file, the stream offset in a bundle). */
  readonly offset?: number;
  /** How many bytes of .xz data; the rest of the source by default. */
  readonly length?: number;
  /** Decompressed bytes allowed before a `limit` error (a decompression bomb stops here). */
  readonly maxOutput?: number;
  readonly signal?: AbortSignal;
  /** Names the data in errors, e.g. "asset graph.json". */
  readonly field?: string;
  /**
   * Yield views of the decoder's output buffer, not copies: each chunk is overwritten when the next
   * is asked for, so only a caller done with a chunk by then may set it (a count: 45 MB of runs
   * copied twice, out of WASM and into a cursor, were a tenth of an XBEN count's time).
   */
  readonly borrow?: boolean;
}

/** Input and output pieces: bounded memory whatever the file, and few calls into WASM. */
const PIECE = 1 << 20;
/**
 * Decoder memory limit. XBEN writers use dictionaries up to 64 MiB (about 65 MiB to decode);
 * a header asking for more than this is refused instead of exhausting the WASM heap.
 */
const MEMLIMIT = 192n << 20n;

/**
 * THE way to read .xz data in Binlens: decompressed chunks in order, read from `src` a piece at
 * a time, so memory stays flat for any size. Every check type (None, CRC32, CRC64, SHA-256) is
 * verified, several blocks and concatenated streams with padding are read, like `xz -d`.
 * Chunks already yielded (unless borrowed) stay valid when a later error is thrown, so a caller
 * keeps the good prefix of a damaged or truncated file. Errors are FormatErrors located at the input offset
 * where liblzma stopped.
 */
export async function* xzDecompress(src: ByteSource, opts: XzDecodeOptions = {}): AsyncGenerator<Uint8Array, void, undefined> {
  const base = opts.offset ?? 0;
  const length = opts.length ?? src.size - base;
  checkRange(src.size, base, length, opts.field ?? 'xz data');
  const maxOutput = opts.maxOutput ?? Number.MAX_SAFE_INTEGER;
  const m = await liblzma();
  const strm = new LzmaStream(m, PIECE, PIECE);
  try {
    const init = m._lzma_stream_decoder(strm.ptr, MEMLIMIT, LZMA_CONCATENATED);
    if (init !== LZMA_OK) throw new FormatError('limit', `liblzma decoder init failed (code ${init})`, { offset: base, field: opts.field });
    let read = 0;
    let produced = 0;
    for (;;) {
      throwIfAborted(opts.signal);
      if (strm.availIn === 0 && read < length) {
        const n = Math.min(PIECE, length - read);
        strm.setInput(await src.read(base + read, n));
        read += n;
      }
      const { ret, out } = strm.code(read < length ? LZMA_RUN : LZMA_FINISH, opts.borrow);
      if (out.length > 0) {
        produced += out.length;
        if (produced > maxOutput) {
          throw new FormatError('limit', `decompresses to more than ${maxOutput} bytes`, { offset: base + strm.totalIn, field: opts.field ?? 'xz data' });
        }
        yield out;
      }
      if (ret === LZMA_STREAM_END) return;
      if (ret !== LZMA_OK) throw decodeError(ret, base + strm.totalIn, opts.field ?? 'xz data', read >= length);
    }
  } finally {
    strm.free();
  }
}

function decodeError(ret: number, offset: number, field: string, atEnd: boolean): FormatError {
  const where = { offset, field };
  switch (ret) {
    case LZMA_BUF_ERROR:
      return atEnd
        ? new FormatError('truncated', 'the xz data ends early (a block, the index or the stream footer is missing)', where)
        : new FormatError('corrupt', 'liblzma made no progress', where);
    case LZMA_DATA_ERROR:
      return new FormatError('corrupt', 'compressed data is corrupt (xz: a block, check, index or footer does not match)', where);
    case LZMA_FORMAT_ERROR:
      return new FormatError('bad-magic', 'not .xz data (no xz stream header)', where);
    case LZMA_OPTIONS_ERROR:
      return new FormatError('unsupported', 'unsupported xz options (filter, flags or dictionary)', where);
    case LZMA_MEMLIMIT_ERROR:
      return new FormatError('limit', `needs more than ${Number(MEMLIMIT >> 20n)} MiB to decompress (dictionary too large)`, where);
    case LZMA_MEM_ERROR:
      return new FormatError('limit', 'out of WASM memory while decompressing', where);
    default:
      return new FormatError('corrupt', `liblzma error ${ret}`, where);
  }
}

/** Decompresses a small, capped input at once (bundle assets). */
export async function xzDecompressAll(src: ByteSource, opts: XzDecodeOptions & { readonly maxOutput: number }): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of xzDecompress(src, opts)) parts.push(c);
  return concatBytes(parts);
}
