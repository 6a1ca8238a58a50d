import { lookup } from '../../lookup.js';
import { FormatError, rethrowUnlessFormatError } from '../../errors.js';
import { BinReader } from '../../io/binReader.js';
import type { ByteSource } from '../../io/byteSource.js';
import { readField } from '../../io/byteSource.js';
import { readLeb128 } from '../../codecs/leb128.js';
import { SCALAR_LOAD_NAMES } from './columnType.js';
import {
  type BlockEntry,
  type CodecDef,
  type ColumnEntry,
  HEADER_BYTES,
  IDV_HEADER,
  type IdvHeader,
  LOOKUP_ENTRY_BYTES,
  type MetadataEntry,
  SIGNATURE,
  TAIL_SIGNATURE,
  type Version,
  blockCount,
  compareVersion,
} from './model.js';

/** 1.1.1.3 stored slot names in the TOC; 1.1.1.4 replaced them by a metadata offset. */
const SLOT_NAMES_VERSION = [1, 1, 1, 3] as const;
const METADATA_VERSION = [1, 1, 1, 4] as const;

const utf8 = new TextDecoder('utf-8');
/** Nested codec definitions deeper than this are refused (real files nest at most 3). */
const MAX_CODEC_DEPTH = 8;
const MAX_COLUMNS = 1 << 20;
/** Tables of contents are read whole; more than this is not a table of contents. */
const MAX_TOC_BYTES = 64 << 20;

function bounded(start: number, end: number): number {
  return Math.min(end - start, MAX_TOC_BYTES);
}

function unpackVersion(v: bigint): Version {
  return [Number((v >> 48n) & 0xffffn), Number((v >> 32n) & 0xffffn), Number((v >> 16n) & 0xffffn), Number(v & 0xffffn)];
}

export async function readHeader(src: ByteSource): Promise<IdvHeader> {
  const bytes = await readField(src, 0, HEADER_BYTES, 'header');
  // The signature first: a file that is not a dataview must say so, not that an offset is too large.
  const sig = IDV_HEADER.range('signature');
  if (!SIGNATURE.every((b, i) => bytes[sig.offset + i] === b))
    throw new FormatError('bad-magic', 'not an ML.NET binary dataview (signature "CML\\0DVB\\0")', IDV_HEADER.at('signature'));
  const { signature: _, version, compatibleVersion, ...rest } = IDV_HEADER.read(new BinReader(bytes, 0));
  return { ...rest, version: unpackVersion(version), compatibleVersion: unpackVersion(compatibleVersion) };
}

export async function tailSignatureOk(src: ByteSource, h: IdvHeader): Promise<boolean> {
  if (h.tailOffset < HEADER_BYTES || h.tailOffset + 8 > src.size) return false;
  const bytes = await src.read(h.tailOffset, 8);
  return TAIL_SIGNATURE.every((b, i) => bytes[i] === b);
}

/** A .NET `BinaryWriter` string: a 7-bit encoded int32 byte length (≤ 5 bytes), then UTF-8. */
export function readDotNetString(r: BinReader, field: string): string {
  const at = r.offset;
  const length = readLeb128(r, `${field} length`, { maxBytes: 5 });
  if (length > 0x7fffffff) throw new FormatError('corrupt', `string length ${length} is not an int32`, { offset: at, field });
  return utf8.decode(r.bytesOf(length, field));
}

