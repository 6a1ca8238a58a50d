import { decodeLz4Frame } from '../../codecs/lz4.js';
import { FormatError, throwIfAborted } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { yieldToEventLoop } from '../../io/scan.js';
import type { TaskContext } from '../../model.js';
import { bg4Regroup } from './bg4.js';
import { headerProblem } from './chunks.js';
import { chunkHasher } from './hash.js';
import { merkleTree, type MerkleNode, type MerkleTree } from './merkle.js';
import { CHUNK_HEADER_BYTES, type ChunkHeader, MAX_CHUNK_BYTES, Scheme } from './model.js';

/**
 * A chunk's bytes from its payload, with every rule of the reference reader: a valid header,
 * a strict LZ4 frame for schemes 1 and 2, and exactly the header's uncompressed length.
 */
export function decodeChunk(h: ChunkHeader, payload: Uint8Array): Uint8Array {
  const problem = headerProblem(h);
  if (problem) throw problem;
  const at = h.offset + CHUNK_HEADER_BYTES;
  // BG4 regroups the decoded bytes into a buffer of its own at once, so it takes the decoder's view.
  const lz4 = (view: boolean) => decodeLz4Frame(payload, { maxSize: MAX_CHUNK_BYTES, offset: at, field: 'chunk payload (LZ4 frame)', view });
  const data = h.scheme === Scheme.None ? payload : h.scheme === Scheme.LZ4 ? lz4(false) : bg4Regroup(lz4(true));
  if (data.length !== h.uncompressedLength) {
    const what = h.scheme === Scheme.None ? `a stored (scheme 0) payload of ${data.length} bytes` : `the payload decodes to ${data.length} bytes`;
    throw new FormatError('corrupt', `${what}, the header says ${h.uncompressedLength}`, { offset: h.offset + 5, field: 'uncompressed length' });
  }
  return data;
}

/** Reads and decodes chunk `h`, whose payload must lie inside [0, regionEnd). */
export async function readChunk(src: ByteSource, h: ChunkHeader, regionEnd: number): Promise<Uint8Array> {
  const at = h.offset + CHUNK_HEADER_BYTES;
  if (at + h.compressedLength > regionEnd) {
    throw new FormatError('truncated', `payload of ${h.compressedLength} bytes runs ${at + h.compressedLength - regionEnd} bytes past the end of the chunk data`, { offset: at, field: 'chunk payload' });
  }
  return decodeChunk(h, await src.read(at, h.compressedLength));
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
  for (const h of chunks) {
    throwIfAborted(ctx.signal);
    try {
      out.push({ hash: hash(await readChunk(src, h, regionEnd)) });
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      out.push({ error: e });
    }
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
