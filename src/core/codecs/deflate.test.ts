import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deflateRaw, inflateRaw } from './deflate.js';

describe('raw DEFLATE', () => {
  it('inflates what zlib deflates, and zlib reads what it deflates', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), (data) => {
        expect(inflateRaw(new Uint8Array(deflateRawSync(data)), { maxSize: 1 << 20 })).toEqual(data);
        expect(inflateRaw(deflateRaw(data), { maxSize: 1 << 20, expectedSize: data.length })).toEqual(data);
      }),
      { numRuns: 200 },
    );
  });

  it('stops one byte past a declared size, so a longer stream is visible to the caller', () => {
    const packed = deflateRaw(new Uint8Array(1000).fill(7));
    expect(inflateRaw(packed, { maxSize: 1 << 20, expectedSize: 10 })).toHaveLength(11);
    expect(inflateRaw(packed, { maxSize: 1 << 20, expectedSize: 2000 })).toHaveLength(1000);
  });

  it('refuses a decompression bomb before allocating it', () => {
    const bomb = deflateRaw(new Uint8Array(50 << 20));
    expect(() => inflateRaw(bomb, { maxSize: 1 << 20 })).toThrow(expect.objectContaining({ code: 'limit' }));
    expect(() => inflateRaw(bomb, { maxSize: 1 << 20, expectedSize: 50 << 20 })).toThrow(expect.objectContaining({ code: 'limit' }));
  });

  it('names the field and offset of corrupt data', () => {
    expect(() => inflateRaw(Uint8Array.of(0xff, 0xff, 0xff), { maxSize: 100, offset: 256, field: 'column 0 block 0' })).toThrow(
      expect.objectContaining({ code: 'corrupt', offset: 256, field: 'column 0 block 0' }),
    );
  });
});
