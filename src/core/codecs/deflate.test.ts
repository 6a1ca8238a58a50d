import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeCodecs } from '../io/nodeCodecs.js';
import { deflateRaw, inflateRaw } from './deflate.js';
import { installNativeCodecs } from './native.js';

// Every behaviour holds with fflate alone (the browser build) and with Node's zlib lent by the host.
describe.each([
  ['fflate', undefined],
  ['Node zlib', nodeCodecs.inflateRaw],
])('raw DEFLATE (%s)', (_name, native) => {
  beforeAll(() => installNativeCodecs({ inflateRaw: native }));
  afterAll(() => installNativeCodecs({ inflateRaw: undefined }));

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

describe('raw DEFLATE: Node zlib and fflate give the same bytes and the same errors', () => {
  afterAll(() => installNativeCodecs({ inflateRaw: undefined }));

  const outcome = (native: typeof nodeCodecs.inflateRaw, data: Uint8Array, opts: { maxSize: number; expectedSize?: number }) => {
    installNativeCodecs({ inflateRaw: native });
    try {
      return inflateRaw(data, { ...opts, offset: 40, field: 'block' });
    } catch (e) {
      return e as Error;
    }
  };

  it('on damaged and truncated streams, with and without a declared size', () => {
    const text = new TextEncoder().encode('the quick brown fox jumps over the lazy dog, again and again; '.repeat(60));
    const packed = [
      deflateRaw(text),
      new Uint8Array(deflateRawSync(text, { level: 1 })),
      deflateRaw(Uint8Array.from({ length: 3000 }, (_, i) => (i * 7919) & 0xff)),
    ];
    fc.assert(
      fc.property(
        fc.nat(packed.length - 1),
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        fc.nat(),
        fc.oneof(fc.constant(undefined), fc.integer({ min: 0, max: 5000 })),
        (which, at0, flip, cut0, expectedSize) => {
          const p = packed[which]!;
          const bad = Uint8Array.from(p.subarray(0, p.length - (cut0 % 4)), (b, i) => (i === at0 % p.length ? b ^ flip : b));
          const opts = { maxSize: 4000, expectedSize };
          const a = outcome(undefined, bad, opts);
          const b = outcome(nodeCodecs.inflateRaw, bad, opts);
          if (a instanceof Error) expect(b).toEqual(a);
          else expect(Buffer.from(b as Uint8Array).equals(Buffer.from(a))).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
