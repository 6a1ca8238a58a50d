import { sha256Digester } from '../../codecs/sha256.js';
import { fail, failFrom, hex, hexBytes, hexString, info, pass, plural, warn } from '../../describe.js';
import { throwIfAborted } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { Check, TaskContext } from '../../model.js';
import { fileChecksum } from './checks.js';
import { ChunkReader, type ColumnView } from './columns.js';
import type { Container } from './container.js';
import { frameCrc } from './frames.js';
import { decodeChecks } from './decodeChecks.js';
import { leafHash, merkleRoot } from './merkle.js';
import {
  FLAG_SKIPPABLE,
  FOOTER_FRAME_BYTES,
  FRAME_HEADER_BYTES,
  FileFlag,
  FrameType,
  RESERVED_FLAGS,
  frameLength,
  frameTypeName,
  type FrameHeader,
} from './model.js';
import { typeText } from './schema.js';

/**
 * Every check of spec C.12, each finding with its offset: frame CRCs, the footer and its section
 * table, the file checksum, the schema fingerprint, the Merkle leaves and root, the chunk
 * indexes, then a full decode that compares stats, Bloom filters and sorted ranges with the
 * values themselves. Integrity checks come first: they need no decoding.
 */
export function notUnderstood(f: FrameHeader): boolean {
  return (f.type > FrameType.Footer && f.type !== FrameType.UserMeta) || (f.flags & RESERVED_FLAGS) !== 0;
}

const ORDER: Record<number, number> = { 1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 4, 7: 5, 8: 6 };

/** A frame's CRC-32C: the document's shared FrameChecks.crc, so what verify computes marks the tree too. */
type CrcOf = (f: FrameHeader, ctx: TaskContext) => Promise<number>;

export async function* verifyContainer(
  src: ByteSource,
  c: Container,
  views: readonly ColumnView[],
  reader: ChunkReader,
  ctx: TaskContext,
  crcOf?: CrcOf,
): AsyncIterable<Check> {
  yield pass('magic', '"BINDU\\0"', 0);
  yield c.preamble.size === 8
    ? warn('preamble', '8-byte preamble variant accepted (u16 version)', 0)
    : pass('preamble', `10-byte form, format major ${c.preamble.formatMajor}`, 0);
  if (c.preamble.formatMajor > 1) yield warn('format major', `${c.preamble.formatMajor} is newer than 1: read best-effort`, 6);
  if (c.walkStop) yield failFrom('frames', c.walkStop);
  yield* headerChecks(c, views);
  yield* verifyIntegrity(src, c, ctx, crcOf);
  yield* decodeChecks(c, views, reader, ctx);
}

/** The checks that need no decoding: frame CRCs, footer, file checksum, fingerprint, Merkle seal. */
export async function* verifyIntegrity(src: ByteSource, c: Container, ctx: TaskContext, crcOf: CrcOf = (f, x) => frameCrc(src, f, x)): AsyncIterable<Check> {
  yield* frameChecks(c, ctx, crcOf);
  yield* footerChecks(src, c, ctx);
  yield* fingerprintChecks(c);
  yield* merkleChecks(src, c, ctx);
}

async function* frameChecks(c: Container, ctx: TaskContext, crcOf: CrcOf): AsyncIterable<Check> {
  let bad = 0;
  let rank = 0;
  let orderWarned = false;
  for (const f of c.frames) {
    throwIfAborted(ctx.signal);
    const crc = await crcOf(f, ctx);
    if (crc !== f.storedCrc) {
      bad++;
      yield fail('frame CRC', `${frameTypeName(f.type)} frame: stored ${hex(f.storedCrc, 8)}, computed ${hex(crc, 8)}`, f.offset, 'frame CRC');
    }
    if (notUnderstood(f)) {
      yield f.flags & FLAG_SKIPPABLE
        ? info('unknown frame', `${frameTypeName(f.type)} frame skipped (skippable)`, f.offset)
        : fail(
            'critical frame',
            `${frameTypeName(f.type)} frame is not skippable and not understood: a decoder must stop here; the viewer goes on`,
            f.offset,
            'frame type',
          );
    }
    const problem = c.problems.get(f.offset);
    if (problem) yield failFrom(`${frameTypeName(f.type)} frame`, problem);
    const r = ORDER[f.type];
    if (r !== undefined) {
      if (r < rank && !orderWarned) {
        orderWarned = true;
        yield warn('frame order', `${frameTypeName(f.type)} frame after a later section (readers tolerate it)`, f.offset);
      }
      rank = Math.max(rank, r);
    }
  }
  if (bad === 0) yield pass('frame CRCs', `all ${plural(c.frames.length, 'frame')} match`);
}

