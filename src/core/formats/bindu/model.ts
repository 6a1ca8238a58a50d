/**
 * Types of a Bindu open container v1 file (spec bindu-open-v1.md): a preamble, then frames of a
 * 12-byte header, a payload and a CRC-32C, ending with a 512-byte Footer frame.
 */

export const MAGIC = Uint8Array.of(0x42, 0x49, 0x4e, 0x44, 0x55, 0x00);
export const FRAME_HEADER_BYTES = 12;
export const FRAME_CRC_BYTES = 4;
export const FOOTER_FRAME_BYTES = 512;
export const FOOTER_PAYLOAD_BYTES = 496;
export const FOOTER_MAGIC = 'BINDUFTR';

export const FLAG_SKIPPABLE = 1;
export const FLAG_COMPRESSED = 2;
export const FLAG_EXTERNAL_REF = 4;
export const RESERVED_FLAGS = 0xf8;

export enum FrameType {
  Header = 0x01,
  Schema = 0x02,
  Dictionary = 0x03,
  Column = 0x04,
  BloomIndex = 0x05,
  SortedIndex = 0x06,
  MerkleTree = 0x07,
  Footer = 0x08,
  UserMeta = 0x80,
}

export const FRAME_TYPE_NAMES: Record<number, string> = {
  0x01: 'Header',
  0x02: 'Schema',
  0x03: 'Dictionary',
  0x04: 'Column',
  0x05: 'BloomIndex',
  0x06: 'SortedIndex',
  0x07: 'MerkleTree',
  0x08: 'Footer',
  0x80: 'UserMeta',
};

export function frameTypeName(type: number): string {
  return FRAME_TYPE_NAMES[type] ?? (type >= 0x81 ? `extension ${hex2(type)}` : type === 0 ? 'invalid (0x00)' : `reserved core type ${hex2(type)}`);
}

function hex2(n: number): string {
  return `0x${n.toString(16).padStart(2, '0')}`;
}

export interface Preamble {
  /** 10 (magic + u32 major) or the 8-byte variant (magic + u16). */
  readonly size: 8 | 10;
  readonly formatMajor: number;
}

export interface FrameHeader {
  readonly offset: number;
  readonly type: number;
  readonly version: number;
  readonly flags: number;
  readonly payloadLength: number;
  readonly storedCrc: number;
}

export function frameLength(f: FrameHeader): number {
  return FRAME_HEADER_BYTES + f.payloadLength + FRAME_CRC_BYTES;
}

export interface SectionEntry {
  readonly type: number;
  readonly count: number;
  readonly firstOffset: number;
  readonly span: number;
}

export interface Footer {
  readonly offset: number;
  readonly version: number;
  readonly flags: number;
  readonly footerOffset: number;
  readonly frameCount: number;
  /** 0 none, 1 SHA-256, 2 CRC-32C. */
  readonly checksumAlgo: number;
  readonly checksum: Uint8Array;
  readonly fingerprint: Uint8Array;
  readonly merkleRoot: Uint8Array;
  readonly sections: readonly SectionEntry[];
  readonly crcOk: boolean;
}

export const CHECKSUM_ALGOS: Record<number, string> = { 0: 'none', 1: 'SHA-256', 2: 'CRC-32C' };

export interface HeaderFrame {
  readonly fingerprint: Uint8Array;
  readonly fileFlags: bigint;
  readonly rowCount: bigint;
  readonly columnCount: number;
  readonly writerVersion: readonly [number, number, number];
  readonly writerName: string;
}

export const FILE_FLAG_NAMES = ['SCHEMA_EMBEDDED', 'SEALED', 'STATEFUL', 'BYTE_STREAM', 'SOURCE_DIGEST', 'HAS_INDEXES'];
