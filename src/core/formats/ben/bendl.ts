import { FormatError } from '../../errors.js';
import { BinReader, u32leAt } from '../../io/binReader.js';
import type { ByteSource } from '../../io/byteSource.js';
import { readField } from '../../io/byteSource.js';
import { crc32c } from '../../codecs/crc32c.js';
import { xzDecompressAll } from '../../codecs/xz/decode.js';
import { BENDL_MAGIC, isBendlMagic } from './bendlMagic.js';

export { BENDL_MAGIC, isBendlMagic };

/** BENDL v1 bundle (spec ben.md §6): all integers little-endian. */
export const HEADER_BYTES = 64;
export const TAIL_BYTES = 8;
export const MAX_ASSETS = 256;
export const ENTRY_HEADER_BYTES = 28;

export const ASSET_FLAG_JSON = 1;
export const ASSET_FLAG_XZ = 2;
export const ASSET_FLAG_CHECKSUM = 4;

/** Singleton asset types and the names they must carry; type 4 is custom. */
export const STANDARD_ASSETS: Record<number, string> = { 1: 'metadata.json', 2: 'graph.json', 3: 'node_permutation_map.json' };
export const CUSTOM_ASSET = 4;

export interface BendlHeader {
  readonly major: number;
  readonly minor: number;
  /** 0 incomplete, 1 finalized. */
  readonly finalized: number;
  /** 1 BEN, 2 XBEN. */
  readonly assignmentFormat: number;
  /** bit0: stream checksum valid; other bits reserved. */
  readonly flags: number;
  readonly streamChecksum: number;
  readonly directoryOffset: number;
  readonly directoryLength: number;
  readonly streamOffset: number;
  readonly streamLength: number;
  /** Expanded samples; −1 while unfinalized. */
  readonly sampleCount: bigint;
}

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
  const r = new BinReader(await readField(src, 0, HEADER_BYTES, 'bundle header'), 0);
  if (!isBendlMagic(r.bytesOf(8, 'magic'))) throw new FormatError('bad-magic', 'not a BENDL bundle (magic "BENDL\\0\\0\\x01")', { offset: 0, field: 'magic' });
  const major = r.u16le('major version');
  if (major !== 1) throw new FormatError('unsupported-version', `BENDL major version ${major} (only 1 exists)`, { offset: 8, field: 'major version' });
  const minor = r.u16le('minor version');
  const finalized = r.u8('finalized');
  const assignmentFormat = r.u8('assignment format');
  r.skip(2, 'padding');
  return {
    major,
    minor,
    finalized,
    assignmentFormat,
    flags: r.u32le('flags'),
    streamChecksum: r.u32le('stream checksum'),
    directoryOffset: r.u64leNumber('directory offset'),
    directoryLength: r.u64leNumber('directory length'),
    streamOffset: r.u64leNumber('stream offset'),
    streamLength: r.u64leNumber('stream length'),
    sampleCount: r.i64le('sample count'),
  };
}

export async function readHeaderTail(src: ByteSource): Promise<HeaderTail> {
  if (src.size < HEADER_BYTES + TAIL_BYTES) return { state: 'absent' };
  const bytes = await src.read(0, HEADER_BYTES + TAIL_BYTES);
  const computed = crc32c(bytes.subarray(0, HEADER_BYTES));
  const stored = u32leAt(bytes, HEADER_BYTES);
  // The tail's second word is always zero; anything else is payload of an older bundle.
  if (u32leAt(bytes, HEADER_BYTES + 4) !== 0) return { state: 'absent' };
  if (stored === computed) return { state: 'valid', crc: computed };
  return { state: 'mismatch', stored, computed };
}

