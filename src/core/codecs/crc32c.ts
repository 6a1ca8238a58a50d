import CRC32C from 'crc-32/crc32c';

/**
 * CRC-32C (Castagnoli, reflected 0x82F63B78, init and xorout 0xFFFFFFFF), as an unsigned
 * 32-bit number. `previous` continues a CRC over data split into pieces.
 */
export function crc32c(data: Uint8Array, previous?: number): number {
  // crc-32 takes and returns the finalised CRC as a signed int32, so chaining needs no fix-up.
  return CRC32C.buf(data, previous === undefined ? undefined : previous | 0) >>> 0;
}