function* headerChecks(c: Container, views: readonly ColumnView[]): Iterable<Check> {
  const h = c.header;
  const hf = c.frames.find((f) => f.type === FrameType.Header);
  if (!h) {
    if (!hf) yield fail('Header', 'no Header frame', c.preamble.size, 'Header');
    return;
  }
  const at = hf!.offset + FRAME_HEADER_BYTES;
  const problems: string[] = [];
  if (h.columnCount !== c.columns.length) problems.push(`column count ${h.columnCount}, but ${plural(c.columns.length, 'Column frame')}`);
  for (const col of c.columns)
    if (BigInt(col.rowCount) !== h.rowCount) problems.push(`column ${col.id} "${col.name}" has ${col.rowCount} rows, the Header says ${h.rowCount}`);
  c.columns.forEach((col, i) => col.id !== i && problems.push(`Column frame ${i} carries id ${col.id}`));
  if (c.schema) {
    for (const leaf of c.schema.leaves) {
      const col = c.columns.find((x) => x.id === leaf.id);
      if (!col) problems.push(`schema leaf ${leaf.id} "${leaf.name}" has no Column frame`);
      else if (typeText(col.type) !== typeText(leaf.type) || col.nullable !== leaf.nullable)
        problems.push(
          `column ${leaf.id}: the frame says ${typeText(col.type)}${col.nullable ? '?' : ''}, the schema ${typeText(leaf.type)}${leaf.nullable ? '?' : ''}`,
        );
    }
  }
  if (h.fileFlags & FileFlag.Stateful)
    yield info('stateful', `needs external state: ${h.extrefs.map((e) => e.locator).join(', ') || 'references not listed'}`, at);
  for (const v of views) if (v.undecodable) yield warn('describe-only', `column ${v.column.id} "${v.column.name}": ${v.undecodable}`, v.column.frame.offset);
  yield problems.length
    ? fail('Header', problems.join('; '), at, 'Header')
    : pass('Header', `${h.rowCount} rows × ${plural(h.columnCount, 'column')} agree with the Column frames`, at);
}

async function* footerChecks(src: ByteSource, c: Container, ctx: TaskContext): AsyncIterable<Check> {
  const raw = c.rawFooter;
  const tailAt = Math.max(0, src.size - FOOTER_FRAME_BYTES);
  if (!raw) {
    yield warn('footer', 'no footer in the last 512 bytes: frames found by a front-to-back scan', tailAt);
    return;
  }
  if (!raw.crcOk) yield fail('footer CRC', 'the footer frame CRC does not match: frames found by a front-to-back scan', raw.offset, 'footer CRC');
  if (raw.footerOffset !== raw.offset)
    yield fail(
      'footer offset',
      `footer_offset says ${raw.footerOffset}, the footer starts at ${raw.offset} (truncated or appended bytes)`,
      raw.offset + FRAME_HEADER_BYTES + 8,
      'footer offset',
    );
  const ft = c.footer;
  if (!ft) return;
  yield pass('footer', 'CRC, magic "BINDUFTR" and self offset match', ft.offset);
  const p = ft.offset + FRAME_HEADER_BYTES;
  const before = c.frames.length - 1;
  yield ft.frameCount === before
    ? pass('frame count', `${before} frames before the footer`, p + 16)
    : fail('frame count', `footer says ${ft.frameCount} frames, the file holds ${before}`, p + 16, 'frame count');
  let bad = false;
  for (const [i, s] of ft.sections.entries()) {
    const frames = c.frames.filter((f) => f.type === s.type);
    const first = frames[0]?.offset ?? 0;
    const span = frames.reduce((n, f) => n + frameLength(f), 0);
    if (frames.length !== s.count || first !== s.firstOffset || span !== s.span) {
      bad = true;
      yield fail(
        'section table',
        `${frameTypeName(s.type)}: footer says ${s.count} frames, ${s.span} bytes at ${s.firstOffset}; the file has ${frames.length}, ${span} bytes at ${first}`,
        p + 120 + 24 * i,
        'section table',
      );
    }
  }
  if (!bad) yield pass('section table', `${ft.sections.length} sections match the frames`, p + 120);
  if (c.header && hexString(ft.fingerprint) !== hexString(c.header.fingerprint))
    yield fail(
      'footer fingerprint',
      `the footer's copy ${hexString(ft.fingerprint)} differs from the Header's ${hexString(c.header.fingerprint)}`,
      p + 64,
      'schema fingerprint',
    );
  if (ft.checksumAlgo === 0 || !(ft.flags & 2)) {
    yield info('file checksum', 'none stored', p + 24);
    return;
  }
  const sum = await fileChecksum(src, ft, ctx);
  if (sum.kind === 'unknown') {
    yield fail('file checksum', `checksum algorithm ${sum.algo} is not 0, 1 or 2`, p + 24, 'checksum algorithm');
    return;
  }
  if (sum.kind === 'none') return;
  yield sum.ok
    ? pass('file checksum', `${sum.name} of bytes [0, ${ft.offset}) matches`, p + 32)
    : fail(
        'file checksum',
        `${sum.name} of bytes [0, ${ft.offset}): stored ${hexString(sum.stored)}, computed ${hexString(sum.computed)}`,
        p + 32,
        'file checksum',
      );
}