/** Structural header rules (spec §6) that hold with or without the tail; each failure located. */
export function headerProblems(h: BendlHeader, fileSize: number): FormatError[] {
  const out: FormatError[] = [];
  const bad = (detail: string, offset: number, field: string) => out.push(new FormatError('corrupt', detail, { offset, field }));
  if (h.finalized > 1) bad(`finalized is ${h.finalized} (0 or 1)`, 12, 'finalized');
  if (h.assignmentFormat !== 1 && h.assignmentFormat !== 2) bad(`assignment format ${h.assignmentFormat} (1 BEN, 2 XBEN)`, 13, 'assignment format');
  if (h.streamOffset < HEADER_BYTES) bad(`stream offset ${h.streamOffset} is inside the header`, 40, 'stream offset');
  if (h.streamOffset > fileSize) bad(`stream offset ${h.streamOffset} is past the end of the file (${fileSize})`, 40, 'stream offset');
  if (h.finalized === 1 && h.streamOffset + h.streamLength > fileSize) {
    bad(`stream [${h.streamOffset}, ${h.streamOffset + h.streamLength}) runs past the end of the file (${fileSize})`, 48, 'stream length');
  }
  if (h.directoryOffset !== 0 && h.directoryOffset + h.directoryLength > fileSize) {
    bad(`directory [${h.directoryOffset}, ${h.directoryOffset + h.directoryLength}) runs past the end of the file (${fileSize})`, 24, 'directory offset');
  }
  if (h.finalized === 1 && h.sampleCount < 0n) bad(`a finalized bundle has sample count ${h.sampleCount}`, 56, 'sample count');
  if (h.finalized === 0 && h.sampleCount !== -1n) bad(`an unfinalized bundle must have sample count −1, not ${h.sampleCount}`, 56, 'sample count');
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
    const assetType = r.u16le(`${what} type`);
    const flags = r.u16le(`${what} flags`);
    const nameLength = r.u16le(`${what} name length`);
    r.skip(2, `${what} reserved`);
    const payloadOffset = r.u64leNumber(`${what} payload offset`);
    const payloadLength = r.u64leNumber(`${what} payload length`);
    const checksumLength = r.u32le(`${what} checksum length`);
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
      throw new FormatError('corrupt', `checksum length ${checksumLength} disagrees with the checksum flag (${wantsChecksum ? 'set' : 'clear'})`, {
        offset: entryOffset + 24,
        field: `${what} checksum length`,
      });
    }
    const checksum = wantsChecksum ? r.u32le(`${what} checksum`) : undefined;
    if (names.has(name)) throw new FormatError('corrupt', `duplicate asset name ${JSON.stringify(name)}`, { offset: nameAt, field: `${what} name` });
    names.add(name);
    const standard = STANDARD_ASSETS[assetType];
    if (standard !== undefined && name !== standard) {
      throw new FormatError('corrupt', `asset type ${assetType} must be named ${standard}, not ${JSON.stringify(name)}`, { offset: nameAt, field: `${what} name` });
    }
    if (assetType === CUSTOM_ASSET && Object.values(STANDARD_ASSETS).includes(name)) {
      throw new FormatError('corrupt', `custom asset uses the reserved name ${name}`, { offset: nameAt, field: `${what} name` });
    }
    if (payloadOffset < HEADER_BYTES || payloadOffset + payloadLength > src.size) {
      throw new FormatError('out-of-range', `payload [${payloadOffset}, ${payloadOffset + payloadLength}) is outside the file`, {
        offset: entryOffset + 8,
        field: `${what} payload offset`,
      });
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
    throw new FormatError('checksum', `CRC32C ${crc.toString(16).padStart(8, '0')} does not match the stored ${e.checksum.toString(16).padStart(8, '0')}`, { offset: e.payloadOffset, field: `asset ${e.name}` });
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
  if (e.payloadLength > MAX_ASSET_BYTES) throw new FormatError('limit', `${e.payloadLength} bytes (at most ${MAX_ASSET_BYTES})`, { offset: e.entryOffset + 16, field });
  const stored = await readField(src, e.payloadOffset, e.payloadLength, field);
  checkAssetCrc(e, stored);
  if (!(e.flags & ASSET_FLAG_XZ)) return stored;
  return xzDecompressAll(src, { offset: e.payloadOffset, length: e.payloadLength, maxOutput: MAX_ASSET_BYTES, field });
}
