import { describe, expect, it } from 'vitest';
import { keyedBlake3 } from './blake3.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('keyed BLAKE3', () => {
  // The official test-vector key and input pattern (byte i = i mod 251); values from b3sum --keyed.
  const key = new TextEncoder().encode('whats the Elvish word for friend');
  const pattern = (n: number) => Uint8Array.from({ length: n }, (_, i) => i % 251);

  it('matches b3sum --keyed', async () => {
    const hash = await keyedBlake3(key);
    expect(hex(hash(pattern(0)))).toBe('92b2b75604ed3c761f9d6f62392c8a9227ad0ea3f09573e783f1498a4ed60d26');
    expect(hex(hash(pattern(1025)))).toBe('357dc55de0c7e382c900fd6e320acc04146be01db6a8ce7210b7189bd664ea69');
  });

  it('keeps one hasher per key, and different keys apart', async () => {
    expect(await keyedBlake3(key)).toBe(await keyedBlake3(Uint8Array.from(key)));
    const other = await keyedBlake3(new Uint8Array(32));
    expect(hex(other(pattern(10)))).not.toBe(hex((await keyedBlake3(key))(pattern(10))));
    expect(() => keyedBlake3(new Uint8Array(16))).toThrow(RangeError);
  });
});
