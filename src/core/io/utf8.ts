const decoder = new TextDecoder('utf-8');

/**
 * The bytes as text when they are well-formed UTF-8 (Unicode 15, table 3-7), else undefined.
 * A fatal TextDecoder answers the same by throwing, which costs about 10 µs a call: too slow for
 * a key or cell at a time when most of a file's values are not UTF-8.
 */
export function utf8Text(bytes: Uint8Array): string | undefined {
  return isUtf8(bytes) ? decoder.decode(bytes) : undefined;
}

export function isUtf8(b: Uint8Array): boolean {
  const n = b.length;
  let i = 0;
  while (i < n) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    // The second byte's range depends on the first; later bytes are 80..BF.
    let more: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) more = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      more = 2;
      if (c === 0xe0) lo = 0xa0;
      else if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      more = 3;
      if (c === 0xf0) lo = 0x90;
      else if (c === 0xf4) hi = 0x8f;
    } else return false;
    if (i + more >= n) return false;
    const second = b[i + 1]!;
    if (second < lo || second > hi) return false;
    for (let k = 2; k <= more; k++) {
      const x = b[i + k]!;
      if (x < 0x80 || x > 0xbf) return false;
    }
    i += more + 1;
  }
  return true;
}
