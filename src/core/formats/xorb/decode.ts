import { decodeLz4Frame } from '../../codecs/lz4.js';
import { FormatError, rethrowUnlessFormatError, throwIfAborted } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { yieldToEventLoop } from '../../io/scan.js';
import type { TaskContext } from '../../model.js';
import { bg4Regroup } from './bg4.js';
import { headerProblem } from './chunks.js';
import { chunkHasher } from './hash.js';
import { merkleTree, type MerkleNode, type MerkleTree } from './merkle.js';
import { CHUNK_HEADER, CHUNK_HEADER_BYTES, type ChunkHeader, MAX_CHUNK_BYTES, Scheme } from './model.js';

/**
 * A chunk's bytes from its payload, with every rule of the reference reader: a valid header,
 * a strict LZ4 frame for schemes 1 and 2, and exactly the header's uncompressed length.
 * `transient` bytes may be a codec's own memory (LZ4's, BG4's), overwritten by the next decode (even
 * another document's): use them before any await.
 */
export function decodeChunk(h: ChunkHeader, payload: Uint8Array, transient = false): Uint8Array {
  const problem = headerProblem(h);
  if (problem) throw problem;
  const at = h.offset + CHUNK_HEADER_BYTES;
  // BG4 regroups the decoded bytes at once, so it takes the decoder's view; a caller done with
  // the bytes before the next decode (`transient`) takes the decoder's or the regrouping's.
  const lz4 = (view: boolean) => decodeLz4Frame(payload, { maxSize: MAX_CHUNK_BYTES, offset: at, field: 'chunk payload (LZ4 frame)', view });
  const data = h.scheme === Scheme.None ? payload : h.scheme === Scheme.LZ4 ? lz4(transient) : bg4Regroup(lz4(true), transient);
  if (data.length !== h.uncompressedLength) {
    const what = h.scheme === Scheme.None ? `a stored (scheme 0) payload of ${data.length} bytes` : `the payload decodes to ${data.length} bytes`;
    throw new FormatError('corrupt', `${what}, the header says ${h.uncompressedLength}`, CHUNK_HEADER.at('uncompressedLength', h.offset));
  }
  return data;
}

/** Why chunk `h`'s payload is not inside [0, regionEnd), or undefined when it is. */
function payloadProblem(h: ChunkHeader, regionEnd: number): FormatError | undefined {
  const at = h.offset + CHUNK_HEADER_BYTES;
  if (at + h.compressedLength <= regionEnd) return undefined;
  return new FormatError(
    'truncated',
    `payload of ${h.compressedLength} bytes runs ${at + h.compressedLength - regionEnd} bytes past the end of the chunk data`,
    { offset: at, field: 'chunk payload' },
  );
}

/** Reads and decodes chunk `h`, whose payload must lie inside [0, regionEnd). */
export async function readChunk(src: ByteSource, h: ChunkHeader, regionEnd: number): Promise<Uint8Array> {
  const problem = payloadProblem(h, regionEnd);
  if (problem) throw problem;
  return decodeChunk(h, await src.read(h.offset + CHUNK_HEADER_BYTES, h.compressedLength));
}

/**
 * Chunk bytes read at once when decoding chunks in order; the next read runs while these
 * decode. The first batches are smaller, so decoding starts after a short read.
 */
const BATCH_BYTES = 4 << 20;
const FIRST_BATCH_BYTES = 256 << 10;

/** What `use` made of chunk `index`'s bytes, or why the chunk could not be decoded. */
export type DecodedChunk<T> =
  | { readonly index: number; readonly value: T; readonly error?: undefined }
  | { readonly index: number; readonly value?: undefined; readonly error: FormatError };

/**
 * Chunks [from, end) decoded in order, each handed to `use` at once. They are read in batches
 * of about BATCH_BYTES of the file, and the next batch is read (in Node's thread pool) while
 * this one decodes, so reading overlaps decoding and hashing; memory stays at two batches.
 *
 * The bytes `use` gets may be a codec's own memory (LZ4's, BG4's): valid during the call only, since
 * any other decode (another document's, after any await) overwrites it. `use` must copy what it
 * keeps; without `use` the chunks come as bytes of their own.
 */