/** A codec definition, with the parameters of Key2, Key and VBuffer read (spec §7). */
export function readCodec(r: BinReader, field: string, depth = 0): CodecDef {
  const offset = r.offset;
  if (depth > MAX_CODEC_DEPTH) throw new FormatError('limit', `codec definitions nested deeper than ${MAX_CODEC_DEPTH}`, { offset, field });
  const loadName = readDotNetString(r, `${field} load name`);
  if (loadName.length === 0) throw new FormatError('corrupt', 'empty codec load name', { offset, field: `${field} load name` });
  const paramLength = readLeb128(r, `${field} parameter length`);
  const paramOffset = r.offset;
  const params = new BinReader(r.bytesOf(paramLength, `${field} parameters`), paramOffset);
  const base = { offset, loadName, paramOffset, paramLength };
  const done = (extra: Partial<CodecDef>): CodecDef => {
    const problem = extra.problem ?? (params.remaining !== 0 ? `${params.remaining} parameter bytes left unread` : undefined);
    return { ...base, length: r.offset - offset, ...extra, problem };
  };
  try {
    switch (loadName) {
      case 'Key2': {
        const inner = readCodec(params, `${field} key type`, depth + 1);
        return done({ inner, keyCount: params.u64le(`${field} key count`) });
      }
      case 'Key': {
        const inner = readCodec(params, `${field} key type`, depth + 1);
        const contiguous = params.u8(`${field} contiguous`);
        const min = params.u64le(`${field} min`);
        const count = params.i32le(`${field} count`);
        return done({ inner, legacyKey: { contiguous, min, count } });
      }
      case 'VBuffer': {
        const inner = readCodec(params, `${field} item type`, depth + 1);
        const dimsAt = params.offset;
        const dimCount = params.i32le(`${field} dimension count`);
        if (dimCount < 0 || dimCount * 4 > params.remaining) {
          return done({ inner, problem: `dimension count ${dimCount} does not fit the parameters`, dims: [] });
        }
        const dims: number[] = [];
        for (let i = 0; i < dimCount; i++) dims.push(params.i32le(`${field} dimension ${i}`));
        if (dims.some((d) => d < 0)) return done({ inner, dims, problem: `negative vector dimension at ${dimsAt}` });
        return done({ inner, dims });
      }
      default:
        // Unknown codecs are skipped by their length whatever their parameters hold (spec §7).
        return lookup(SCALAR_LOAD_NAMES, loadName) ? done({}) : { ...base, length: r.offset - offset };
    }
  } catch (e) {
    rethrowUnlessFormatError(e);
    return done({ problem: e.message });
  }
}

/** Reads the TOC (spec §6): one entry per column, packed from the TOC offset. */
export async function readToc(src: ByteSource, h: IdvHeader): Promise<ColumnEntry[]> {
  if (h.columnCount < 0 || h.columnCount > MAX_COLUMNS) {
    throw new FormatError('corrupt', `column count ${h.columnCount}`, IDV_HEADER.at('columnCount'));
  }
  if (h.columnCount === 0) return [];
  if (h.tocOffset < HEADER_BYTES || h.tocOffset >= src.size) {
    throw new FormatError('out-of-range', `table of contents offset ${h.tocOffset} is outside [256, ${src.size})`, IDV_HEADER.at('tocOffset'));
  }
  const end = h.tailOffset > h.tocOffset && h.tailOffset <= src.size ? h.tailOffset : src.size;
  const r = new BinReader(await src.read(h.tocOffset, bounded(h.tocOffset, end)), h.tocOffset);
  const columns: ColumnEntry[] = [];
  for (let index = 0; index < h.columnCount; index++) {
    const offset = r.offset;
    const what = `column ${index}`;
    const name = readDotNetString(r, `${what} name`);
    const codec = readCodec(r, `${what} codec`);
    const compression = r.u8(`${what} compression`);
    const rowsPerBlock = readLeb128(r, `${what} rows per block`);
    const lookupOffset = r.i64leNumber(`${what} lookup table offset`);
    // The entry's last field changed with the version (spec §5, §6).
    let metadataTocOffset = 0;
    let slotNames: ColumnEntry['slotNames'];
    if (compareVersion(h.version, METADATA_VERSION) >= 0) metadataTocOffset = r.i64leNumber(`${what} metadata offset`);
    else if (compareVersion(h.version, SLOT_NAMES_VERSION) >= 0) {
      const at = r.i64leNumber(`${what} slot names offset`);
      if (at !== 0) slotNames = { offset: at, byteSize: r.i64leNumber(`${what} slot names size`), count: r.i32le(`${what} slot names count`) };
    }
    columns.push({ index, offset, length: r.offset - offset, name, codec, compression, rowsPerBlock, lookupOffset, metadataTocOffset, slotNames });
  }
  return columns;
}

