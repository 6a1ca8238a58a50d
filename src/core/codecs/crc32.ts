import CRC32 from 'crc-32';

/** CRC-32 (IEEE 802.3, reflected 0xEDB88320), as the .xz container uses it; unsigned. */
export function crc32(data: Uint8Array, previous?: number): number {
  return CRC32.buf(data, previous === undefined ? undefined : previous | 0) >>> 0;
}
