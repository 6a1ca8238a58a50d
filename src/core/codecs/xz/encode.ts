import { FormatError } from '../../errors.js';
import { concatBytes } from '../../io/bytes.js';
import type { ByteSink } from '../../model.js';
import { LZMA_FINISH, LZMA_OK, LZMA_RUN, LZMA_STREAM_END, LzmaStream, liblzma } from './liblzma.js';

/** Integrity check of a written .xz stream (xz-file-format §2.1.1.2). */
export type XzCheck = 'none' | 'crc32' | 'crc64' | 'sha256';
export const CHECK_IDS: Record<XzCheck, number> = { none: 0, crc32: 1, crc64: 4, sha256: 10 };

/**
 * Presets 8 and 9 need 370 and 674 MiB of encoder memory; the WASM build's heap stops at
 * 256 MiB, so 7 (16 MiB dictionary, 186 MiB) is the strongest preset everywhere.
 */
export const MAX_PRESET = 7;

export interface XzEncodeOptions {
  /** 0..MAX_PRESET, as `xz -0 … -7`. */
  readonly preset: number;
  readonly check: XzCheck;
}

const PIECE = 1 << 20;

/** What an xz writer offers: `finish()` ends the stream, `abandon()` frees it unfinished (a failed conversion). */
export interface XzSink extends ByteSink {
  finish(): Promise<{ readonly bytesIn: number; readonly bytesOut: number }>;
  abandon(): void;
}

export function checkPreset(preset: number): void {
  if (!Number.isInteger(preset) || preset < 0 || preset > MAX_PRESET) {
    throw new FormatError('unsupported', `xz preset ${preset}: use 0..${MAX_PRESET} (8 and 9 need more memory than the WASM encoder has)`, {
      field: 'preset',
    });
  }
}

/**
 * A ByteSink that xz-compresses what it is given into another sink, one 1 MiB piece at a time
 * (memory stays flat). `finish()` writes the index and footer; without it the output is an
 * unfinished stream.
 */
export class XzWriter implements XzSink {
  private bytesIn = 0;
  private bytesOut = 0;

  private constructor(
    private readonly strm: LzmaStream,
    private readonly out: ByteSink,
  ) {}

  static async open(out: ByteSink, opts: XzEncodeOptions): Promise<XzWriter> {
    checkPreset(opts.preset);
    const m = await liblzma();
    const strm = new LzmaStream(m, PIECE, PIECE);
    const ret = m._lzma_easy_encoder(strm.ptr, opts.preset, CHECK_IDS[opts.check]);
    if (ret !== LZMA_OK) {
      strm.free();
      throw new FormatError('limit', `liblzma encoder init failed (code ${ret})`, { field: 'preset' });
    }
    return new XzWriter(strm, out);
  }

  async write(chunk: Uint8Array): Promise<void> {
    for (let at = 0; at < chunk.length; at += PIECE) {
      this.strm.setInput(chunk.subarray(at, Math.min(chunk.length, at + PIECE)));
      while (this.strm.availIn > 0) await this.step(LZMA_RUN);
    }
    this.bytesIn += chunk.length;
  }

  /** Ends the stream; resolves to the bytes taken in and written out. */
  async finish(): Promise<{ readonly bytesIn: number; readonly bytesOut: number }> {
    try {
      while ((await this.step(LZMA_FINISH)) !== LZMA_STREAM_END);
    } finally {
      this.strm.free();
    }
    return { bytesIn: this.bytesIn, bytesOut: this.bytesOut };
  }

  /** Frees the encoder without finishing (a failed conversion). */
  abandon(): void {
    this.strm.free();
  }

  private async step(action: number): Promise<number> {
    const { ret, out } = this.strm.code(action);
    if (ret !== LZMA_OK && ret !== LZMA_STREAM_END) throw new FormatError('corrupt', `liblzma encoder error ${ret}`);
    if (out.length) {
      this.bytesOut += out.length;
      await this.out.write(out);
    }
    return ret;
  }
}

/** Compresses bytes already in memory (bundle assets, tests). */
export async function xzCompress(bytes: Uint8Array, opts: XzEncodeOptions): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const w = await XzWriter.open({ write: async (c) => void parts.push(c) }, opts);
  await w.write(bytes);
  await w.finish();
  return concatBytes(parts);
}
