/**
 * Xet's text form of a 32-byte hash (spec xorb.md §5.2): four little-endian u64 words, each
 * printed as 16 hex digits. Plain hex of the raw bytes is a different, wrong string.
 */
export function hashToString(raw: Uint8Array): string {
  let out = '';
  for (let word = 0; word < 4; word++) {
    for (let i = 7; i >= 0; i--) out += raw[word * 8 + i]!.toString(16).padStart(2, '0');
  }
  return out;
}

/** The raw bytes of a hash given in Xet's text form; undefined when it is not 64 hex digits. */
export function hashFromString(text: string): Uint8Array | undefined {
  if (!/^[0-9a-fA-F]{64}$/.test(text)) return undefined;
  const raw = new Uint8Array(32);
  for (let word = 0; word < 4; word++) {
    for (let i = 0; i < 8; i++) raw[word * 8 + 7 - i] = parseInt(text.slice(word * 16 + i * 2, word * 16 + i * 2 + 2), 16);
  }
  return raw;
}
