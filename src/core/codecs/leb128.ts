import { FormatError } from '../errors.js';
import type { BinReader } from '../io/binReader.js';

export interface Leb128Rules {
  /** Reject encodings with a redundant final 0x00 group (Bindu's minimal varints). */
  readonly minimal?: boolean;
  /** Most bytes allowed (10 holds any u64; .NET's string length prefix allows 5). */
  readonly maxBytes?: number;
}

/**
 * Unsigned LEB128 as a bigint: 7 bits per byte, low group first, high bit = more follows.
 * Rejects values above 64 bits, over-long encodings and (with `minimal`) redundant zeros.
 */
export function readLeb128Big(r: BinReader, field: string, rules: Leb128Rules = {}): bigint {
  const start = r.offset;
  const maxBytes = rules.maxBytes ?? 10;
  let value = 0n;
  let shift = 0n;
  for (let i = 0; ; i++) {
    if (i >= maxBytes) throw new FormatError('corrupt', `LEB128 varint longer than ${maxBytes} bytes`, { offset: start, field });
    const b = r.u8(field);
    value |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) {
      if (rules.minimal && b === 0 && i > 0) {
        throw new FormatError('corrupt', 'LEB128 varint is not minimally encoded', { offset: start, field });
      }
      if (value >> 64n !== 0n) throw new FormatError('corrupt', 'LEB128 varint exceeds 64 bits', { offset: start, field });
      return value;
    }
    shift += 7n;
  }
}

/** Unsigned LEB128 used as a count, length or offset: must fit a JS number exactly. */
export function readLeb128(r: BinReader, field: string, rules: Leb128Rules = {}): number {
  const start = r.offset;
  // Fast path: up to 4 bytes (28 bits) needs no bigint.
  const b = r.bytes;
  let p = r.pos;
  let value = 0;
  for (let i = 0; i < 4 && p < b.length; i++, p++) {
    const byte = b[p]!;
    value += (byte & 0x7f) * 2 ** (7 * i);
    if ((byte & 0x80) === 0) {
      if (rules.minimal && byte === 0 && i > 0) {
        throw new FormatError('corrupt', 'LEB128 varint is not minimally encoded', { offset: start, field });
      }
      if (rules.maxBytes !== undefined && i + 1 > rules.maxBytes) break;
      r.pos = p + 1;
      return value;
    }
  }
  const big = readLeb128Big(r, field, rules);
  if (big > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new FormatError('limit', `LEB128 value ${big} is larger than 2^53 - 1`, { offset: start, field });
  }
  return Number(big);
}

/** Unsigned LEB128 encoding of a non-negative integer. */
export function encodeLeb128(value: number | bigint): Uint8Array {
  let v = BigInt(value);
  if (v < 0n) throw new RangeError('LEB128 encodes non-negative values only');
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    out.push(byte);
  } while (v !== 0n);
  return Uint8Array.from(out);
}
