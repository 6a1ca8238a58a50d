import { readLeb128 } from '../../codecs/leb128.js';
import { FormatError } from '../../errors.js';
import { BinReader, toSafeNumber } from '../../io/binReader.js';
import type { ByteSource } from '../../io/byteSource.js';
import { readField } from '../../io/byteSource.js';
import { decompress } from './compression.js';
import {
  Codec,
  FLAG_COMPRESSED,
  FRAME_HEADER,
  HEADER_PAYLOAD,
  FRAME_HEADER_BYTES,
  FileFlag,
  FrameType,
  type BloomIndex,
  type ChunkEntry,
  type ChunkRange,
  type ColumnFrame,
  type Dictionary,
  type ExtRef,
  type FrameHeader,
  type HeaderFrame,
  type MerkleLeaf,
  type MerkleTree,
  type MetaEntry,
  type SortedIndex,
  type Stage,
} from './model.js';
import { readCount, readLbytes, readStr, readTypeDesc } from './schema.js';

/** Payloads of the frame types (spec C.3–C.11). Each parser names the field and offset of what breaks. */

/** Metadata frames (everything but columns) are read whole; none legitimately comes near this. */
const MAX_META_PAYLOAD = 64 << 20;
const COMPRESSIBLE = new Set<number>([FrameType.Schema, FrameType.Dictionary, FrameType.BloomIndex, FrameType.SortedIndex, FrameType.UserMeta]);

export interface Payload {
  /** The payload, decompressed when the frame is COMPRESSED. */
  readonly bytes: Uint8Array;
  /** File offset of the payload; inside a decompressed payload, reader offsets count on from here into the decompressed bytes. */
  readonly at: number;
  readonly reader: BinReader;
}

/** A frame's payload, decompressed when the COMPRESSED flag says so (spec C.2). */
export async function readPayload(src: ByteSource, f: FrameHeader): Promise<Payload> {
  const at = f.offset + FRAME_HEADER_BYTES;
  if (f.payloadLength > MAX_META_PAYLOAD)
    throw new FormatError(
      'limit',
      `${f.payloadLength}-byte payload is larger than the ${MAX_META_PAYLOAD} read at once`,
      FRAME_HEADER.at('payloadLength', f.offset),
    );
  const raw = await readField(src, at, f.payloadLength, 'payload');
  if (!(f.flags & FLAG_COMPRESSED)) return { bytes: raw, at, reader: new BinReader(raw, at) };
  if (!COMPRESSIBLE.has(f.type))
    throw new FormatError(
      'corrupt',
      'the COMPRESSED flag is allowed only on Schema, Dictionary, Bloom, Sorted and UserMeta frames',
      FRAME_HEADER.at('flags', f.offset),
    );
  const r = new BinReader(raw, at);
  const codec = r.u8('payload codec');
  if (![Codec.ZSTD, Codec.LZ4, Codec.DEFLATE].includes(codec))
    throw new FormatError('corrupt', `payload codec 0x${codec.toString(16)} is not zstd, lz4 or deflate`, { offset: at, field: 'payload codec' });
  const rawLenAt = r.offset;
  const rawLen = toSafeNumber(r.u64le('raw length'), 'raw length', rawLenAt);
  if (rawLen > MAX_META_PAYLOAD)
    throw new FormatError('limit', `raw length ${rawLen} is larger than ${MAX_META_PAYLOAD}`, { offset: rawLenAt, field: 'raw length' });
  // The data's offset is taken before reading it: errors inside it are located from its first byte.
  const dataAt = r.offset;
  const bytes = decompress(codec, r.bytesOf(r.remaining, 'compressed payload'), {
    maxSize: MAX_META_PAYLOAD,
    expectedSize: rawLen,
    offset: dataAt,
    field: 'compressed payload',
  });
  if (bytes.length !== rawLen)
    throw new FormatError('corrupt', `payload decompresses to ${bytes.length > rawLen ? 'more than' : bytes.length} bytes, raw length says ${rawLen}`, {
      offset: rawLenAt,
      field: 'raw length',
    });
  return { bytes, at, reader: new BinReader(bytes, at) };
}

function done(r: BinReader, what: string): void {
  if (r.remaining) throw new FormatError('corrupt', `${r.remaining} bytes after the end of the ${what}`, { offset: r.offset, field: what });
}

