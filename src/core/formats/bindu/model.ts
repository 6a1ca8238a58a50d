import { bytes, layout, pad, u16le, u32le, u64le, u64leNumber, u8 } from '../../io/layout.js';

/**
 * Types of a Bindu open container v1 file (spec bindu-open-v1.md): a preamble, then frames of a
 * 12-byte header, a payload and a CRC-32C, ending with a 512-byte Footer frame.
 */

export const MAGIC = Uint8Array.of(0x42, 0x49, 0x4e, 0x44, 0x55, 0x00);

/** Here, not in frames.ts, so the handler's sniff loads no checksum code at start. */
export function hasMagic(head: Uint8Array): boolean {
  return head.length >= MAGIC.length && MAGIC.every((b, i) => head[i] === b);
}
/** A frame's header (spec C.2): read, written and drawn from this declaration only. */
export const FRAME_HEADER = layout({
  type: u8('frame type'),
  version: u8('frame version'),
  flags: u16le('frame flags'),
  payloadLength: u64leNumber('payload length'),
});
/** The fixed start of the Header frame's payload (spec C.3); strings and lists follow. */
export const HEADER_PAYLOAD = layout({
  fingerprint: bytes(16, 'schema fingerprint'),
  fileFlags: u64le('file flags'),
  rowCount: u64le('row count'),
  columnCount: u32le('column count'),
  writerMajor: u16le('writer major'),
  writerMinor: u16le('writer minor'),
  writerPatch: u16le('writer patch'),
});
/** The Footer frame's payload (spec C.10). */
export const FOOTER_PAYLOAD = layout({
  version: u32le('footer version'),
  flags: u32le('footer flags'),
  footerOffset: u64leNumber('footer offset'),
  frameCount: u64leNumber('frame count'),
  checksumAlgo: u8('checksum algorithm'),
  reserved: pad(7, 'reserved'),
  checksum: bytes(32, 'file checksum'),
  fingerprint: bytes(16, 'schema fingerprint'),
  merkleRoot: bytes(32, 'Merkle root'),
  sectionCount: u32le('section count'),
  reserved2: pad(4, 'reserved'),
  sections: bytes(8 * 24, 'section table'),
  reserved3: pad(176, 'reserved'),
  magic: bytes(8, 'magic'),
});
/** One entry of the footer's section table (spec C.10). */
export const FOOTER_SECTION = layout({
  type: u8('section type'),
  reserved: pad(3, 'section reserved'),
  count: u32le('section count'),
  firstOffset: u64leNumber('section first offset'),
  span: u64leNumber('section span'),
});
export const FRAME_HEADER_BYTES = FRAME_HEADER.size;
export const FRAME_CRC_BYTES = 4;
export const FOOTER_PAYLOAD_BYTES = FOOTER_PAYLOAD.size;
export const FOOTER_FRAME_BYTES = FRAME_HEADER_BYTES + FOOTER_PAYLOAD_BYTES + FRAME_CRC_BYTES;
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

/** A typed key/value of the Header config and of UserMeta (spec C.3, C.11). */
export interface MetaEntry {
  readonly key: string;
  /** 0 bytes, 1 UTF-8, 2 i64 LE, 3 JSON. */
  readonly valueType: number;
  readonly value: Uint8Array;
}

export const META_VALUE_TYPES = ['bytes', 'UTF-8', 'i64', 'JSON'];

/** A reference to shared external state (stateful mode only). */
export interface ExtRef {
  /** 1 schema, 2 dictionary, 3 rule pool, 4 symbol table. */
  readonly kind: number;
  readonly sha256: Uint8Array;
  readonly locator: string;
}

export const EXTREF_KINDS: Record<number, string> = { 1: 'schema', 2: 'dictionary', 3: 'rule pool', 4: 'symbol table' };

export interface HeaderFrame {
  readonly fingerprint: Uint8Array;
  readonly fileFlags: bigint;
  readonly rowCount: bigint;
  readonly columnCount: number;
  readonly writerVersion: readonly [number, number, number];
  readonly writerName: string;
  readonly config: readonly MetaEntry[];
  readonly extrefs: readonly ExtRef[];
  /** SHA-256 of the original input of a byte stream (flag SOURCE_DIGEST). */
  readonly sourceDigest?: Uint8Array;
}

export const FILE_FLAG_NAMES = ['SCHEMA_EMBEDDED', 'SEALED', 'STATEFUL', 'BYTE_STREAM', 'SOURCE_DIGEST', 'HAS_INDEXES'];

export const FileFlag = {
  SchemaEmbedded: 1n,
  Sealed: 2n,
  Stateful: 4n,
  ByteStream: 8n,
  SourceDigest: 16n,
  HasIndexes: 32n,
} as const;

