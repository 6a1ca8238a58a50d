import { describe, expect, it } from 'vitest';
import { decodeZstd } from './zstd.js';

/** Frames written by Debian's `zstd -19` (the reference encoder), not by anything under test. */
const HELLO = hex('28b52ffd2423bd00008868656c6c6f2062696e6475207a7374640a0100f14a114384ec1f');
const ZEROS_10000 = hex('28b52ffd0468450000080001000c8707420144e310');

function hex(s: string): Uint8Array {
  return Uint8Array.from(s.match(/../g)!.map((b) => parseInt(b, 16)));
}

describe('Zstandard decoding', () => {
  it('decodes frames written by the zstd CLI', () => {
    expect(new TextDecoder().decode(decodeZstd(HELLO, { maxSize: 1000 }))).toBe('hello hello hello hello bindu zstd\n');
    expect(decodeZstd(ZEROS_10000, { maxSize: 10000 })).toEqual(new Uint8Array(10000));
  });

  it('stops a frame that decodes past the cap', () => {
    expect(() => decodeZstd(ZEROS_10000, { maxSize: 9999, offset: 40, field: 'chunk 0' })).toThrow(
      expect.objectContaining({ code: 'limit', offset: 40, field: 'chunk 0' }),
    );
  });

  it('names the offset and field of damaged data', () => {
    const bad = HELLO.slice();
    bad[0] = 0;
    expect(() => decodeZstd(bad, { maxSize: 1000, offset: 7, field: 'chunk 1' })).toThrow(
      expect.objectContaining({ code: 'corrupt', offset: 7, field: 'chunk 1' }),
    );
    expect(() => decodeZstd(HELLO.subarray(0, 20), { maxSize: 1000 })).toThrow(expect.objectContaining({ code: 'corrupt' }));
  });
});