function readMetaEntries(r: BinReader, field: string): MetaEntry[] {
  const n = readCount(r, `${field} count`, 3);
  const out: MetaEntry[] = [];
  for (let i = 0; i < n; i++) {
    const key = readStr(r, `${field} key`);
    const typeAt = r.offset;
    const valueType = r.u8(`${field} value type`);
    if (valueType > 3) throw new FormatError('corrupt', `value type ${valueType} of "${key}" is not 0..3`, { offset: typeAt, field: `${field} value type` });
    out.push({ key, valueType, value: readLbytes(r, `${field} value`) });
  }
  return out;
}

export async function readHeader(src: ByteSource, f: FrameHeader): Promise<HeaderFrame> {
  const { reader: r } = await readPayload(src, f);
  const { fingerprint, fileFlags, rowCount, columnCount, writerMajor, writerMinor, writerPatch } = HEADER_PAYLOAD.read(r);
  const writerVersion: [number, number, number] = [writerMajor, writerMinor, writerPatch];
  const writerName = readStr(r, 'writer name');
  const config = readMetaEntries(r, 'config');
  const nExt = readCount(r, 'extref count', 34);
  const extrefs: ExtRef[] = [];
  for (let i = 0; i < nExt; i++) extrefs.push({ kind: r.u8('extref kind'), sha256: r.bytesOf(32, 'extref sha256'), locator: readStr(r, 'extref locator') });
  const sourceDigest = fileFlags & FileFlag.SourceDigest ? r.bytesOf(32, 'source sha256') : undefined;
  done(r, 'Header');
  return { fingerprint, fileFlags, rowCount, columnCount, writerVersion, writerName, config, extrefs, sourceDigest };
}

export async function readUserMeta(src: ByteSource, f: FrameHeader): Promise<MetaEntry[]> {
  const { reader: r } = await readPayload(src, f);
  const entries = readMetaEntries(r, 'UserMeta');
  done(r, 'UserMeta');
  return entries;
}

export async function readDictionary(src: ByteSource, f: FrameHeader): Promise<Dictionary> {
  const { reader: r } = await readPayload(src, f);
  const id = readLeb128(r, 'dict id', { minimal: true });
  const kindAt = r.offset;
  const kind = r.u8('dictionary kind');
  if (kind >= 0x80) return { offset: f.offset, id, kind, origin: 0 };
  if (kind !== 1 && kind !== 2)
    throw new FormatError('corrupt', `dictionary kind ${kind} is not 1 (values), 2 (fixed) or 0x80+`, { offset: kindAt, field: 'dictionary kind' });
  const width = kind === 2 ? r.u8('fixed width') : undefined;
  if (width !== undefined && ![1, 2, 4, 8].includes(width))
    throw new FormatError('corrupt', `fixed width ${width} is not 1, 2, 4 or 8`, { offset: kindAt + 1, field: 'fixed width' });
  const originAt = r.offset;
  const origin = r.u8('dictionary origin');
  if (origin > 2) throw new FormatError('corrupt', `origin ${origin} is not 0, 1 or 2`, { offset: originAt, field: 'dictionary origin' });
  let sharedSha256: Uint8Array | undefined;
  let sharedName: string | undefined;
  if (origin > 0) {
    sharedSha256 = r.bytesOf(32, 'shared sha256');
    sharedName = readStr(r, 'shared dictionary name');
  }
  if (origin === 2) {
    done(r, 'Dictionary');
    return { offset: f.offset, id, kind, width, origin, sharedSha256, sharedName };
  }
  const count = readCount(r, 'entry count', kind === 2 ? width! : 1);
  const entries: Uint8Array[] = [];
  for (let i = 0; i < count; i++) entries.push(kind === 2 ? r.bytesOf(width!, 'entry') : readLbytes(r, 'entry'));
  done(r, 'Dictionary');
  return { offset: f.offset, id, kind, width, origin, sharedSha256, sharedName, entries };
}

