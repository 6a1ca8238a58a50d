import { fail, failFrom, hex, hexString, info, pass, plural, warn } from '../../describe.js';
import type { Check, TaskContext } from '../../model.js';
import { headerProblem } from './chunks.js';
import { MIN_CHUNK } from './cdc.js';
import { hashToString, sameHash } from './hash.js';
import { CHUNK_HEADER_BYTES, FOOTER_HEAD, MAX_XORB_BYTES, MAX_XORB_CHUNKS, type XorbFooter } from './model.js';
import type { XorbHashes } from './decode.js';
import type { XorbFile } from './xorbFile.js';

/**
 * Verification in the reference order (spec xorb.md §6): headers, footer, every chunk decoded
 * and hashed, the footer's boundaries and offsets, then the xorb hash against the footer and the
 * file name. A damaged footer fails; it is never rebuilt from the chunks.
 */
export async function* verifyXorb(x: XorbFile, ctx: TaskContext): AsyncIterable<Check> {
  yield* headerChecks(x);
  yield* contentChecks(x, await x.hashes(ctx));
  yield* limits(x);
}

/**
 * The problems a viewer shows as soon as the file opens: the failures and warnings of
 * verification, from the hashes computed at open (headers and footer only when they were not).
 */
export function openProblems(x: XorbFile): Check[] {
  const all = [...headerChecks(x), ...(x.known ? contentChecks(x, x.known) : []), ...limits(x)];
  return all.filter((c) => c.status === 'fail' || c.status === 'warn');
}

function* headerChecks(x: XorbFile): Iterable<Check> {
  let bad = 0;
  for (const [i, c] of x.chunks.entries()) {
    const problem = headerProblem(c);
    if (problem) {
      bad++;
      yield failFrom(`chunk ${i} header`, problem);
    }
  }
  if (x.walk.stop) yield failFrom('chunk layout', x.walk.stop);
  else if (bad === 0) yield pass('chunk headers', `${plural(x.chunks.length, 'chunk')} with valid headers tile [0, ${x.regionEnd})`);
  if (x.footerError) yield failFrom('footer', x.footerError);
}

function* contentChecks(x: XorbFile, hashes: XorbHashes): Iterable<Check> {
  const { chunks, footer } = x;
  let undecodable = 0;
  let mismatched = 0;
  for (const [i, outcome] of hashes.chunks.entries()) {
    const c = chunks[i]!;
    if (outcome.error) {
      undecodable++;
      // Header problems and the truncation that ended the walk are reported by headerChecks.
      if (!headerProblem(c) && outcome.error.code !== 'truncated') yield failFrom(`chunk ${i} payload`, outcome.error);
      continue;
    }
    const stored = footer?.chunkHashes[i];
    if (stored && !sameHash(stored, outcome.hash)) {
      mismatched++;
      yield fail(
        `chunk ${i} hash`,
        `the decoded bytes hash to ${hashToString(outcome.hash)}, the footer says ${hashToString(stored)}`,
        c.offset + CHUNK_HEADER_BYTES,
        'chunk payload',
      );
    }
  }
  if (undecodable === 0) yield pass('chunk payloads', `${plural(chunks.length, 'chunk')} decode to their declared sizes`);
  if (footer && mismatched === 0 && undecodable === 0 && footer.chunkCount === chunks.length)
    yield pass('chunk hashes', `all ${chunks.length} chunk hashes match the footer`);

  if (footer) yield* footerLayout(x, footer);

  const root = hashes.tree?.root.hash;
  if (root) {
    const text = hashToString(root);
    if (footer) {
      yield sameHash(footer.xorbHash, root)
        ? pass('xorb hash', `${text} matches the footer`)
        : fail('xorb hash', `computed ${text}, the footer says ${hashToString(footer.xorbHash)}`, FOOTER_HEAD.offset('xorbHash', footer.offset), 'xorb hash');
    } else yield info('xorb hash', `${text} (computed; a footerless xorb stores none)`);
    if (x.expectedHash) {
      yield sameHash(x.expectedHash, root)
        ? pass('file name', 'the file is named by its xorb hash')
        : fail('file name', `the file name says ${hashToString(x.expectedHash)}, the chunks hash to ${text}`, 0, 'file name');
    }
  } else if (chunks.length > 0) {
    yield fail('xorb hash', 'cannot be computed: not every chunk decodes', footer ? FOOTER_HEAD.offset('xorbHash', footer.offset) : 0, 'xorb hash');
  }
}

