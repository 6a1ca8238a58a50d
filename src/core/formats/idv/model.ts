import { bytes, i32le, i64leNumber, layout, pad, u64le } from '../../io/layout.js';

/**
 * Types of an ML.NET binary dataview (spec idv.md): a 256-byte header, column blocks, per-column
 * lookup tables and metadata, the column table of contents and an 8-byte tail signature.
 */

/** The 256-byte header (spec idv.md §2), read, written and drawn from this declaration only. */
export const IDV_HEADER = layout({
  signature: bytes(8, 'signature'),
  version: u64le('version'),
  compatibleVersion: u64le('compatible version'),
  tocOffset: i64leNumber('table of contents offset'),
  tailOffset: i64leNumber('tail offset'),
  rowCount: i64leNumber('row count'),
  columnCount: i32le('column count'),
  unused: pad(204, 'unused'),
});
export const HEADER_BYTES = IDV_HEADER.size;
export const SIGNATURE = Uint8Array.of(0x43, 0x4d, 0x4c, 0x00, 0x44, 0x56, 0x42, 0x00);
export const TAIL_SIGNATURE = Uint8Array.of(0x00, 0x42, 0x56, 0x44, 0x00, 0x4c, 0x4d, 0x43);
export const LOOKUP_ENTRY_BYTES = 16;

/** a.b.c.d packed into a u64 as (a<<48)|(b<<32)|(c<<16)|d. */
export type Version = readonly [number, number, number, number];

export interface IdvHeader {
  readonly version: Version;
  readonly compatibleVersion: Version;
  readonly tocOffset: number;
  readonly tailOffset: number;
  readonly rowCount: number;
  readonly columnCount: number;
}

/** A codec definition ("type descriptor"): load name, then `paramLength` bytes of parameters. */
export interface CodecDef {
  readonly offset: number;
  readonly length: number;
  readonly loadName: string;
  readonly paramOffset: number;
  readonly paramLength: number;
  /** What the parameters say, for the codecs that have any. */
  readonly inner?: CodecDef;
  readonly keyCount?: bigint;
  readonly legacyKey?: { readonly contiguous: number; readonly min: bigint; readonly count: number };
  readonly dims?: readonly number[];
  /** Why the parameters do not parse (the column is then unreadable, as in ML.NET). */
  readonly problem?: string;
}

export const COMPRESSION_NAMES: Record<number, string> = { 0: 'none', 1: 'deflate', 2: 'zlib (never implemented)' };

export interface MetadataEntry {
  /** Offset and length of the entry in the metadata table of contents. */
  readonly offset: number;
  readonly length: number;
  readonly kind: string;
  readonly codec: CodecDef;
  readonly compression: number;
  readonly blockOffset: number;
  readonly blockSize: number;
}

export interface ColumnEntry {
  readonly index: number;
  /** Offset and length of the TOC entry. */
  readonly offset: number;
  readonly length: number;
  readonly name: string;
  readonly codec: CodecDef;
  readonly compression: number;
  readonly rowsPerBlock: number;
  readonly lookupOffset: number;
  /** 0 = no metadata; always 0 before version 1.1.1.4, which had no metadata. */
  readonly metadataTocOffset: number;
  /** Version 1.1.1.3 only: slot names stored directly, as (i32 slot, string name) pairs. */
  readonly slotNames?: { readonly offset: number; readonly byteSize: number; readonly count: number };
}

export interface BlockEntry {
  readonly offset: number;
  readonly storedLength: number;
  readonly decompressedLength: number;
}

export function versionText(v: Version): string {
  return v.join('.');
}

export function compareVersion(a: Version, b: Version): number {
  for (let i = 0; i < 4; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

export function blockCount(rowCount: number, rowsPerBlock: number): number {
  return rowCount === 0 || rowsPerBlock <= 0 ? 0 : Math.floor((rowCount - 1) / rowsPerBlock) + 1;
}
