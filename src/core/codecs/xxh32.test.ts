import { describe, expect, it } from 'vitest';
import { xxh32 } from './xxh32.js';

const text = (s: string) => new TextEncoder().encode(s);

describe('xxh32', () => {
  it('gives the reference values (xxHash test vectors)', () => {
    expect(xxh32(new Uint8Array(0))).toBe(0x02cc5d05);
    expect(xxh32(text('a'))).toBe(0x550d7456);
    expect(xxh32(text('abc'))).toBe(0x32d153ff);
    expect(xxh32(text('Nobody inspects the spammish repetition'))).toBe(0xe2293b2f);
  });

  it('hashes a sub-range like the same bytes on their own', () => {
    const data = text('xx0123456789abcdef0123456789abcdefyy');
    expect(xxh32(data, 0, 2, data.length - 2)).toBe(xxh32(data.subarray(2, data.length - 2)));
    expect(xxh32(data, 7)).not.toBe(xxh32(data, 0));
  });
});
