import { FormatError, rethrowUnlessFormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { TaskContext } from '../../model.js';
import { walkChunks, type ChunkWalk } from './chunks.js';
import { hashChunks, type XorbHashes } from './decode.js';
import { locateFooter, readFooter } from './footer.js';
import { hashFromString } from './hash.js';
import type { XorbFooter, XorbForm } from './model.js';

/** Chunk bytes hashed while opening; see XorbFile.open. */
const HASH_AT_OPEN_BYTES = 4 << 20;

/**
 * Everything read from one xorb: its form, the chunk headers, the footer (or why it is
 * unreadable), and, computed once, every chunk's hash and the merkle tree.
 */
export class XorbFile {
  private hashing: Promise<XorbHashes> | undefined;
  private done: XorbHashes | undefined;

  private constructor(
    readonly src: ByteSource,
    readonly form: XorbForm,
    /** End of the chunk region: the footer start, or the file size. */
    readonly regionEnd: number,
    readonly walk: ChunkWalk,
    readonly footer: XorbFooter | undefined,
    readonly footerError: FormatError | undefined,
    /** The xorb hash the file name states (CAS files are named by their hash), raw bytes. */
    readonly expectedHash: Uint8Array | undefined,
  ) {}

  static async open(src: ByteSource, name: string | undefined, signal?: AbortSignal): Promise<XorbFile> {
    const location = await locateFooter(src);
    let footer: XorbFooter | undefined;
    let footerError: FormatError | undefined;
    if (location) {
      try {
        footer = await readFooter(src, location);
      } catch (e) {
        rethrowUnlessFormatError(e);
        footerError = e;
      }
    }
    const regionEnd = location?.offset ?? src.size;
    const walk = await walkChunks(src, regionEnd, signal, footer?.boundaries);
    if (walk.chunks.length === 0 && walk.stop) throw walk.stop;
    const stem = name?.replace(/\.xorb$/i, '');
    const file = new XorbFile(src, location ? 'full' : 'footerless', regionEnd, walk, footer, footerError, stem ? hashFromString(stem) : undefined);
    // Hashing decodes every chunk: a few MiB cost less than a frame of the first screen, so small
    // xorbs show their computed hash at once; larger ones (up to 64 MiB, ~1 s) open at once with
    // the footer's hashes, and Verify or the Merkle panel computes them.
    if (regionEnd <= HASH_AT_OPEN_BYTES) await file.hashes({ signal });
    return file;
  }

  get chunks() {
    return this.walk.chunks;
  }

  /** The hashes, when they have been computed. */
  get known(): XorbHashes | undefined {
    return this.done;
  }

  /** Decodes and hashes every chunk once; later calls share the result. */
  hashes(ctx: TaskContext): Promise<XorbHashes> {
    this.hashing ??= hashChunks(this.src, this.chunks, this.regionEnd, ctx).then(
      (h) => (this.done = h),
      (e: unknown) => {
        this.hashing = undefined;
        throw e;
      },
    );
    return this.hashing;
  }
}
