import { describe, expect, it } from 'vitest';
import { utf8Text } from './utf8.js';

const fatal = new TextDecoder('utf-8', { fatal: true });
const reference = (b: Uint8Array) => {
  try {
    return fatal.decode(b);
  } catch {
    return undefined;
  }
};

describe('utf8Text agrees with a fatal TextDecoder', () => {
  it('on every one- and two-byte sequence and the boundaries of table 3-7', () => {
    const cases: Uint8Array[] = [];
    for (let a = 0; a < 256; a++) {
      cases.push(Uint8Array.of(a));
      for (let b = 0; b < 256; b++) cases.push(Uint8Array.of(a, b));
    }
    const edges = [0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff];
    for (const a of edges)
      for (const b of edges)
        for (const c of edges) {
          cases.push(Uint8Array.of(a, b, c));
          for (const d of [0x41, 0x80, 0xbf, 0xc0]) cases.push(Uint8Array.of(a, b, c, d));
        }
    const differ = cases.filter((b) => utf8Text(b) !== reference(b));
    expect(differ).toEqual([]);
  });

  it('on random strings of valid text with bytes flipped and cut', () => {
    let seed = 5;
    const rnd = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
    const samples = ['a', 'é', '€', '𝄞', '\u{10FFFF}', '\uFFFD', 'ß'];
    const differ: Uint8Array[] = [];
    for (let t = 0; t < 5000; t++) {
      const text = Array.from({ length: 1 + rnd(12) }, () => samples[rnd(samples.length)]).join('');
      const bytes = new TextEncoder().encode(text);
      if (rnd(2)) bytes[rnd(bytes.length)] = rnd(256);
      const cut = bytes.subarray(0, rnd(3) ? bytes.length : rnd(bytes.length + 1));
      if (utf8Text(cut) !== reference(cut)) differ.push(cut);
    }
    expect(differ).toEqual([]);
  });
});
