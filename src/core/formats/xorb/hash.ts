import { keyedBlake3 } from '../../codecs/blake3.js';
import { equalBytes } from '../../io/bytes.js';

/** BLAKE3 key of chunk hashes (spec xorb.md §5.1). */
export const DATA_KEY = Uint8Array.from([
  102, 151, 245, 119, 91, 149, 80, 222, 49, 53, 203, 172, 165, 151, 24, 28, 157, 228, 33, 16, 155, 235, 43, 88, 180, 208, 176, 75, 147, 173, 242, 41,
]);

/** The chunk hasher: keyed BLAKE3 of the decompressed chunk bytes, never of the payload. */
export function chunkHasher(): Promise<(chunk: Uint8Array) => Uint8Array> {
  return keyedBlake3(DATA_KEY);
}

/**
 * Xet's text form of a 32-byte hash (spec xorb.md §5.2): four little-endian u64 words, each
 * printed as 16 hex digits. Plain hex of the raw bytes is a different, wrong string.
 */
export function hashToString(raw: Uint8Array): string {
  // Character codes made into one string at once: `info` and the chunk table print two hashes
  // per chunk, and 2 048 of them took 18 ms as strings of 32 concatenated pairs, 5 ms so.
  for (let i = 0; i < 32; i++) {
    const b = raw[(i & ~7) | (7 - (i & 7))]!;
    HASH_CODES[2 * i] = HEX_DIGITS[b >> 4]!;
    HASH_CODES[2 * i + 1] = HEX_DIGITS[b & 15]!;
  }
  return String.fromCharCode.apply(null, HASH_CODES);
}

const HEX_DIGITS = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const HASH_CODES: number[] = new Array<number>(64).fill(0);

/** The raw bytes of a hash given in Xet's text form; undefined when it is not 64 hex digits. */
export function hashFromString(text: string): Uint8Array | undefined {
  if (!/^[0-9a-fA-F]{64}$/.test(text)) return undefined;
  const raw = new Uint8Array(32);
  for (let word = 0; word < 4; word++) {
    for (let i = 0; i < 8; i++) raw[word * 8 + 7 - i] = parseInt(text.slice(word * 16 + i * 2, word * 16 + i * 2 + 2), 16);
  }
  return raw;
}

/** Plain hex of the raw bytes: not how xet writes hashes, but what people paste by mistake. */
export function rawHex(raw: Uint8Array): string {
  let out = '';
  for (const b of raw) out += b.toString(16).padStart(2, '0');
  return out;
}

export const sameHash = equalBytes;