export function decodedChunks(
  src: ByteSource,
  chunks: readonly ChunkHeader[],
  regionEnd: number,
  from?: number,
  end?: number,
): AsyncGenerator<DecodedChunk<Uint8Array>>;
export function decodedChunks<T>(
  src: ByteSource,
  chunks: readonly ChunkHeader[],
  regionEnd: number,
  from: number,
  end: number,
  use: (bytes: Uint8Array) => T,
): AsyncGenerator<DecodedChunk<T>>;
export async function* decodedChunks<T>(
  src: ByteSource,
  chunks: readonly ChunkHeader[],
  regionEnd: number,
  from = 0,
  end = chunks.length,
  use?: (bytes: Uint8Array) => T,
): AsyncGenerator<DecodedChunk<T | Uint8Array>> {
  const payloadEnd = (h: ChunkHeader) => Math.min(regionEnd, h.offset + CHUNK_HEADER_BYTES + h.compressedLength);
  // With `use`, no bytes outlive their batch, so two buffers take turns (a buffer per batch cost
  // page faults and collections); without it, payloads of scheme 0 are handed out as they are.
  const readInto = use ? src.readInto?.bind(src) : undefined;
  const buffers: Uint8Array[] = [];
  // Sized for the batches to come, not for BATCH_BYTES: a small xorb is hashed at open, and two
  // 4 MiB buffers zeroed for it halved the fuzz harness's inputs per second.
  const span = from < end ? payloadEnd(chunks[end - 1]!) - chunks[from]!.offset : 0;
  const readBatch = (k: number, start: number, length: number): Promise<Uint8Array> => {
    if (!readInto) return src.read(start, length);
    if ((buffers[k]?.length ?? -1) < length) buffers[k] = new Uint8Array(Math.max(length, Math.min(span, BATCH_BYTES)));
    const target = buffers[k]!.subarray(0, length);
    return readInto(start, target).then(() => target);
  };
  let issued = 0;
  const batchFrom = (first: number) => {
    const budget = Math.min(BATCH_BYTES, FIRST_BATCH_BYTES * 2 ** issued);
    const start = chunks[first]!.offset;
    let last = first;
    let stop = payloadEnd(chunks[first]!);
    while (last + 1 < end) {
      const reach = payloadEnd(chunks[last + 1]!);
      if (reach - start > budget) break;
      stop = Math.max(stop, reach);
      last++;
    }
    const bytes = readBatch(issued++ & 1, start, Math.max(0, stop - start));
    // Read ahead: a batch that is never awaited (cancelled, or an error above) must not reject unobserved.
    bytes.catch(() => undefined);
    return { first, end: last + 1, start, bytes };
  };
  let next = from < end ? batchFrom(from) : undefined;
  while (next) {
    const batch = next;
    const bytes = await batch.bytes;
    next = batch.end < end ? batchFrom(batch.end) : undefined;
    for (let i = batch.first; i < batch.end; i++) {
      const h = chunks[i]!;
      const problem = payloadProblem(h, regionEnd);
      if (problem) {
        yield { index: i, error: problem };
        continue;
      }
      const at = h.offset + CHUNK_HEADER_BYTES - batch.start;
      let value: T | Uint8Array;
      try {
        const data = decodeChunk(h, bytes.subarray(at, at + h.compressedLength), use !== undefined);
        // Synchronously, before anything else can decode into the same memory.
        value = use ? use(data) : data;
      } catch (e) {
        rethrowUnlessFormatError(e);
        yield { index: i, error: e };
        continue;
      }
      yield { index: i, value };
    }
  }
}

/** What decoding and hashing one chunk gave: its hash, or why it has none. */
export type ChunkOutcome = { readonly hash: Uint8Array; readonly error?: undefined } | { readonly hash?: undefined; readonly error: FormatError };

export interface XorbHashes {
  readonly chunks: readonly ChunkOutcome[];
  /** The merkle tree over every chunk; undefined when a chunk could not be hashed. */
  readonly tree?: MerkleTree;
}

/** Bytes decoded between two yields to the event loop. */
const SLICE_BYTES = 4 << 20;

/**
 * Decodes and hashes every chunk (in order, one at a time, so memory stays at one chunk) and
 * builds the merkle tree when all of them decoded.
 */
export async function hashChunks(src: ByteSource, chunks: readonly ChunkHeader[], regionEnd: number, ctx: TaskContext): Promise<XorbHashes> {
  const hash = await chunkHasher();
  const out: ChunkOutcome[] = [];
  const total = chunks.reduce((s, c) => s + c.compressedLength, 0);
  let done = 0;
  let sinceYield = 0;
  // Hashed as each chunk decodes, so its bytes need not be copied out of the decoder.
  for await (const c of decodedChunks(src, chunks, regionEnd, 0, chunks.length, hash)) {
    throwIfAborted(ctx.signal);
    const h = chunks[c.index]!;
    out.push(c.error ? { error: c.error } : { hash: c.value });
    done += h.compressedLength;
    sinceYield += h.compressedLength + h.uncompressedLength;
    if (sinceYield >= SLICE_BYTES) {
      sinceYield = 0;
      ctx.progress?.({ done, total, message: 'decoding and hashing chunks' });
      await yieldToEventLoop();
    }
  }
  const leaves: MerkleNode[] = [];
  for (const [i, o] of out.entries()) if (o.hash) leaves.push({ hash: o.hash, size: chunks[i]!.uncompressedLength });
  return { chunks: out, tree: leaves.length === out.length && leaves.length > 0 ? await merkleTree(leaves) : undefined };
}
