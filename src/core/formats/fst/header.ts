import { FormatError } from '../../errors.js';
import { BinReader } from '../../io/binReader.js';
import type { ByteSource } from '../../io/byteSource.js';
import { readField } from '../../io/byteSource.js';
import { layout, u64le } from '../../io/layout.js';

/**
 * The fixed parts of an fst file (spec fst.md §2): a 16-byte header, node data, a 16-byte
 * footer and, from format version 3, a 4-byte masked CRC-32C. There is no magic number.
 */
export const FST_HEADER = layout({ version: u64le('version'), fstType: u64le('fst type') });
export const FST_FOOTER = layout({ keyCount: u64le('key count'), rootAddress: u64le('root address') });
export const HEADER_BYTES = FST_HEADER.size;
export const FOOTER_BYTES = FST_FOOTER.size;
export const CHECKSUM_BYTES = 4;
/** Where node data starts; real nodes sit at addresses ≥ 16. */
export const NODES_START = HEADER_BYTES;

export type KnownVersion = 1 | 2 | 3;

export interface FstHeader {
  /** u64 LE at 0: 1 (fst 0.1–0.2, vellum), 2 (fst 0.3), 3 (fst 0.4, with checksum). */
  readonly version: bigint;
  /** u64 LE at 8: a user tag; 0 from every known builder. */
  readonly fstType: bigint;
}

export interface FstFooter {
  /** Offset of the footer: the end of node data. */
  readonly offset: number;
  /** u64 LE: number of keys the builder counted (vellum counts duplicates too). */
  readonly keyCount: bigint;
  /** u64 LE: absolute address of the root node's state byte; 0 is the EMPTY sentinel. */
  readonly rootAddress: bigint;
}

export interface FstLayout {
  readonly header: FstHeader;
  readonly footer: FstFooter;
  /** The stored masked CRC-32C of a version 3 file. */
  readonly storedChecksum: number | undefined;
  readonly size: number;
}

export function isKnownVersion(v: bigint): boolean {
  return v === 1n || v === 2n || v === 3n;
}

export function hasChecksum(version: bigint): boolean {
  return version >= 3n;
}

/** Smallest file a version allows: header + footer (+ checksum), holding only the empty key. */
export function minimumSize(version: bigint): number {
  return HEADER_BYTES + FOOTER_BYTES + (hasChecksum(version) ? CHECKSUM_BYTES : 0);
}

/**
 * Reads header and footer. Fails only when the file cannot hold them or names an unknown
 * version; a damaged footer is reported by `rootProblem`, so the viewer still shows it.
 */
export async function readLayout(src: ByteSource): Promise<FstLayout> {
  const { version, fstType } = FST_HEADER.read(new BinReader(await readField(src, 0, HEADER_BYTES, 'header'), 0));
  if (!isKnownVersion(version)) {
    throw new FormatError('unsupported-version', `unknown fst format version ${version} (known: 1, 2, 3)`, FST_HEADER.at('version'));
  }
  const min = minimumSize(version);
  if (src.size < min) {
    throw new FormatError('truncated', `a version ${version} fst needs at least ${min} bytes, the file has ${src.size}`, {
      offset: 0,
      field: 'file size',
    });
  }
  const checksumBytes = hasChecksum(version) ? CHECKSUM_BYTES : 0;
  const footerOffset = src.size - checksumBytes - FOOTER_BYTES;
  const tail = new BinReader(await src.read(footerOffset, FOOTER_BYTES + checksumBytes), footerOffset);
  const { keyCount, rootAddress } = FST_FOOTER.read(tail);
  const storedChecksum = checksumBytes ? tail.u32le('checksum') : undefined;
  return { header: { version, fstType }, footer: { offset: footerOffset, keyCount, rootAddress }, storedChecksum, size: src.size };
}

/**
 * Spec §9: the root is 0 (EMPTY) or lies in [16, footer start); every known writer puts it on
 * the last node byte, just before the footer. Returns what is wrong, or undefined.
 */
export function rootProblem(layout: FstLayout): { severity: 'error' | 'warn'; detail: string } | undefined {
  const root = layout.footer.rootAddress;
  const footer = BigInt(layout.footer.offset);
  if (root === 0n) {
    return layout.footer.offset === NODES_START
      ? undefined
      : { severity: 'warn', detail: 'root address 0 (EMPTY) but the file holds node data: damaged, or not written by a known producer' };
  }
  if (root < BigInt(NODES_START) || root >= footer) {
    return { severity: 'error', detail: `root address ${root} is outside the node data [16, ${footer})` };
  }
  if (root !== footer - 1n) {
    return { severity: 'warn', detail: `root address ${root} is not the last node byte (${footer - 1n}): damaged, or not written by a known producer` };
  }
  return undefined;
}

/** The CRC as fst 0.4 stores it: rotated right by 15 and offset, as Snappy's framing does. */
export function maskChecksum(crc: number): number {
  return ((((crc >>> 15) | (crc << 17)) >>> 0) + 0xa282ead8) >>> 0;
}
