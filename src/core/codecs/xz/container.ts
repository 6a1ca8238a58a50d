import { FormatError } from '../../errors.js';
import { BinReader, u32leAt } from '../../io/binReader.js';
import { bytes, layout, u32le } from '../../io/layout.js';
import type { ByteSource } from '../../io/byteSource.js';
import { readField } from '../../io/byteSource.js';
import { crc32 } from '../crc32.js';
import { XZ_MAGIC, isXzMagic } from './magic.js';

export { XZ_MAGIC, isXzMagic };

/**
 * The .xz container (tukaani.org xz-file-format 1.2): streams of blocks, each stream closed by
 * an index and a footer. Reading the container needs no decompression, so the structure of a
 * multi-GB .xben shows at once: the footer gives the index, the index gives every block.
 */
const FOOTER_MAGIC = 'YZ';
/** An xz stream header (xz file format §2.1.1): magic, stream flags, CRC32 of the flags. */
export const XZ_STREAM_HEADER = layout({ magic: bytes(6, 'xz magic'), flags: bytes(2, 'stream flags'), crc: u32le('stream header CRC32') });
export const STREAM_HEADER_BYTES = XZ_STREAM_HEADER.size;
export const STREAM_FOOTER_BYTES = 12;

export const CHECK_NAMES: Record<number, string> = { 0: 'None', 1: 'CRC32', 4: 'CRC64', 10: 'SHA-256' };
const CHECK_SIZES = [0, 4, 4, 4, 8, 8, 8, 16, 16, 16, 32, 32, 32, 64, 64, 64];

export function checkSize(checkType: number): number {
  return CHECK_SIZES[checkType] ?? 0;
}

export function checkName(checkType: number): string {
  return CHECK_NAMES[checkType] ?? `reserved type ${checkType}`;
}

export const FILTER_NAMES: Record<string, string> = {
  '33': 'LZMA2',
  '3': 'Delta',
  '4': 'BCJ x86',
  '5': 'BCJ PowerPC',
  '6': 'BCJ IA-64',
  '7': 'BCJ ARM',
  '8': 'BCJ ARM-Thumb',
  '9': 'BCJ SPARC',
  '10': 'BCJ ARM64',
  '11': 'BCJ RISC-V',
};

export interface XzFilter {
  readonly id: bigint;
  readonly properties: Uint8Array;
}

export interface XzBlockHeader {
  readonly offset: number;
  /** Real size in bytes: (first byte + 1) × 4. */
  readonly headerSize: number;
  readonly compressedSize?: bigint;
  readonly uncompressedSize?: bigint;
  readonly filters: readonly XzFilter[];
  readonly storedCrc: number;
  readonly computedCrc: number;
}

export interface XzIndexRecord {
  readonly unpaddedSize: bigint;
  readonly uncompressedSize: bigint;
}

export interface XzBlock {
  /** Where the block header starts. */
  readonly offset: number;
  /** Header + compressed data + check, without padding (what the index records). */
  readonly unpaddedSize: number;
  readonly uncompressedSize: bigint;
}

export interface XzStream {
  readonly offset: number;
  readonly checkType: number;
  readonly blocks: readonly XzBlock[];
  readonly indexOffset: number;
  readonly indexSize: number;
  readonly footerOffset: number;
  /** Stream padding after the footer (zero bytes, a multiple of 4). */
  readonly paddingAfter: number;
  readonly headerCrcOk: boolean;
  readonly indexCrcOk: boolean;
  readonly footerCrcOk: boolean;
}

export interface XzLayout {
  readonly streams: readonly XzStream[];
  readonly uncompressedSize: bigint;
}

/** xz's multibyte integer: LEB128 limited to 9 bytes (63 bits). */
export function readXzVarint(r: BinReader, field: string): bigint {
  const start = r.offset;
  let value = 0n;
  for (let i = 0; i < 9; i++) {
    const b = r.u8(field);
    value |= BigInt(b & 0x7f) << BigInt(7 * i);
    if ((b & 0x80) === 0) {
      if (b === 0 && i > 0) throw new FormatError('corrupt', 'multibyte integer has a redundant zero byte', { offset: start, field });
      return value;
    }
  }
  throw new FormatError('corrupt', 'multibyte integer longer than 9 bytes', { offset: start, field });
}

function flagsCheckType(flags: Uint8Array, offset: number, field: string): number {
  if (flags[0] !== 0 || (flags[1]! & 0xf0) !== 0)
    throw new FormatError('unsupported', `reserved stream flag bits set (${flags[0]}, ${flags[1]})`, { offset, field });
  return flags[1]! & 0x0f;
}