export async function readLookupTable(src: ByteSource, h: IdvHeader, c: ColumnEntry, from = 0, count = Number.POSITIVE_INFINITY): Promise<BlockEntry[]> {
  const n = blockCount(h.rowCount, c.rowsPerBlock);
  const first = Math.min(from, n);
  const last = Math.min(n, first + count);
  if (last <= first) return [];
  const at = c.lookupOffset + first * LOOKUP_ENTRY_BYTES;
  const r = new BinReader(await readField(src, at, (last - first) * LOOKUP_ENTRY_BYTES, `column ${c.index} lookup table`), at);
  const out: BlockEntry[] = [];
  for (let i = first; i < last; i++) {
    out.push({
      offset: r.i64leNumber(`block ${i} offset`),
      storedLength: r.i32le(`block ${i} stored length`),
      decompressedLength: r.i32le(`block ${i} decompressed length`),
    });
  }
  return out;
}

export async function readMetadataToc(src: ByteSource, c: ColumnEntry, tailOffset: number): Promise<MetadataEntry[]> {
  const end = Math.min(tailOffset, src.size);
  if (c.metadataTocOffset < HEADER_BYTES || c.metadataTocOffset >= end) {
    throw new FormatError('out-of-range', `metadata offset ${c.metadataTocOffset} is outside [256, ${end})`, {
      offset: c.offset + c.length - 8,
      field: `column ${c.index} metadata offset`,
    });
  }
  const r = new BinReader(await src.read(c.metadataTocOffset, bounded(c.metadataTocOffset, end)), c.metadataTocOffset);
  const countAt = r.offset;
  const count = readLeb128(r, 'metadata entry count');
  if (count < 1 || count >= 0x7fffffff)
    throw new FormatError('corrupt', `metadata entry count ${count} (must be 1 .. 2^31 − 2)`, { offset: countAt, field: 'metadata entry count' });
  const out: MetadataEntry[] = [];
  const kinds = new Set<string>();
  for (let i = 0; i < count; i++) {
    const offset = r.offset;
    const kind = readDotNetString(r, `metadata ${i} kind`);
    if (kind.length === 0 || kinds.has(kind)) {
      throw new FormatError('corrupt', kind.length === 0 ? 'empty metadata kind' : `duplicate metadata kind ${JSON.stringify(kind)}`, {
        offset,
        field: `metadata ${i} kind`,
      });
    }
    kinds.add(kind);
    const codec = readCodec(r, `metadata ${kind} codec`);
    const compression = r.u8(`metadata ${kind} compression`);
    const blockOffset = r.i64leNumber(`metadata ${kind} block offset`);
    const blockSize = readLeb128(r, `metadata ${kind} block size`);
    out.push({ offset, length: r.offset - offset, kind, codec, compression, blockOffset, blockSize });
  }
  return out;
}

/** The slot names a 1.1.1.3 TOC entry points at: `count` pairs of (i32 slot, string name). */
export async function readTocSlotNames(src: ByteSource, c: ColumnEntry): Promise<{ slot: number; name: string }[]> {
  const area = c.slotNames!;
  const field = `column ${c.index} slot names`;
  if (area.count < 0 || area.byteSize < 0 || area.byteSize > MAX_TOC_BYTES)
    throw new FormatError('corrupt', `${area.count} names in ${area.byteSize} bytes`, { offset: c.offset + c.length - 12, field });
  const r = new BinReader(await readField(src, area.offset, area.byteSize, field), area.offset);
  const out: { slot: number; name: string }[] = [];
  for (let i = 0; i < area.count; i++) out.push({ slot: r.i32le(`slot name ${i} index`), name: readDotNetString(r, `slot name ${i}`) });
  return out;
}