function* footerLayout(x: XorbFile, f: XorbFooter): Iterable<Check> {
  const chunks = x.chunks;
  yield pass('footer', `footer V${f.version}, ${f.infoLength} bytes, idents and section offsets consistent`, f.offset);
  if (f.chunkCount !== chunks.length) {
    yield fail('footer chunk count', `the footer lists ${f.chunkCount} chunks, the chunk data holds ${chunks.length}`, f.offset, 'chunk count');
    return;
  }
  let uncompressed = 0;
  let ok = true;
  for (const [i, c] of chunks.entries()) {
    const end = c.offset + CHUNK_HEADER_BYTES + c.compressedLength;
    if (f.boundaries[i] !== end) {
      yield fail('chunk boundaries', `chunk ${i} ends at ${end}, the footer says ${f.boundaries[i]}`, c.offset, 'chunk boundary offsets');
      ok = false;
      break;
    }
  }
  for (const [i, c] of chunks.entries()) {
    uncompressed += c.uncompressedLength;
    if (f.unpackedOffsets && f.unpackedOffsets[i] !== uncompressed) {
      yield fail(
        'unpacked offsets',
        `chunk ${i} ends at ${uncompressed} in the decompressed bytes, the footer says ${f.unpackedOffsets[i]}`,
        c.offset + 5,
        'unpacked chunk offsets',
      );
      ok = false;
      break;
    }
  }
  if (ok) yield pass('chunk boundaries', `boundaries${f.unpackedOffsets ? ' and unpacked offsets' : ''} match all ${chunks.length} chunk headers`);
  const last = chunks.length === 0 ? 0 : f.boundaries[chunks.length - 1]!;
  yield last === f.offset
    ? pass('chunk region', `chunks end exactly where the footer starts (${hex(f.offset)})`)
    : fail('chunk region', `chunks end at ${last}, the footer starts at ${f.offset}`, last, 'chunk region');
  if (f.reserved.subarray(4).some((b) => b !== 0)) yield warn('reserved bytes', 'footer reserved bytes 4–15 are not zero', x.src.size - 16);
  const nonce = f.reserved.subarray(0, 4);
  if (nonce.some((b) => b !== 0)) yield info('nonce', `uniqueness nonce ${hexString(nonce)} (not part of the xorb hash)`, x.src.size - 20);
}

function* limits(x: XorbFile): Iterable<Check> {
  const chunks = x.chunks;
  // Xet never forms larger xorbs and the server refuses them, so a file past a limit is no valid xorb.
  if (chunks.length > MAX_XORB_CHUNKS)
    yield fail('chunk count', `${chunks.length} chunks exceed the limit of ${MAX_XORB_CHUNKS} per xorb`, chunks[MAX_XORB_CHUNKS]!.offset, 'chunk count');
  if (x.regionEnd > MAX_XORB_BYTES)
    yield fail('xorb size', `${x.regionEnd} bytes of chunks exceed the ${MAX_XORB_BYTES >> 20} MiB limit per xorb`, MAX_XORB_BYTES, 'xorb size');
  // CDC never cuts below 8 KiB except at the end of a file, so small chunks mark file ends.
  const small = chunks.filter((c, i) => c.uncompressedLength < MIN_CHUNK && i < chunks.length - 1).length;
  if (small > 0)
    yield info('chunk sizes', `${plural(small, 'chunk')} under 8 KiB before the last one: each ends a file, or the chunks were not cut by xet's chunker`);
}
