import type * as Fflate from 'fflate';
import { FormatError } from '../errors.js';
import { concatBytes } from '../io/bytes.js';
import { nativeCodecs } from './native.js';

/**
 * Raw DEFLATE (RFC 1951, no zlib or gzip wrapper), as IDV blocks and Bindu columns store it.
 * fflate is pure JavaScript, so the same code runs in the Node engine and in a browser worker.
 */

/** The bundler's (esbuild's) and the test runner's CommonJS `require`, typed for the one module it loads. */
declare const require: (id: 'fflate') => typeof Fflate;
let loaded: typeof Fflate | undefined;

/**
 * fflate, loaded on first use: its module builds its Huffman tables as it loads, most of what
 * `binlens info` on a small bindu or idv spent beyond a BEN's (bench/cases/start.ts), and where
 * the host inflates (Node's zlib) only the writer and damaged data need it. `require`, not
 * `import()`: the codecs are synchronous, and a bundled `require` runs the module when first called.
 */
function fflate(): typeof Fflate {
  return (loaded ??= require('fflate'));
}

export interface InflateOptions {
  /** Never produce more than this many bytes (a decompression bomb stops here). */
  readonly maxSize: number;
  /** The size the container declares: inflating stops one byte past it, so callers see "longer". */
  readonly expectedSize?: number;
  readonly offset?: number;
  readonly field?: string;
}

/**
 * Inflates at most `maxSize` bytes. With `expectedSize`, the result is at most one byte longer
 * than declared: callers compare its length with what they expect (shorter is an error in every
 * format; longer is an error or a warning depending on the format).
 */
export function inflateRaw(data: Uint8Array, opts: InflateOptions): Uint8Array {
  const where = { offset: opts.offset, field: opts.field ?? 'deflate data' };
  const native = nativeCodecs().inflateRaw;
  if (native && (opts.expectedSize === undefined || opts.expectedSize <= opts.maxSize)) {
    // The host's inflate (Node's zlib) when it has one. It throws for data it rejects and for
    // output past the cap; fflate below then decides and words the error, so results and errors
    // do not depend on the host. One byte past the declared size is allowed, as with fflate, so
    // callers still see "longer than declared".
    try {
      return native(data, opts.expectedSize === undefined ? opts.maxSize : opts.expectedSize + 1);
    } catch {
      // fall through
    }
  }
  try {
    if (opts.expectedSize !== undefined) {
      if (opts.expectedSize > opts.maxSize) {
        throw new FormatError('limit', `declares ${opts.expectedSize} bytes after inflating, more than the ${opts.maxSize} allowed`, where);
      }
      // A preallocated output is fast and bounds the work: fflate stops when it is full.
      return fflate().inflateSync(data, { out: new Uint8Array(opts.expectedSize + 1) });
    }
    return inflateCapped(data, opts.maxSize, where);
  } catch (e) {
    if (e instanceof FormatError) throw e;
    throw new FormatError('corrupt', `invalid DEFLATE data: ${(e as Error).message}`, where);
  }
}

function inflateCapped(data: Uint8Array, maxSize: number, where: { offset?: number; field: string }): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const inflater = new (fflate().Inflate)((chunk) => {
    total += chunk.length;
    if (total > maxSize) throw new FormatError('limit', `inflates to more than ${maxSize} bytes`, where);
    chunks.push(chunk);
  });
  inflater.push(data, true);
  return concatBytes(chunks);
}

export function deflateRaw(data: Uint8Array, level: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 = 6): Uint8Array {
  return fflate().deflateSync(data, { level });
}