/** Reads the column's description and chunk index, growing the read until it holds them; blobs stay on disk. */
export async function readColumn(src: ByteSource, f: FrameHeader): Promise<ColumnFrame> {
  if (f.flags & FLAG_COMPRESSED) throw new FormatError('corrupt', 'a Column frame cannot carry the COMPRESSED flag', FRAME_HEADER.at('flags', f.offset));
  const at = f.offset + FRAME_HEADER_BYTES;
  for (let size = Math.min(f.payloadLength, 64 << 10); ; size = Math.min(f.payloadLength, size * 4)) {
    try {
      return parseColumn(await readField(src, at, size, 'Column payload'), f);
    } catch (e) {
      if (!(e instanceof FormatError && e.code === 'truncated' && size < f.payloadLength)) throw e;
    }
  }
}

function parseColumn(bytes: Uint8Array, f: FrameHeader): ColumnFrame {
  const at = f.offset + FRAME_HEADER_BYTES;
  const end = at + f.payloadLength;
  const r = new BinReader(bytes, at);
  const id = readLeb128(r, 'column id', { minimal: true });
  const name = readStr(r, 'column name');
  const typeAt = r.offset;
  const type = readTypeDesc(r);
  if (type.code === 'NESTED') throw new FormatError('corrupt', 'a Column frame cannot have a NESTED type', { offset: typeAt, field: 'type' });
  const flagsAt = r.offset;
  const flags = r.u8('column flags');
  if (flags & ~3) throw new FormatError('corrupt', `column flags ${flags} use reserved bits`, { offset: flagsAt, field: 'column flags' });
  const stageCountAt = r.offset;
  const stageCount = r.u8('stage count');
  if (stageCount < 1 || stageCount > 8)
    throw new FormatError('corrupt', `stage count ${stageCount} is not 1..8`, { offset: stageCountAt, field: 'stage count' });
  const stages: Stage[] = [];
  for (let i = 0; i < stageCount; i++) {
    const offset = r.offset;
    stages.push({ codec: r.u8('codec id'), params: readLbytes(r, 'codec params'), offset });
  }
  const rowCountAt = r.offset;
  const rowCount = readLeb128(r, 'row count', { minimal: true });
  const countAt = r.offset;
  const chunkCount = readLeb128(r, 'chunk count', { minimal: true });
  if (chunkCount * 2 > end - r.offset)
    throw new FormatError('corrupt', `chunk count ${chunkCount} cannot fit in the ${end - r.offset} payload bytes left`, {
      offset: countAt,
      field: 'chunk count',
    });
  const hasStats = (flags & 2) !== 0;
  const raw: { rows: number; byteLength: number; min?: Uint8Array; max?: Uint8Array; at: number }[] = [];
  for (let i = 0; i < chunkCount; i++) {
    const entryAt = r.offset;
    const rows = readLeb128(r, 'chunk rows', { minimal: true });
    const byteLength = readLeb128(r, 'chunk byte length', { minimal: true });
    raw.push(
      hasStats ? { rows, byteLength, min: readLbytes(r, 'chunk min'), max: readLbytes(r, 'chunk max'), at: entryAt } : { rows, byteLength, at: entryAt },
    );
  }
  let blobOffset = r.offset;
  let firstRow = 0;
  const chunks: ChunkEntry[] = raw.map((c, index) => {
    if (c.byteLength > end - blobOffset)
      throw new FormatError('corrupt', `chunk ${index}: ${c.byteLength} bytes run past the payload end`, { offset: c.at, field: 'chunk byte length' });
    const entry: ChunkEntry = { index, rows: c.rows, firstRow, byteLength: c.byteLength, blobOffset, min: c.min, max: c.max };
    blobOffset += c.byteLength;
    firstRow += c.rows;
    return entry;
  });
  if (blobOffset !== end)
    throw new FormatError('corrupt', `the chunk blobs end at ${blobOffset}, the payload at ${end}`, { offset: blobOffset, field: 'chunk index' });
  if (firstRow !== rowCount)
    throw new FormatError('corrupt', `the chunks hold ${firstRow} rows, the column says ${rowCount}`, { offset: rowCountAt, field: 'row count' });
  return { frame: f, id, name, type, nullable: (flags & 1) === 1, hasStats, stages, rowCount, chunks };
}

