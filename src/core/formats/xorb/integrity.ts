/**
 * The xorb's checks on every read path (issue 17). A chunk leaves `cat`, a converter or the
 * preview only after its decoded bytes hash to the footer's chunk hash; the footer's chunk hashes
 * count only when they give the footer's xorb hash (the merkle root over them and the chunk
 * sizes), which is checked once, before the first chunk leaves.
 */
import { throwIfAborted } from '../../errors.js';
import { damageFrom, reportDamage, type Coverage, type CoveragePart, type Damage } from '../../integrity.js';
import type { ByteRange, TaskContext } from '../../model.js';
import type { FormatError } from '../../errors.js';
import { headerProblem } from './chunks.js';
import { decodedChunks } from './decode.js';
import { chunkHasher, hashToString, sameHash } from './hash.js';
import { merkleTree } from './merkle.js';
import { CHUNK_HEADER_BYTES, type XorbFooter } from './model.js';
import type { XorbFile } from './xorbFile.js';

/** A chunk whose decoded bytes passed every check the file carries. */
export interface CheckedChunk {
  readonly index: number;
  /** The decoded bytes, the chunk's own (not a codec's memory). */
  readonly bytes: Uint8Array;
  /** Keyed BLAKE3 of `bytes`. */
  readonly hash: Uint8Array;
}

/** Chunk `i`'s bytes in the file, header included, cut at the end of the chunk data. */
export function chunkRange(x: XorbFile, i: number): ByteRange {
  const c = x.chunks[i]!;
  return { offset: c.offset, length: Math.min(x.regionEnd, c.offset + CHUNK_HEADER_BYTES + c.compressedLength) - c.offset };
}

/** Where chunk `i`'s bytes sit in the decompressed xorb, as the headers before it say. */
function decompressedSpan(x: XorbFile, i: number): string {
  let at = 0;
  for (let k = 0; k < i; k++) at += x.chunks[k]!.uncompressedLength;
  return `decompressed bytes ${at}–${at + x.chunks[i]!.uncompressedLength}`;
}

/** Chunk `i` as a damaged unit: its bytes in the file, its index (what --from counts), and where its bytes were in the output. */
function chunkDamage(x: XorbFile, i: number, detail: string, offset: number, code: Damage['code']): Damage {
  return { unit: `chunk ${i}`, detail: `${detail} (${decompressedSpan(x, i)})`, range: chunkRange(x, i), rows: { from: i, count: 1 }, offset, code };
}

/** Why decoded chunk `i` (hashing to `hash`) is not what the footer lists, or undefined when it is, or when there is no footer. */
function hashProblem(x: XorbFile, i: number, hash: Uint8Array): Damage | undefined {
  const f = x.footer;
  if (!f) return undefined;
  const payload = x.chunks[i]!.offset + CHUNK_HEADER_BYTES;
  const stated = f.chunkHashes[i];
  if (!stated) return chunkDamage(x, i, `the footer lists ${f.chunkCount} chunks, so it states no hash for this one`, payload, 'corrupt');
  if (sameHash(stated, hash)) return undefined;
  return chunkDamage(x, i, `BLAKE3 hash ${hashToString(hash)} differs from the footer's ${hashToString(stated)}`, payload, 'checksum');
}

/** Chunk `i` that could not be decoded. */
function decodeDamage(x: XorbFile, i: number, e: FormatError): Damage {
  const d = damageFrom(`chunk ${i}`, e);
  return chunkDamage(x, i, d.detail, d.offset ?? x.chunks[i]!.offset, d.code);
}

/** The chunk sizes the xorb hash is over: the footer's own (V1 unpacked offsets), else the headers'; undefined when the counts differ. */
function leafSizes(x: XorbFile, f: XorbFooter): number[] | undefined {
  if (f.unpackedOffsets) return f.unpackedOffsets.map((end, i) => end - (i === 0 ? 0 : f.unpackedOffsets![i - 1]!));
  return f.chunkCount === x.chunks.length ? x.chunks.map((c) => c.uncompressedLength) : undefined;
}

function footerRange(x: XorbFile): ByteRange {
  return { offset: x.regionEnd, length: x.src.size - x.regionEnd };
}

async function checkFooter(x: XorbFile): Promise<Damage | undefined> {
  if (x.footerError) {
    const d = damageFrom('footer', x.footerError, { range: footerRange(x) });
    return { ...d, detail: `${d.detail}; no chunk hash can be checked` };
  }
  const f = x.footer;
  if (!f) return undefined;
  const sizes = leafSizes(x, f);
  if (!sizes) {
    return { unit: 'footer', detail: `it lists ${f.chunkCount} chunks, the chunk data holds ${x.chunks.length}: its chunk hashes cannot be checked against its xorb hash`, range: footerRange(x), offset: f.offset + 8, code: 'corrupt' };
  }
  const root = (await merkleTree(f.chunkHashes.map((hash, i) => ({ hash, size: sizes[i]! })))).root.hash;
  if (sameHash(root, f.xorbHash)) return undefined;
  return { unit: 'footer', detail: `its chunk hashes give the xorb hash ${hashToString(root)}, it states ${hashToString(f.xorbHash)}`, range: footerRange(x), offset: f.offset + 8 };
}

const footerChecks = new WeakMap<XorbFile, Promise<Damage | undefined>>();

/**
 * Why the footer's chunk hashes cannot be trusted (unreadable, or not giving its xorb hash), or
 * undefined when they can or there is no footer. Computed once per file: it reads no chunk.
 */
export function footerDamage(x: XorbFile): Promise<Damage | undefined> {
  let p = footerChecks.get(x);
  if (!p) footerChecks.set(x, (p = checkFooter(x)));
  return p;
}