export async function readStreamHeader(src: ByteSource, offset: number): Promise<{ checkType: number; crcOk: boolean }> {
  const h = XZ_STREAM_HEADER.read(new BinReader(await readField(src, offset, STREAM_HEADER_BYTES, 'xz stream header'), offset));
  if (!XZ_MAGIC.every((b, i) => h.magic[i] === b))
    throw new FormatError('bad-magic', 'not an xz stream header (magic FD 37 7A 58 5A 00)', XZ_STREAM_HEADER.at('magic', offset));
  const checkType = flagsCheckType(h.flags, XZ_STREAM_HEADER.offset('flags', offset), XZ_STREAM_HEADER.name('flags'));
  return { checkType, crcOk: crc32(h.flags) === h.crc };
}

export async function readBlockHeader(src: ByteSource, offset: number): Promise<XzBlockHeader> {
  const first = (await readField(src, offset, 1, 'block header size'))[0]!;
  if (first === 0) throw new FormatError('corrupt', 'an index indicator where a block header was expected', { offset, field: 'block header' });
  const headerSize = (first + 1) * 4;
  const bytes = await readField(src, offset, headerSize, 'block header');
  const r = new BinReader(bytes, offset);
  r.skip(1, 'block header size');
  const flags = r.u8('block flags');
  if (flags & 0x3c) throw new FormatError('unsupported', `reserved block flag bits set (${hex2(flags)})`, { offset: offset + 1, field: 'block flags' });
  const compressedSize = flags & 0x40 ? readXzVarint(r, 'compressed size') : undefined;
  const uncompressedSize = flags & 0x80 ? readXzVarint(r, 'uncompressed size') : undefined;
  const filters: XzFilter[] = [];
  for (let i = 0; i < (flags & 3) + 1; i++) {
    const id = readXzVarint(r, 'filter id');
    const propsAt = r.offset;
    const size = readXzVarint(r, 'filter properties size');
    if (size > BigInt(r.remaining))
      throw new FormatError('out-of-range', `filter properties of ${size} bytes`, { offset: propsAt, field: 'filter properties size' });
    filters.push({ id, properties: r.bytesOf(Number(size), 'filter properties') });
  }
  const storedCrc = u32leAt(bytes, headerSize - 4);
  return { offset, headerSize, compressedSize, uncompressedSize, filters, storedCrc, computedCrc: crc32(bytes.subarray(0, headerSize - 4)) };
}

function hex2(n: number): string {
  return `0x${n.toString(16).padStart(2, '0')}`;
}

function padTo4(n: number): number {
  return (n + 3) & ~3;
}

/**
 * Walks the streams backwards from the end of the file through their footers and indexes.
 * Fails with a located error when a footer or index is missing (a truncated file: see
 * `readStreamHeader` and `readBlockHeader` for what can still be shown going forward).
 */
export async function readXzLayout(src: ByteSource): Promise<XzLayout> {
  const streams: XzStream[] = [];
  let end = src.size;
  while (end > 0) {
    const paddingAfter = await zeroPaddingBefore(src, end);
    end -= paddingAfter;
    if (end === 0) break;
    const stream = await readStreamEndingAt(src, end, paddingAfter);
    streams.unshift(stream);
    end = stream.offset;
  }
  if (streams.length === 0) throw new FormatError('corrupt', 'no xz stream in the file (only zero padding)', { offset: 0, field: 'xz stream' });
  return { streams, uncompressedSize: streams.reduce((s, st) => s + st.blocks.reduce((b, bl) => b + bl.uncompressedSize, 0n), 0n) };
}

/** How many bytes of stream padding (whole zero words) stand just before `end`. */
async function zeroPaddingBefore(src: ByteSource, end: number): Promise<number> {
  let padding = 0;
  while (end - padding >= 4) {
    const word = await src.read(end - padding - 4, 4);
    if (word.some((b) => b !== 0)) break;
    padding += 4;
  }
  return padding;
}

