import { bytes, layout, u24le, u32le, u8 } from '../../io/layout.js';

/**
 * Types of a Hugging Face Xet xorb (spec xorb.md): chunks of an 8-byte header and a payload,
 * optionally followed by a footer (`XorbObjectInfo`) and its u32 length.
 */

/** A chunk header (spec xorb.md §2), read, written and drawn from this declaration only. */
export const CHUNK_HEADER = layout({
  version: u8('chunk header version'),
  compressedLength: u24le('compressed length'),
  scheme: u8('compression scheme'),
  uncompressedLength: u24le('uncompressed length'),
});
export const CHUNK_HEADER_BYTES = CHUNK_HEADER.size;

/** A footer's start (spec §4): ident "XETBLOB", footer version, xorb hash. */
export const FOOTER_HEAD = layout({ ident: bytes(7, 'footer ident'), version: u8('footer version'), xorbHash: bytes(32, 'xorb hash') });
/** The head of a V1 footer's hash and boundary sections: ident, version, chunk count. */
export const SECTION_HEAD = layout({ ident: bytes(7, 'ident'), version: u8('version'), count: u32le('chunk count') });
/** The end of a V1 footer (spec §4.1). */
export const FOOTER_V1_TAIL = layout({
  chunkCount: u32le('chunk count'),
  hashesSectionOffsetFromEnd: u32le('hashes section offset from end'),
  boundarySectionOffsetFromEnd: u32le('boundary section offset from end'),
  reserved: bytes(16, 'reserved'),
});
export const HASH_BYTES = 32;
export const FOOTER_RESERVED_BYTES = 16;

/** Where each part of a footer of `n` chunks starting at `at` lies (spec §4.1 V1, §4.2 V0). */
export interface FooterParts {
  /** V1: the hash section's head; V0: the chunk count. */
  readonly hashSection: number;
  readonly hashes: number;
  /** V1 only: the boundary section's head. */
  readonly boundarySection: number;
  readonly boundaries: number;
  /** V1 only: the unpacked offsets. */
  readonly unpacked: number;
  /** V1: FOOTER_V1_TAIL; V0: the reserved bytes. */
  readonly tail: number;
  /** Where the footer ends (the u32 info_length follows). */
  readonly end: number;
}

export function footerParts(version: FooterVersion, at: number, n: number): FooterParts {
  const head = at + FOOTER_HEAD.size;
  if (version === 1) {
    const hashes = head + SECTION_HEAD.size;
    const boundarySection = hashes + HASH_BYTES * n;
    const boundaries = boundarySection + SECTION_HEAD.size;
    const unpacked = boundaries + 4 * n;
    const tail = unpacked + 4 * n;
    return { hashSection: head, hashes, boundarySection, boundaries, unpacked, tail, end: tail + FOOTER_V1_TAIL.size };
  }
  const boundaries = head + 4;
  const hashes = boundaries + 4 * n;
  const tail = hashes + HASH_BYTES * n;
  return { hashSection: head, hashes, boundarySection: boundaries, boundaries, unpacked: tail, tail, end: tail + FOOTER_RESERVED_BYTES };
}
/** Largest uncompressed chunk the reference reader accepts (2 × the 64 KiB CDC target). */
export const MAX_CHUNK_BYTES = 131072;
/** Largest compressed-length field the reference reader accepts. */
export const MAX_COMPRESSED_BYTES = 2 * MAX_CHUNK_BYTES;
/** Limits of a xorb: the client never forms larger ones and the server refuses them. Verify fails past them; reading still works. */
export const MAX_XORB_BYTES = 64 * 1024 * 1024;
export const MAX_XORB_CHUNKS = 8192;

export enum Scheme {
  None = 0,
  LZ4 = 1,
  ByteGrouping4LZ4 = 2,
}

export const SCHEME_NAMES: Record<number, string> = { 0: 'none', 1: 'lz4', 2: 'bg4-lz4' };

export interface ChunkHeader {
  /** Absolute offset of the header. */
  readonly offset: number;
  /** u8: must be 0. */
  readonly version: number;
  /** u24 LE: payload bytes after the header. */
  readonly compressedLength: number;
  /** u8: 0 none, 1 LZ4 frame, 2 byte-grouping-4 then LZ4 frame. */
  readonly scheme: number;
  /** u24 LE: bytes after decompression. */
  readonly uncompressedLength: number;
}

export type FooterVersion = 0 | 1;

/** The footer (`XorbObjectInfo`) of the full form, V1 or legacy V0. */
export interface XorbFooter {
  /** Offset of "XETBLOB": the end of the chunk region. */
  readonly offset: number;
  /** u32 after the footer: bytes of the footer, not counting itself. */
  readonly infoLength: number;
  readonly version: FooterVersion;
  /** Raw 32 bytes as stored (show them with `hashToString`). */
  readonly xorbHash: Uint8Array;
  readonly chunkCount: number;
  readonly chunkHashes: readonly Uint8Array[];
  /** End offset of each chunk in the file (header included). */
  readonly boundaries: readonly number[];
  /** End offset of each chunk in the decompressed stream; V1 only. */
  readonly unpackedOffsets?: readonly number[];
  /** V1 section offsets from the end of the reserved buffer. */
  readonly hashesSectionOffsetFromEnd?: number;
  readonly boundarySectionOffsetFromEnd?: number;
  readonly hashesVersion?: number;
  readonly boundariesVersion?: number;
  /** 16 reserved bytes; the first 4 may hold the uniqueness nonce. */
  readonly reserved: Uint8Array;
}

export type XorbForm = 'full' | 'footerless';
