import { FormatError } from '../../errors.js';
import { BinReader } from '../../io/binReader.js';
import { type LayoutValues, bytes, i64le, layout, pad, u16le, u32le, u64leNumber, u8 } from '../../io/layout.js';
import type { ByteSource } from '../../io/byteSource.js';
import { readField } from '../../io/byteSource.js';
import { crc32c } from '../../codecs/crc32c.js';
import { xzDecompressAll } from '../../codecs/xz/decode.js';
import { BENDL_MAGIC, isBendlMagic } from './bendlMagic.js';

export { BENDL_MAGIC, isBendlMagic };

/** BENDL v1 bundle (spec ben.md §6): all integers little-endian. */

/** The 64-byte header (spec §6), read, written, drawn and located from this declaration only. */
export const BENDL_HEADER = layout({
  magic: bytes(8, 'magic'),
  major: u16le('major version'),
  minor: u16le('minor version'),
  finalized: u8('finalized'),
  assignmentFormat: u8('assignment format'),
  padding: pad(2, 'padding'),
  flags: u32le('flags'),
  streamChecksum: u32le('stream checksum'),
  directoryOffset: u64leNumber('directory offset'),
  directoryLength: u64leNumber('directory length'),
  streamOffset: u64leNumber('stream offset'),
  streamLength: u64leNumber('stream length'),
  sampleCount: i64le('sample count'),
});
/** The tail after the header in the newest layout: CRC32C of the header, then a zero word. */
export const BENDL_TAIL = layout({ crc: u32le('header CRC32C'), zero: u32le('tail zero') });
export const HEADER_BYTES = BENDL_HEADER.size;
export const TAIL_BYTES = BENDL_TAIL.size;
export const MAX_ASSETS = 256;
/** A directory entry's fixed part; its name (and its CRC32C when flagged) follow. */
export const BENDL_ENTRY = layout({
  assetType: u16le('type'),
  flags: u16le('flags'),
  nameLength: u16le('name length'),
  reserved: pad(2, 'reserved'),
  payloadOffset: u64leNumber('payload offset'),
  payloadLength: u64leNumber('payload length'),
  checksumLength: u32le('checksum length'),
});
export const ENTRY_HEADER_BYTES = BENDL_ENTRY.size;

export const ASSET_FLAG_JSON = 1;
export const ASSET_FLAG_XZ = 2;
export const ASSET_FLAG_CHECKSUM = 4;

/** Singleton asset types and the names they must carry; type 4 is custom. */
export const STANDARD_ASSETS: Record<number, string> = { 1: 'metadata.json', 2: 'graph.json', 3: 'node_permutation_map.json' };
export const CUSTOM_ASSET = 4;

export type BendlHeader = Omit<LayoutValues<typeof BENDL_HEADER.fields>, 'magic'>;

/** The 8-byte tail after the header in the newest layout: CRC32C of bytes 0–63, then zeros. */
export type HeaderTail =
  | { readonly state: 'valid'; readonly crc: number }
  | { readonly state: 'absent' }
  | { readonly state: 'mismatch'; readonly stored: number; readonly computed: number };

export interface AssetEntry {
  /** Offset of the directory entry. */
  readonly entryOffset: number;
  readonly entryLength: number;
  readonly assetType: number;
  readonly flags: number;
  readonly name: string;
  readonly payloadOffset: number;
  readonly payloadLength: number;
  /** CRC32C of the on-disk payload, when flag bit2 says one is stored. */
  readonly checksum?: number;
}

export interface Directory {
  readonly offset: number;
  readonly length: number;
  readonly entries: readonly AssetEntry[];
}

export async function readBendlHeader(src: ByteSource): Promise<BendlHeader> {
  const { magic, ...h } = BENDL_HEADER.read(new BinReader(await readField(src, 0, HEADER_BYTES, 'bundle header'), 0));
  if (!isBendlMagic(magic)) throw new FormatError('bad-magic', 'not a BENDL bundle (magic "BENDL\\0\\0\\x01")', BENDL_HEADER.at('magic'));
  if (h.major !== 1) throw new FormatError('unsupported-version', `BENDL major version ${h.major} (only 1 exists)`, BENDL_HEADER.at('major'));
  return h;
}