export async function readBloom(src: ByteSource, f: FrameHeader): Promise<BloomIndex> {
  const { reader: r } = await readPayload(src, f);
  const column = readLeb128(r, 'column id', { minimal: true });
  const hashAt = r.offset;
  const hash = r.u8('hash');
  if (hash !== 1) throw new FormatError('unsupported', `Bloom hash ${hash} (only 1, SHA-256 double hashing, is defined)`, { offset: hashAt, field: 'hash' });
  const k = r.u8('k');
  if (k < 1 || k > 32) throw new FormatError('corrupt', `k = ${k} is not 1..32`, { offset: hashAt + 1, field: 'k' });
  const mAt = r.offset;
  const mBits = readLeb128(r, 'm bits', { minimal: true });
  if (mBits === 0 || mBits % 8) throw new FormatError('corrupt', `m = ${mBits} bits is not a positive multiple of 8`, { offset: mAt, field: 'm bits' });
  const granularity = r.u8('granularity');
  if (granularity > 1) throw new FormatError('corrupt', `granularity ${granularity} is not 0 or 1`, { offset: r.offset - 1, field: 'granularity' });
  const filterCount = readCount(r, 'filter count', 0);
  const nInserted = readLeb128(r, 'n inserted', { minimal: true });
  const bytes = mBits / 8;
  if (filterCount * bytes !== r.remaining)
    throw new FormatError('corrupt', `${filterCount} filters of ${bytes} bytes need ${filterCount * bytes} bytes, ${r.remaining} remain`, {
      offset: r.offset,
      field: 'filters',
    });
  const filters: Uint8Array[] = [];
  for (let i = 0; i < filterCount; i++) filters.push(r.bytesOf(bytes, 'filter'));
  return { offset: f.offset, column, hash, k, mBits, granularity, nInserted, filters };
}

export async function readSorted(src: ByteSource, f: FrameHeader): Promise<SortedIndex> {
  const { reader: r } = await readPayload(src, f);
  const column = readLeb128(r, 'column id', { minimal: true });
  const kindAt = r.offset;
  const kind = r.u8('sorted kind');
  if (kind === 1) {
    const n = readCount(r, 'range count', 3);
    const ranges: ChunkRange[] = [];
    for (let i = 0; i < n; i++)
      ranges.push({ chunk: readLeb128(r, 'chunk index', { minimal: true }), min: readLbytes(r, 'range min'), max: readLbytes(r, 'range max') });
    done(r, 'SortedIndex');
    return { offset: f.offset, column, kind, ranges };
  }
  if (kind === 2) {
    const rowCount = readLeb128(r, 'row count', { minimal: true });
    const stageCount = r.u8('stage count');
    const stages: Stage[] = [];
    for (let i = 0; i < stageCount; i++) {
      const offset = r.offset;
      stages.push({ codec: r.u8('codec id'), params: readLbytes(r, 'codec params'), offset });
    }
    const byteLength = readCount(r, 'permutation byte length', 1);
    const dataOffset = r.offset;
    r.skip(byteLength, 'permutation');
    done(r, 'SortedIndex');
    return { offset: f.offset, column, kind, permutation: { rowCount, stages, byteLength, dataOffset } };
  }
  throw new FormatError('corrupt', `sorted index kind ${kind} is not 1 or 2`, { offset: kindAt, field: 'sorted kind' });
}

export async function readMerkle(src: ByteSource, f: FrameHeader): Promise<MerkleTree> {
  const { reader: r } = await readPayload(src, f);
  const hash = r.u8('hash');
  if (hash !== 1) throw new FormatError('unsupported', `Merkle hash ${hash} (only 1, SHA-256, is defined)`, { offset: r.offset - 1, field: 'hash' });
  const leafScheme = r.u8('leaf scheme');
  if (leafScheme !== 1) throw new FormatError('unsupported', `Merkle leaf scheme ${leafScheme}`, { offset: r.offset - 1, field: 'leaf scheme' });
  const n = readCount(r, 'leaf count', 40);
  const leaves: MerkleLeaf[] = [];
  for (let i = 0; i < n; i++) {
    const offAt = r.offset;
    leaves.push({ offset: toSafeNumber(r.u64le('leaf offset'), 'leaf offset', offAt), hash: r.bytesOf(32, 'leaf hash') });
  }
  const root = r.bytesOf(32, 'root');
  done(r, 'MerkleTree');
  return { offset: f.offset, hash, leafScheme, leaves, root };
}
