import { FormatError } from '../../errors.js';
import { BinReader } from '../../io/binReader.js';
import type { ByteSource } from '../../io/byteSource.js';
import { FOOTER_V1_TAIL, type XorbFooter } from './model.js';

const decoder = new TextDecoder();
/** Footers of more chunks than this are refused before reading (64× the client's limit). */
const MAX_FOOTER_CHUNKS = 8192 * 64;
const MAX_INFO_LENGTH = 92 + 40 * MAX_FOOTER_CHUNKS;

export interface FooterLocation {
  readonly offset: number;
  readonly infoLength: number;
}

/**
 * Spec §1: the last 4 bytes are the footer length L; the file has a footer when the 7 bytes at
 * size − 4 − L read "XETBLOB". Otherwise the whole file is chunks (the upload form).
 */
export async function locateFooter(src: ByteSource): Promise<FooterLocation | undefined> {
  if (src.size < 4 + 7) return undefined;
  const infoLength = new BinReader(await src.read(src.size - 4, 4), src.size - 4).u32le('info_length');
  if (infoLength + 4 > src.size || infoLength < 7) return undefined;
  const offset = src.size - 4 - infoLength;
  const ident = decoder.decode(await src.read(offset, 7));
  return ident === 'XETBLOB' ? { offset, infoLength } : undefined;
}

function ident(r: BinReader, expected: string, field: string): void {
  const at = r.offset;
  const got = decoder.decode(r.bytesOf(7, field));
  if (got !== expected) throw new FormatError('corrupt', `expected "${expected}", found ${JSON.stringify(got)}`, { offset: at, field });
}

function u32s(r: BinReader, n: number, field: string): number[] {
  r.need(4 * n, field);
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = r.u32le(field);
  return out;
}

function hashes(r: BinReader, n: number, field: string): Uint8Array[] {
  r.need(32 * n, field);
  const out = new Array<Uint8Array>(n);
  for (let i = 0; i < n; i++) out[i] = r.bytesOf(32, field);
  return out;
}

/** Parses the footer with every check of the reference `deserialize` (spec §4.1, §4.2). */
export async function readFooter(src: ByteSource, at: FooterLocation): Promise<XorbFooter> {
  if (at.infoLength > MAX_INFO_LENGTH) {
    throw new FormatError('limit', `footer of ${at.infoLength} bytes is larger than any xorb needs`, { offset: src.size - 4, field: 'info_length' });
  }
  const r = new BinReader(await src.read(at.offset, at.infoLength), at.offset);
  ident(r, 'XETBLOB', 'footer ident');
  const versionAt = r.offset;
  const version = r.u8('footer version');
  const xorbHash = r.bytesOf(32, 'xorb hash');
  let footer: XorbFooter;
  if (version === 1) footer = readFooterV1(r, at, xorbHash);
  else if (version === 0) footer = readFooterV0(r, at, xorbHash);
  else throw new FormatError('unsupported-version', `footer version ${version} (0 and 1 exist)`, { offset: versionAt, field: 'footer version' });
  if (r.remaining !== 0) {
    throw new FormatError('corrupt', `info_length is ${at.infoLength} but the footer fields end ${r.remaining} bytes earlier`, {
      offset: r.offset,
      field: 'info_length',
    });
  }
  return footer;
}

/** The fields of a version 1 footer after its hash: the hash and boundary sections, then where they start. */
function readFooterV1(r: BinReader, at: FooterLocation, xorbHash: Uint8Array): XorbFooter {
  const hashSectionStart = r.offset;
  ident(r, 'XBLBHSH', 'hash section ident');
  const hashesVersion = r.u8('hashes version');
  if (hashesVersion !== 0)
    throw new FormatError('unsupported-version', `hashes version ${hashesVersion} (only 0 exists)`, { offset: r.offset - 1, field: 'hashes version' });
  const nAt = r.offset;
  const n = r.u32le('chunk count (hash section)');
  if (n > MAX_FOOTER_CHUNKS) throw new FormatError('limit', `${n} chunks`, { offset: nAt, field: 'chunk count (hash section)' });
  const chunkHashes = hashes(r, n, 'chunk hashes');
  const boundarySectionStart = r.offset;
  ident(r, 'XBLBBND', 'boundary section ident');
  const boundariesVersion = r.u8('boundaries version');
  if (boundariesVersion !== 1) {
    throw new FormatError('unsupported-version', `boundaries version ${boundariesVersion} (only 1 exists)`, {
      offset: r.offset - 1,
      field: 'boundaries version',
    });
  }
  const n2 = r.u32le('chunk count (boundary section)');
  if (n2 !== n)
    throw new FormatError('corrupt', `boundary section counts ${n2} chunks, hash section ${n}`, {
      offset: r.offset - 4,
      field: 'chunk count (boundary section)',
    });
  const boundaries = u32s(r, n, 'chunk boundary offsets');
  const unpackedOffsets = u32s(r, n, 'unpacked chunk offsets');
  const n3 = r.u32le('chunk count');
  if (n3 !== n) throw new FormatError('corrupt', `footer counts ${n3} chunks, hash section ${n}`, { offset: r.offset - 4, field: 'chunk count' });
  const hashesSectionOffsetFromEnd = r.u32le('hashes section offset from end');
  const boundarySectionOffsetFromEnd = r.u32le('boundary section offset from end');
  const reserved = r.bytesOf(16, 'reserved');
  const end = r.offset;
  if (hashesSectionOffsetFromEnd !== end - hashSectionStart) {
    throw new FormatError('corrupt', `says ${hashesSectionOffsetFromEnd}, the hash section starts ${end - hashSectionStart} bytes before the end`, {
      ...FOOTER_V1_TAIL.at('hashesSectionOffsetFromEnd', end - FOOTER_V1_TAIL.size),
    });
  }
  if (boundarySectionOffsetFromEnd !== end - boundarySectionStart) {
    throw new FormatError('corrupt', `says ${boundarySectionOffsetFromEnd}, the boundary section starts ${end - boundarySectionStart} bytes before the end`, {
      ...FOOTER_V1_TAIL.at('boundarySectionOffsetFromEnd', end - FOOTER_V1_TAIL.size),
    });
  }
  return {
    offset: at.offset,
    infoLength: at.infoLength,
    version: 1,
    xorbHash,
    chunkCount: n,
    chunkHashes,
    boundaries,
    unpackedOffsets,
    hashesSectionOffsetFromEnd,
    boundarySectionOffsetFromEnd,
    hashesVersion,
    boundariesVersion,
    reserved,
  };
}

/** The fields of a version 0 footer after its hash: the boundaries, then the chunk hashes. */
function readFooterV0(r: BinReader, at: FooterLocation, xorbHash: Uint8Array): XorbFooter {
  const nAt = r.offset;
  const n = r.u32le('chunk count');
  if (n > MAX_FOOTER_CHUNKS) throw new FormatError('limit', `${n} chunks`, { offset: nAt, field: 'chunk count' });
  const boundaries = u32s(r, n, 'chunk boundary offsets');
  const chunkHashes = hashes(r, n, 'chunk hashes');
  const reserved = r.bytesOf(16, 'reserved');
  return { offset: at.offset, infoLength: at.infoLength, version: 0, xorbHash, chunkCount: n, chunkHashes, boundaries, reserved };
}