async function* fingerprintChecks(c: Container): AsyncIterable<Check> {
  const h = c.header;
  if (!h) return;
  const at = c.frames.find((f) => f.type === FrameType.Header)!.offset + FRAME_HEADER_BYTES;
  const schemaless = h.fingerprint.every((b) => b === 0);
  const embedded = (h.fileFlags & FileFlag.SchemaEmbedded) !== 0n;
  if (embedded !== (c.schemaFrame !== undefined))
    yield fail(
      'schema flag',
      `SCHEMA_EMBEDDED is ${embedded ? 'set' : 'clear'} but the file ${c.schemaFrame ? 'has' : 'has no'} Schema frame`,
      at + 16,
      'file flags',
    );
  if (!c.schemaBytes) {
    yield schemaless
      ? info('schema fingerprint', 'n/a (schemaless: fingerprint all zero)', at)
      : warn('schema fingerprint', `${hexBytes(h.fingerprint)} cannot be checked: the schema is not embedded`, at);
    return;
  }
  const computed = (await sha256Digester())(c.schemaBytes).subarray(0, 16);
  yield hexString(computed) === hexString(h.fingerprint)
    ? pass('schema fingerprint', `SHA-256 of the canonical schema bytes starts ${hexString(computed)}, as the Header says`, at)
    : fail(
        'schema fingerprint',
        `the Header says ${hexString(h.fingerprint)}, SHA-256 of the Schema payload gives ${hexString(computed)}`,
        at,
        'schema fingerprint',
      );
}

async function* merkleChecks(src: ByteSource, c: Container, ctx: TaskContext): AsyncIterable<Check> {
  const sealed = c.header ? (c.header.fileFlags & FileFlag.Sealed) !== 0n : false;
  const m = c.merkle;
  const mf = c.frames.find((f) => f.type === FrameType.MerkleTree);
  if (!mf) {
    yield sealed
      ? fail('Merkle', 'the Header says SEALED but there is no MerkleTree frame', undefined, 'file flags')
      : info('Merkle', 'unsealed (no MerkleTree frame)');
    return;
  }
  if (!m) return;
  if (!sealed) yield fail('Merkle', 'a MerkleTree frame in a file whose Header does not say SEALED', mf.offset, 'file flags');
  const expected = [
    { offset: 0, length: c.preamble.size, name: 'preamble' },
    ...c.frames.filter((f) => f.offset < mf.offset).map((f) => ({ offset: f.offset, length: frameLength(f), name: `${frameTypeName(f.type)} frame` })),
  ];
  const computed: Uint8Array[] = [];
  for (const leaf of expected) computed.push(await leafHash(src, leaf.offset, leaf.length, ctx));
  let bad = 0;
  if (m.leaves.length !== expected.length) {
    bad++;
    yield fail(
      'Merkle leaves',
      `${plural(m.leaves.length, 'leaf', 'leaves')} stored, the file has ${expected.length} preamble and frames before the MerkleTree`,
      mf.offset,
      'leaf count',
    );
  }
  for (const [i, leaf] of expected.entries()) {
    const stored = m.leaves[i];
    if (stored && stored.offset === leaf.offset && hexString(stored.hash) === hexString(computed[i]!)) continue;
    bad++;
    yield fail(
      'Merkle leaf',
      stored?.offset !== leaf.offset
        ? `leaf ${i}: stored offset ${stored?.offset ?? 'missing'}, the ${leaf.name} is at ${leaf.offset}`
        : `leaf ${i} (${leaf.name}) does not match its bytes: the seal is broken here`,
      leaf.offset,
      'Merkle leaf',
    );
  }
  const storedRoot = await merkleRoot(m.leaves.map((l) => l.hash));
  if (hexString(storedRoot) !== hexString(m.root)) {
    bad++;
    yield fail('Merkle root', `the stored root ${hexString(m.root)} is not the root of the stored leaves (${hexString(storedRoot)})`, mf.offset, 'root');
  }
  if (c.footer && hexString(c.footer.merkleRoot) !== hexString(m.root)) {
    bad++;
    yield fail('Merkle root', "the footer's copy of the root differs from the MerkleTree frame's", c.footer.offset + FRAME_HEADER_BYTES + 80, 'Merkle root');
  }
  if (bad === 0) yield pass('Merkle', `${plural(expected.length, 'leaf', 'leaves')} and root ${hexString(m.root).slice(0, 16)}… match`, mf.offset);
}