/** Type descriptors of the schema and of column frames (spec C.4). */
export type TypeDesc =
  | { readonly code: 'INT'; readonly bits: 8 | 16 | 32 | 64; readonly signed: boolean }
  | { readonly code: 'FLOAT'; readonly bits: 32 | 64 }
  /** No labels = an open enum whose labels come from a Dictionary. */
  | { readonly code: 'ENUM'; readonly labels: readonly string[] }
  | { readonly code: 'TS'; readonly unit: TsUnit }
  | { readonly code: 'STRING' }
  | { readonly code: 'BYTES' }
  | { readonly code: 'NESTED'; readonly children: readonly SchemaField[] };

export type LeafType = Exclude<TypeDesc, { code: 'NESTED' }>;

export const TS_UNITS = ['s', 'ms', 'us', 'ns'] as const;
export type TsUnit = (typeof TS_UNITS)[number];

export interface SchemaField {
  readonly name: string;
  readonly nullable: boolean;
  readonly type: TypeDesc;
}

/** A leaf of the schema: one column; its id is its depth-first pre-order index. */
export interface LeafColumn {
  readonly id: number;
  /** Names from the root joined with ".". */
  readonly name: string;
  readonly nullable: boolean;
  readonly type: LeafType;
}

export interface Schema {
  readonly fields: readonly SchemaField[];
  readonly leaves: readonly LeafColumn[];
}

/** Dictionary frame (spec C.5). */
export interface Dictionary {
  readonly offset: number;
  readonly id: number;
  /** 1 VALUES, 2 FIXED, 0x80+ opaque. */
  readonly kind: number;
  readonly width?: number;
  /** 0 per-file, 1 inline copy of a shared dictionary, 2 external reference. */
  readonly origin: number;
  readonly sharedSha256?: Uint8Array;
  readonly sharedName?: string;
  /** Canonical value bytes per code; absent for external and opaque dictionaries. */
  readonly entries?: readonly Uint8Array[];
}

export const DICT_ORIGINS = ['per-file', 'inline copy of a shared dictionary', 'external reference'];

/** Codec ids of the chain (spec C.6). */
export enum Codec {
  NONE = 0x00,
  PLAIN = 0x01,
  VARINT = 0x02,
  BITPACK = 0x03,
  DELTA = 0x10,
  FOR = 0x11,
  ZIGZAG = 0x12,
  RLE = 0x13,
  DICT = 0x14,
  ZSTD = 0x20,
  LZ4 = 0x21,
  DEFLATE = 0x22,
}

const PROPRIETARY = ['GRAMMAR', 'BWT', 'DICT_PIPELINE', 'LINDELTA', 'CONSTANT', 'RLE_PIPELINE', 'PAETH2D', 'RAW_MODEL'];

export function codecName(id: number): string {
  if (Codec[id] !== undefined) return Codec[id]!;
  if (id >= 0x40 && id <= 0x47) return PROPRIETARY[id - 0x40]!;
  return id >= 0x80 ? `extension 0x${id.toString(16)}` : `unknown 0x${id.toString(16).padStart(2, '0')}`;
}

export interface Stage {
  readonly codec: number;
  readonly params: Uint8Array;
  /** Absolute offset of the stage's codec id byte. */
  readonly offset: number;
}

export interface ChunkEntry {
  readonly index: number;
  readonly rows: number;
  readonly firstRow: number;
  readonly byteLength: number;
  /** Absolute offset of the chunk blob. */
  readonly blobOffset: number;
  /** Canonical value bytes (C.6); empty for an all-null chunk; absent without stats. */
  readonly min?: Uint8Array;
  readonly max?: Uint8Array;
}

/** Column frame (spec C.6) up to its chunk blobs, which are read when a page needs them. */
export interface ColumnFrame {
  readonly frame: FrameHeader;
  readonly id: number;
  readonly name: string;
  readonly type: LeafType;
  readonly nullable: boolean;
  readonly hasStats: boolean;
  /** In encode order. */
  readonly stages: readonly Stage[];
  readonly rowCount: number;
  readonly chunks: readonly ChunkEntry[];
}

/** BloomIndex frame (spec C.7). */
export interface BloomIndex {
  readonly offset: number;
  readonly column: number;
  readonly hash: number;
  readonly k: number;
  readonly mBits: number;
  /** 0 one filter per file, 1 one per chunk. */
  readonly granularity: number;
  readonly nInserted: number;
  readonly filters: readonly Uint8Array[];
}

export interface ChunkRange {
  readonly chunk: number;
  readonly min: Uint8Array;
  readonly max: Uint8Array;
}

/** SortedIndex frame (spec C.8). */
export interface SortedIndex {
  readonly offset: number;
  readonly column: number;
  /** 1 chunk ranges, 2 permutation. */
  readonly kind: number;
  readonly ranges?: readonly ChunkRange[];
  readonly permutation?: { readonly rowCount: number; readonly stages: readonly Stage[]; readonly byteLength: number; readonly dataOffset: number };
}

export interface MerkleLeaf {
  readonly offset: number;
  readonly hash: Uint8Array;
}

/** MerkleTree frame (spec C.9). */
export interface MerkleTree {
  readonly offset: number;
  readonly hash: number;
  readonly leafScheme: number;
  readonly leaves: readonly MerkleLeaf[];
  readonly root: Uint8Array;
}
