/**
 * The xorb's checks on every read path (issue 17). A chunk leaves `cat`, a converter or the
 * preview only after its decoded bytes are vouched for by the footer: they hash to the footer's
 * chunk hash, or (when that entry is what is damaged) every chunk together gives the footer's xorb
 * hash, the merkle root over all chunk hashes and sizes. That second check decodes the whole
 * xorb, so it runs only for a chunk the first one fails. A footer that cannot be read vouches for
 * nothing: a strict read stops there. A footerless xorb named by its hash is vouched for by its
 * name: every chunk together must give it before the first leaves.
 */
import { throwIfAborted, type FormatError } from '../../errors.js';
import { damageFrom, reportDamage, type Coverage, type CoveragePart, type Damage } from '../../integrity.js';
import type { ByteRange, TaskContext } from '../../model.js';
import { headerProblem } from './chunks.js';
import { decodedChunks, type XorbHashes } from './decode.js';
import { chunkHasher, hashToString, sameHash } from './hash.js';
import { CHUNK_HEADER_BYTES, FOOTER_HEAD, FOOTER_V1_TAIL, HASH_BYTES, footerParts } from './model.js';
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

/** True when every chunk decodes and together they give the footer's xorb hash: then each is intact, whatever the footer's list says. */
function chunksGiveXorbHash(x: XorbFile, hashes: XorbHashes): boolean {
  return x.footer !== undefined && hashes.tree !== undefined && sameHash(hashes.tree.root.hash, x.footer.xorbHash);
}

/**
 * Why decoded chunk `i` (hashing to `hash`) is not vouched for by the footer, or undefined when it
 * is, or when there is no footer. `all` gives every chunk's hash, for a chunk whose footer entry
 * differs or is missing: it may be the entry that is damaged.
 */
async function hashProblem(x: XorbFile, i: number, hash: Uint8Array, all: () => Promise<XorbHashes>): Promise<Damage | undefined> {
  const f = x.footer;
  if (!f) return undefined;
  const stated = f.chunkHashes[i];
  if (stated && sameHash(stated, hash)) return undefined;
  if (chunksGiveXorbHash(x, await all())) return undefined;
  return hashDamage(x, i, hash);
}

/** Chunk `i`, hashing to `hash`, that neither its footer entry nor the xorb hash vouches for. */
function hashDamage(x: XorbFile, i: number, hash: Uint8Array): Damage {
  const f = x.footer!;
  const stated = f.chunkHashes[i];
  const payload = x.chunks[i]!.offset + CHUNK_HEADER_BYTES;
  if (!stated)
    return chunkDamage(
      x,
      i,
      `the footer lists ${f.chunkCount} chunks, so it states no hash for this one, and the chunks do not give its xorb hash`,
      payload,
      'corrupt',
    );
  return chunkDamage(x, i, `BLAKE3 hash ${hashToString(hash)} differs from the footer's ${hashToString(stated)}`, payload, 'checksum');
}

/** Chunk `i` that could not be decoded. */
function decodeDamage(x: XorbFile, i: number, e: FormatError): Damage {
  const d = damageFrom(`chunk ${i}`, e);
  return chunkDamage(x, i, d.detail, d.offset ?? x.chunks[i]!.offset, d.code);
}

function footerRange(x: XorbFile): ByteRange {
  return { offset: x.regionEnd, length: x.src.size - x.regionEnd };
}

/** The unreadable footer of a full xorb, as damage; undefined when there is none. */
function footerDamage(x: XorbFile): Damage | undefined {
  if (!x.footerError) return undefined;
  const d = damageFrom('footer', x.footerError, { range: footerRange(x) });
  return { ...d, detail: `${d.detail}; no chunk hash can be checked` };
}

/**
 * A footerless xorb named by its hash (a CAS file) stores no chunk hash, but its name states the
 * xorb hash over all chunks: before any chunk leaves, the chunks must give it. Nothing locates a
 * mismatch, so every chunk asked for is one damaged unit. Undefined when they give it, or when the
 * file has a footer or a name that is no hash.
 */
async function nameDamage(x: XorbFile, ctx: TaskContext, from: number, end: number): Promise<Damage | undefined> {
  const named = x.expectedHash;
  if (x.footer || x.footerError || !named) return undefined;
  const root = (await x.hashes(ctx)).tree?.root.hash;
  if (root && sameHash(root, named)) return undefined;
  const detail = root
    ? `the chunks hash to ${hashToString(root)}, the file name says ${hashToString(named)}`
    : `not every chunk decodes, so they cannot be checked against the xorb hash the file name states (${hashToString(named)})`;
  return {
    unit: `chunks ${from}–${end - 1} (the file name's xorb hash)`,
    detail,
    range: { offset: 0, length: x.regionEnd },
    rows: { from, count: end - from },
    offset: 0,
    code: root ? 'checksum' : 'corrupt',
  };
}

/**
 * Chunks [from, from + count) that pass their checks, in order, decoded. Each check runs before
 * its chunk is yielded: an unreadable footer, a chunk that does not decode or that the footer
 * does not vouch for, and chunk data the walk could not locate are reported (`reportDamage`),
 * which throws unless the caller salvages; salvaging, the damaged ones are left out. With the
 * footer unreadable, a salvaging caller gets the chunks that decode, unchecked, and the footer listed.
 */
