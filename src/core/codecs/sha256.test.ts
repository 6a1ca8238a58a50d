import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Digester, sha256Stream } from './sha256.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('SHA-256', () => {
  it('matches the FIPS 180-4 example and OpenSSL on random data, one-shot and in pieces', async () => {
    const digest = await sha256Digester();
    expect(hex(digest(new TextEncoder().encode('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), fc.nat(3000), async (data, cut) => {
        const expected = createHash('sha256').update(data).digest('hex');
        expect(hex(digest(data.subarray(0, cut), data.subarray(cut)))).toBe(expected);
        const s = await sha256Stream();
        expect(hex(s.update(data.subarray(0, cut)).update(data.subarray(cut)).digest())).toBe(expected);
      }),
      { numRuns: 100 },
    );
  });

  it('keeps interleaved streams apart', async () => {
    const a = await sha256Stream();
    const b = await sha256Stream();
    a.update(Uint8Array.of(1));
    b.update(Uint8Array.of(2));
    expect(hex(a.digest())).toBe(createHash('sha256').update(Uint8Array.of(1)).digest('hex'));
    expect(hex(b.digest())).toBe(createHash('sha256').update(Uint8Array.of(2)).digest('hex'));
  });
});