export async function readHeaderTail(src: ByteSource): Promise<HeaderTail> {
  if (src.size < HEADER_BYTES + TAIL_BYTES) return { state: 'absent' };
  const bytes = await src.read(0, HEADER_BYTES + TAIL_BYTES);
  const computed = crc32c(bytes.subarray(0, HEADER_BYTES));
  const { crc: stored, zero } = BENDL_TAIL.read(new BinReader(bytes.subarray(HEADER_BYTES), HEADER_BYTES));
  // The tail's second word is always zero; anything else is payload of an older bundle.
  if (zero !== 0) return { state: 'absent' };
  if (stored === computed) return { state: 'valid', crc: computed };
  return { state: 'mismatch', stored, computed };
}

/** Structural header rules (spec §6) that hold with or without the tail; each failure located. */
export function headerProblems(h: BendlHeader, fileSize: number): FormatError[] {
  const out: FormatError[] = [];
  const bad = (detail: string, key: keyof typeof BENDL_HEADER.fields) => out.push(new FormatError('corrupt', detail, BENDL_HEADER.at(key)));
  if (h.finalized > 1) bad(`finalized is ${h.finalized} (0 or 1)`, 'finalized');
  if (h.assignmentFormat !== 1 && h.assignmentFormat !== 2) bad(`assignment format ${h.assignmentFormat} (1 BEN, 2 XBEN)`, 'assignmentFormat');
  if (h.streamOffset < HEADER_BYTES) bad(`stream offset ${h.streamOffset} is inside the header`, 'streamOffset');
  if (h.streamOffset > fileSize) bad(`stream offset ${h.streamOffset} is past the end of the file (${fileSize})`, 'streamOffset');
  if (h.finalized === 1 && h.streamOffset + h.streamLength > fileSize) {
    bad(`stream [${h.streamOffset}, ${h.streamOffset + h.streamLength}) runs past the end of the file (${fileSize})`, 'streamLength');
  }
  if (h.directoryOffset !== 0 && h.directoryOffset + h.directoryLength > fileSize) {
    bad(`directory [${h.directoryOffset}, ${h.directoryOffset + h.directoryLength}) runs past the end of the file (${fileSize})`, 'directoryOffset');
  }
  if (h.finalized === 1 && h.sampleCount < 0n) bad(`a finalized bundle has sample count ${h.sampleCount}`, 'sampleCount');
  if (h.finalized === 0 && h.sampleCount !== -1n) bad(`an unfinalized bundle must have sample count −1, not ${h.sampleCount}`, 'sampleCount');
  return out;
}