/**
 * Chunks [from, from + count) that pass their checks, in order, decoded. Each check runs before
 * its chunk is yielded: a damaged footer, a chunk that does not decode or hashes to another hash
 * than the footer's, and chunk data the walk could not locate are reported (`reportDamage`), which
 * throws unless the caller salvages; salvaging, the damaged ones are left out. With the footer
 * damaged, a salvaging caller gets the chunks that decode and match the (untrusted) hashes.
 */
export async function* checkedChunks(x: XorbFile, ctx: TaskContext, from = 0, count = Number.POSITIVE_INFINITY): AsyncGenerator<CheckedChunk> {
  const footer = await footerDamage(x);
  if (footer) reportDamage(ctx, footer);
  const hasher = await chunkHasher();
  const end = Math.min(x.chunks.length, from + count);
  for await (const { index: i, value, error } of decodedChunks(x.src, x.chunks, x.regionEnd, from, end)) {
    throwIfAborted(ctx.signal);
    if (error) {
      reportDamage(ctx, decodeDamage(x, i, error));
      continue;
    }
    const hash = hasher(value);
    const problem = hashProblem(x, i, hash);
    if (problem) reportDamage(ctx, problem);
    else yield { index: i, bytes: value, hash };
  }
  if (x.walk.stop && from + count > x.chunks.length) {
    // The last chunk found may overrun the chunk data: then it was reported above, as damaged.
    const located = x.chunks.length === 0 ? 0 : Math.min(x.regionEnd, chunkRange(x, x.chunks.length - 1).offset + chunkRange(x, x.chunks.length - 1).length);
    if (located < x.regionEnd) {
      const d = damageFrom(`chunk data after chunk ${x.chunks.length - 1}`, x.walk.stop, { range: { offset: located, length: x.regionEnd - located } });
      reportDamage(ctx, d);
    }
  }
}

/**
 * What a damaged chunk is, as the viewer knows it from the hashes computed so far (undefined
 * when they are not computed yet, or the chunk is intact). It does not include footer damage,
 * which the summary and warnings show.
 */
export function knownChunkDamage(x: XorbFile, i: number): Damage | undefined {
  const outcome = x.known?.chunks[i];
  if (!outcome) {
    // Not hashed yet: a header the reference reader rejects is damage all the same.
    const problem = headerProblem(x.chunks[i]!);
    return problem ? decodeDamage(x, i, problem) : undefined;
  }
  return outcome.error ? decodeDamage(x, i, outcome.error) : hashProblem(x, i, outcome.hash);
}

/**
 * The damage of one chunk for a viewer that shows its bytes: the footer's, a decode failure, or a
 * hash that differs from the footer's; undefined when the chunk passes.
 */
export async function chunkDamageOf(x: XorbFile, i: number, bytes: Uint8Array): Promise<Damage | undefined> {
  const footer = await footerDamage(x);
  if (footer) return footer;
  return hashProblem(x, i, (await chunkHasher())(bytes));
}

/** Which of a xorb's bytes its checks cover (DESIGN.md, issue 17), as opened. */
export function xorbCoverage(x: XorbFile): Coverage {
  const region: ByteRange = { offset: 0, length: x.regionEnd };
  const f = x.footer;
  if (!f) {
    const why = x.footerError ? 'chunks (the footer that holds their hashes is unreadable)' : 'chunks (a footerless xorb stores no hashes)';
    const parts: CoveragePart[] = [{ part: why, check: null, ranges: [region] }];
    if (x.footerError) parts.push({ part: 'footer', check: null, ranges: [footerRange(x)] });
    return { parts };
  }
  const n = f.chunkCount;
  const at = f.offset;
  // V1: ident 7, version 1, xorb hash 32; hash section (ident+version 8, count 4, hashes);
  // boundary section (ident+version 8, count 4, boundaries, unpacked offsets); tail.
  // V0: ident, version, xorb hash, count 4, boundaries, hashes, reserved 16.
  const hashes = f.version === 1 ? at + 40 + 12 : at + 44 + 4 * n;
  const boundaries = f.version === 1 ? at + 40 + 12 + 32 * n + 12 : at + 44;
  const covered: ByteRange[] = [{ offset: at + 8, length: 32 }, { offset: hashes, length: 32 * n }];
  // The sizes enter the merkle text only above one chunk: a lone chunk's hash is the xorb hash.
  const sizesCovered = f.version === 1 && n > 1;
  if (sizesCovered) covered.push({ offset: boundaries + 4 * n, length: 4 * n });
  const reserved = x.src.size - 4 - 16;
  return {
    parts: [
      { part: 'chunks (headers and payloads)', check: "BLAKE3 chunk hashes in the footer, of each chunk's decoded bytes", ranges: [region] },
      {
        part: `footer xorb hash and chunk hashes${sizesCovered ? ' and unpacked offsets' : ''}`,
        check: 'the xorb hash: the merkle root over the chunk hashes and sizes',
        ranges: covered,
      },
      { part: 'footer chunk boundaries (read paths locate chunks by their headers)', check: null, ranges: [{ offset: boundaries, length: 4 * n }] },
      ...(f.version === 1 && !sizesCovered ? [{ part: 'footer unpacked offsets (one chunk: its hash alone is the xorb hash)', check: null, ranges: [{ offset: boundaries + 4 * n, length: 4 * n }] }] : []),
      { part: 'footer reserved bytes (the uniqueness nonce)', check: null, ranges: [{ offset: reserved, length: 16 }] },
      { part: 'footer idents, versions, counts, section offsets and length (a damaged one makes the footer unreadable)', check: null },
    ],
  };
}
