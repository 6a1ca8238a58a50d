import { createBLAKE3 } from 'hash-wasm';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeCodecs } from '../io/nodeCodecs.js';
import { keyedBlake3 } from './blake3.js';
import { installNativeCodecs } from './native.js';

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

describe('keyed BLAKE3 from the native addon (Node hosts)', () => {
  const key = new TextEncoder().encode('whats the Elvish word for friend');
  const pattern = (n: number) => Uint8Array.from({ length: n }, (_, i) => i % 251);
  afterEach(() => installNativeCodecs({ keyedBlake3: undefined }));

  it('loads here and matches b3sum --keyed, hash after hash on one hasher', () => {
    const hash = nodeCodecs.keyedBlake3!(key);
    expect(hash, 'the @napi-rs/blake-hash addon loads on this machine').toBeDefined();
    expect(hex(hash!(pattern(1025)))).toBe('357dc55de0c7e382c900fd6e320acc04146be01db6a8ce7210b7189bd664ea69');
    expect(hex(hash!(pattern(0)))).toBe('92b2b75604ed3c761f9d6f62392c8a9227ad0ea3f09573e783f1498a4ed60d26');
  });

  it("gives the WebAssembly hasher's bytes for any key and input up to 300 KB", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.integer({ min: 0, max: 300_000 }), fc.integer(), async (k, n, seed) => {
        const data = Uint8Array.from({ length: n }, (_, i) => (Math.imul(i + seed, 2654435761) >>> 24) & 255);
        const wasm = await createBLAKE3(256, k);
        wasm.update(data);
        expect(hex(nodeCodecs.keyedBlake3!(k)!(data))).toBe(wasm.digest('hex'));
      }),
      { numRuns: 60 },
    );
  });

  it("is what keyedBlake3 uses once it gives b3sum's test vector; a wrong, failing or absent one gives way to the same bytes", async () => {
    const wasmHex = async (k: Uint8Array, data: Uint8Array) => {
      const wasm = await createBLAKE3(256, k);
      wasm.update(data);
      return wasm.digest('hex');
    };
    // The real addon, counted: keyedBlake3 hashes with it.
    let calls = 0;
    installNativeCodecs({
      keyedBlake3: (k) => {
        const h = nodeCodecs.keyedBlake3!(k)!;
        return (d) => (calls++, h(d));
      },
    });
    const k1 = new Uint8Array(32).fill(1);
    const hash = await keyedBlake3(k1);
    const before = calls;
    expect(hex(hash(pattern(100)))).toBe(await wasmHex(k1, pattern(100)));
    expect(calls).toBe(before + 1);
    // Wrong bytes, an error at the check, no hasher: the portable hasher serves.
    const fakes = [
      () => () => Uint8Array.of(7),
      () => () => {
        throw new Error('native hasher failed');
      },
      () => undefined,
    ];
    for (const [i, fake] of fakes.entries()) {
      installNativeCodecs({ keyedBlake3: fake });
      const k = new Uint8Array(32).fill(2 + i);
      expect(hex((await keyedBlake3(k))(pattern(100)))).toBe(await wasmHex(k, pattern(100)));
    }
  });
});