/** Where the stream is: the header's range when finalized, else up to the directory or EOF. */
export function streamRange(h: BendlHeader, fileSize: number): { offset: number; length: number; provisional: boolean } {
  if (h.finalized === 1) return { offset: h.streamOffset, length: Math.max(0, Math.min(h.streamLength, fileSize - h.streamOffset)), provisional: false };
  const end = h.directoryOffset > h.streamOffset && h.directoryOffset <= fileSize ? h.directoryOffset : fileSize;
  return { offset: h.streamOffset, length: Math.max(0, end - h.streamOffset), provisional: true };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parses and checks the directory (spec §6): every rule broken is a located error. */
export async function readDirectory(src: ByteSource, h: BendlHeader): Promise<Directory> {
  const bytes = await readField(src, h.directoryOffset, h.directoryLength, 'directory');
  const r = new BinReader(bytes, h.directoryOffset);
  const countAt = r.offset;
  const count = r.u32le('entry count');
  if (count > MAX_ASSETS) throw new FormatError('limit', `${count} directory entries (at most ${MAX_ASSETS})`, { offset: countAt, field: 'entry count' });
  const entries: AssetEntry[] = [];
  const names = new Set<string>();
  for (let i = 0; i < count; i++) {
    const entryOffset = r.offset;
    const what = `asset ${i}`;
    const { assetType, flags, nameLength, payloadOffset, payloadLength, checksumLength } = BENDL_ENTRY.read(r, what);
    const nameAt = r.offset;
    let name: string;
    try {
      name = utf8.decode(r.bytesOf(nameLength, `${what} name`));
    } catch (e) {
      if (e instanceof FormatError) throw e;
      throw new FormatError('corrupt', 'name is not valid UTF-8', { offset: nameAt, field: `${what} name` });
    }
    const wantsChecksum = (flags & ASSET_FLAG_CHECKSUM) !== 0;
    if (checksumLength !== (wantsChecksum ? 4 : 0)) {
      throw new FormatError(
        'corrupt',
        `checksum length ${checksumLength} disagrees with the checksum flag (${wantsChecksum ? 'set' : 'clear'})`,
        BENDL_ENTRY.at('checksumLength', entryOffset, what),
      );
    }
    const checksum = wantsChecksum ? r.u32le(`${what} checksum`) : undefined;
    if (names.has(name)) throw new FormatError('corrupt', `duplicate asset name ${JSON.stringify(name)}`, { offset: nameAt, field: `${what} name` });
    names.add(name);
    const standard = STANDARD_ASSETS[assetType];
    if (standard !== undefined && name !== standard) {
      throw new FormatError('corrupt', `asset type ${assetType} must be named ${standard}, not ${JSON.stringify(name)}`, {
        offset: nameAt,
        field: `${what} name`,
      });
    }
    if (assetType === CUSTOM_ASSET && Object.values(STANDARD_ASSETS).includes(name)) {
      throw new FormatError('corrupt', `custom asset uses the reserved name ${name}`, { offset: nameAt, field: `${what} name` });
    }
    if (payloadOffset < HEADER_BYTES || payloadOffset + payloadLength > src.size) {
      throw new FormatError(
        'out-of-range',
        `payload [${payloadOffset}, ${payloadOffset + payloadLength}) is outside the file`,
        BENDL_ENTRY.at('payloadOffset', entryOffset, what),
      );
    }
    entries.push({ entryOffset, entryLength: r.offset - entryOffset, assetType, flags, name, payloadOffset, payloadLength, checksum });
  }
  if (r.remaining !== 0) throw new FormatError('corrupt', `${r.remaining} bytes left after the last entry`, { offset: r.offset, field: 'directory' });
  return { offset: h.directoryOffset, length: h.directoryLength, entries };
}

/** Older v1 bundles lack the tail: their first payload starts at 64 (spec §6). */
export function firstPayloadOffset(h: BendlHeader, dir: Directory | undefined): number {
  return Math.min(h.streamOffset, ...(dir?.entries.map((e) => e.payloadOffset) ?? []));
}

/** Fails when an asset's stored bytes do not match the CRC32C its entry holds (no CRC: nothing to check). */
export function checkAssetCrc(e: AssetEntry, stored: Uint8Array): void {
  if (e.checksum === undefined) return;
  const crc = crc32c(stored);
  if (crc !== e.checksum) {
    throw new FormatError('checksum', `CRC32C ${crc.toString(16).padStart(8, '0')} does not match the stored ${e.checksum.toString(16).padStart(8, '0')}`, {
      offset: e.payloadOffset,
      field: `asset ${e.name}`,
    });
  }
}

/** Largest asset read into memory (graphs of national block-level geography stay well below). */
export const MAX_ASSET_BYTES = 512 << 20;

/**
 * An asset's content: the stored bytes, their CRC32C checked first (it covers the on-disk,
 * possibly compressed, bytes), then decompressed when the xz flag is set.
 */
export async function readAsset(src: ByteSource, e: AssetEntry): Promise<Uint8Array> {
  const field = `asset ${e.name}`;
  if (e.payloadLength > MAX_ASSET_BYTES)
    throw new FormatError('limit', `${e.payloadLength} bytes (at most ${MAX_ASSET_BYTES})`, {
      offset: BENDL_ENTRY.offset('payloadLength', e.entryOffset),
      field,
    });
  const stored = await readField(src, e.payloadOffset, e.payloadLength, field);
  checkAssetCrc(e, stored);
  if (!(e.flags & ASSET_FLAG_XZ)) return stored;
  return xzDecompressAll(src, { offset: e.payloadOffset, length: e.payloadLength, maxOutput: MAX_ASSET_BYTES, field });
}