/** The stream whose footer ends at `end`: the footer locates the index, the index's block sizes the header. */
async function readStreamEndingAt(src: ByteSource, end: number, paddingAfter: number): Promise<XzStream> {
  if (end < STREAM_HEADER_BYTES + STREAM_FOOTER_BYTES) {
    throw new FormatError('truncated', `${end} bytes cannot hold an xz stream header and footer`, { offset: 0, field: 'xz stream' });
  }
  const footerOffset = end - STREAM_FOOTER_BYTES;
  const { checkType, footerCrcOk, indexOffset, indexSize } = await readStreamFooter(src, footerOffset);
  const { records, indexCrcOk } = await readIndex(src, indexOffset, indexSize);
  let blocksBytes = 0;
  for (const rec of records) blocksBytes += padTo4(Number(rec.unpaddedSize));
  const streamOffset = indexOffset - blocksBytes - STREAM_HEADER_BYTES;
  if (streamOffset < 0)
    throw new FormatError('out-of-range', 'the index lists more block bytes than the file holds', { offset: indexOffset, field: 'index records' });
  const header = await readStreamHeader(src, streamOffset);
  if (header.checkType !== checkType) {
    throw new FormatError('corrupt', `stream header says check ${checkName(header.checkType)}, footer ${checkName(checkType)}`, {
      offset: streamOffset + 6,
      field: 'stream flags',
    });
  }
  const blocks: XzBlock[] = [];
  let at = streamOffset + STREAM_HEADER_BYTES;
  for (const rec of records) {
    blocks.push({ offset: at, unpaddedSize: Number(rec.unpaddedSize), uncompressedSize: rec.uncompressedSize });
    at += padTo4(Number(rec.unpaddedSize));
  }
  return {
    offset: streamOffset,
    checkType,
    blocks,
    indexOffset,
    indexSize,
    footerOffset,
    paddingAfter,
    headerCrcOk: header.crcOk,
    indexCrcOk,
    footerCrcOk,
  };
}

/** A stream footer (xz file format §2.1.2): the check type, and where the index before it lies. */
async function readStreamFooter(
  src: ByteSource,
  footerOffset: number,
): Promise<{ checkType: number; footerCrcOk: boolean; indexOffset: number; indexSize: number }> {
  const footer = new BinReader(await src.read(footerOffset, STREAM_FOOTER_BYTES), footerOffset);
  const footerCrc = footer.u32le('stream footer CRC32');
  const backward = footer.u32le('backward size');
  const flags = footer.bytesOf(2, 'stream flags');
  const magic = new TextDecoder().decode(footer.bytesOf(2, 'footer magic'));
  if (magic !== FOOTER_MAGIC) {
    throw new FormatError('truncated', 'no xz stream footer ("YZ") at the end: the index and footer are missing or damaged', {
      offset: footerOffset + 10,
      field: 'stream footer magic',
    });
  }
  const checkType = flagsCheckType(flags, footerOffset + 8, 'stream footer flags');
  const footerBytes = await src.read(footerOffset + 4, 6);
  const footerCrcOk = crc32(footerBytes) === footerCrc;
  const indexSize = (backward + 1) * 4;
  const indexOffset = footerOffset - indexSize;
  if (indexOffset < STREAM_HEADER_BYTES) {
    throw new FormatError('out-of-range', `backward size ${indexSize} points before the start of the file`, {
      offset: footerOffset + 4,
      field: 'backward size',
    });
  }
  return { checkType, footerCrcOk, indexOffset, indexSize };
}

/** A stream's index (xz file format §4): one record per block, then zero padding and a CRC32. */
async function readIndex(src: ByteSource, indexOffset: number, indexSize: number): Promise<{ records: XzIndexRecord[]; indexCrcOk: boolean }> {
  const indexBytes = await src.read(indexOffset, indexSize);
  const ir = new BinReader(indexBytes, indexOffset);
  if (ir.u8('index indicator') !== 0) throw new FormatError('corrupt', 'index does not start with 0x00', { offset: indexOffset, field: 'index indicator' });
  const countAt = ir.offset;
  const count = readXzVarint(ir, 'number of records');
  // Each record takes at least 2 bytes, which bounds the count by the index size.
  if (count > BigInt(indexSize))
    throw new FormatError('corrupt', `${count} records cannot fit in ${indexSize} index bytes`, { offset: countAt, field: 'number of records' });
  const records: XzIndexRecord[] = [];
  for (let i = 0n; i < count; i++) {
    records.push({ unpaddedSize: readXzVarint(ir, 'unpadded size'), uncompressedSize: readXzVarint(ir, 'uncompressed size') });
  }
  while ((ir.pos & 3) !== 0) {
    if (ir.u8('index padding') !== 0) throw new FormatError('corrupt', 'index padding is not zero', { offset: ir.offset - 1, field: 'index padding' });
  }
  const indexCrcOk = crc32(indexBytes.subarray(0, ir.pos)) === ir.u32le('index CRC32');
  if (ir.remaining !== 0) throw new FormatError('corrupt', 'index is shorter than the backward size says', { offset: ir.offset, field: 'backward size' });
  return { records, indexCrcOk };
}

/** The same layout with every offset moved by `by`: for an xz stream embedded in another file. */
export function relocateXzLayout(layout: XzLayout, by: number): XzLayout {
  return {
    ...layout,
    streams: layout.streams.map((s) => ({
      ...s,
      offset: s.offset + by,
      indexOffset: s.indexOffset + by,
      footerOffset: s.footerOffset + by,
      blocks: s.blocks.map((b) => ({ ...b, offset: b.offset + by })),
    })),
  };
}