export async function* checkedChunks(x: XorbFile, ctx: TaskContext, from = 0, count = Number.POSITIVE_INFINITY): AsyncGenerator<CheckedChunk> {
  const footer = footerDamage(x);
  if (footer) reportDamage(ctx, footer);
  const hasher = await chunkHasher();
  const all = () => x.hashes(ctx);
  const end = Math.min(x.chunks.length, from + count);
  const named = end > from ? await nameDamage(x, ctx, from, end) : undefined;
  if (named) {
    // Salvaging, no chunk is vouched for: all are left out, listed as the one unit.
    reportDamage(ctx, named);
    return;
  }
  for await (const { index: i, value, error } of decodedChunks(x.src, x.chunks, x.regionEnd, from, end)) {
    throwIfAborted(ctx.signal);
    if (error) {
      reportDamage(ctx, decodeDamage(x, i, error));
      continue;
    }
    const hash = hasher(value);
    const problem = await hashProblem(x, i, hash, all);
    if (problem) reportDamage(ctx, problem);
    else yield { index: i, bytes: value, hash };
  }
  if (x.walk.stop && from + count > x.chunks.length) {
    // The last chunk found may overrun the chunk data: then it was reported above, as damaged.
    const last = x.chunks.length === 0 ? undefined : chunkRange(x, x.chunks.length - 1);
    const located = last ? last.offset + last.length : 0;
    if (located < x.regionEnd)
      reportDamage(
        ctx,
        damageFrom(`chunk data after chunk ${x.chunks.length - 1}`, x.walk.stop, { range: { offset: located, length: x.regionEnd - located } }),
      );
  }
}

/**
 * What a damaged chunk is, as the viewer knows it from the hashes computed so far (undefined
 * when they are not computed yet, or the chunk is intact). An unreadable footer is not included:
 * the summary and warnings show it.
 */
export function knownChunkDamage(x: XorbFile, i: number): Damage | undefined {
  const known = x.known;
  const outcome = known?.chunks[i];
  if (!known || !outcome) {
    // Not hashed yet: a header the reference reader rejects is damage all the same.
    const problem = headerProblem(x.chunks[i]!);
    return problem ? decodeDamage(x, i, problem) : undefined;
  }
  if (outcome.error) return decodeDamage(x, i, outcome.error);
  const stated = x.footer?.chunkHashes[i];
  if (!x.footer || (stated && sameHash(stated, outcome.hash)) || chunksGiveXorbHash(x, known)) return undefined;
  return hashDamage(x, i, outcome.hash);
}

/**
 * The damage of one chunk for a viewer that shows its decoded `bytes`: the unreadable footer, or
 * a hash the footer does not vouch for; undefined when the chunk passes.
 */
export async function chunkDamageOf(x: XorbFile, i: number, bytes: Uint8Array, ctx: TaskContext): Promise<Damage | undefined> {
  return footerDamage(x) ?? (await hashProblem(x, i, (await chunkHasher())(bytes), () => x.hashes(ctx)));
}

/** Which of a xorb's bytes its checks cover (DESIGN.md, issue 17), as opened. */
export function xorbCoverage(x: XorbFile): Coverage {
  const region: ByteRange = { offset: 0, length: x.regionEnd };
  const f = x.footer;
  if (!f && !x.footerError && x.expectedHash) {
    return {
      parts: [
        { part: 'chunks (headers and payloads)', check: "the xorb hash the file name states, over every chunk's BLAKE3 hash and size", ranges: [region] },
      ],
    };
  }
  if (!f) {
    const why = x.footerError ? 'chunks (the footer that holds their hashes is unreadable)' : 'chunks (a footerless xorb stores no hashes)';
    const parts: CoveragePart[] = [{ part: why, check: null, ranges: [region] }];
    if (x.footerError) parts.push({ part: 'footer', check: null, ranges: [footerRange(x)] });
    return { parts };
  }
  const n = f.chunkCount;
  const p = footerParts(f.version, f.offset, n);
  return {
    parts: [
      {
        part: 'chunks (headers and payloads)',
        check: "the footer's BLAKE3 chunk hash of each chunk's decoded bytes, or (for a chunk whose entry differs) its xorb hash over all chunks",
        ranges: [region],
      },
      {
        part: 'footer xorb hash and chunk hashes',
        check: 'the decoded chunks: a read path trusts an entry only when the chunk, or all chunks for the xorb hash, hash to it',
        ranges: [FOOTER_HEAD.range('xorbHash', f.offset), { offset: p.hashes, length: HASH_BYTES * n }],
      },
      {
        part: `footer chunk boundaries${f.version === 1 ? ' and unpacked offsets' : ''} (read paths locate chunks by their headers)`,
        check: null,
        ranges: [{ offset: p.boundaries, length: (f.version === 1 ? 8 : 4) * n }],
      },
      {
        part: 'footer reserved bytes (the uniqueness nonce)',
        check: null,
        ranges: [f.version === 1 ? FOOTER_V1_TAIL.range('reserved', p.tail) : { offset: p.tail, length: p.end - p.tail }],
      },
      { part: 'footer idents, versions, counts, section offsets and length (a damaged one makes the footer unreadable)', check: null },
    ],
  };
}
