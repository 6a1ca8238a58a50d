import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { crc32c } from './crc32c.js';

const ascii = (s: string) => new TextEncoder().encode(s);

describe('crc32c', () => {
  it('gives the Castagnoli check value for "123456789"', () => {
    expect(crc32c(ascii('123456789'))).toBe(0xe3069283);
  });

  it('is 0 for no bytes and unsigned for every input', () => {
    expect(crc32c(new Uint8Array(0))).toBe(0);
    expect(crc32c(Uint8Array.of(0xff, 0xff, 0xff, 0xff))).toBeGreaterThanOrEqual(0);
  });

  it('continues across pieces exactly as over the whole', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(300), (bytes, cut) => {
        const at = Math.min(cut, bytes.length);
        expect(crc32c(bytes.subarray(at), crc32c(bytes.subarray(0, at)))).toBe(crc32c(bytes));
      }),
    );
  });
});

describe('crc32c with the WebAssembly hasher', () => {
  it('gives the same CRC as the JS table walk, whole and in pieces of any size', async () => {
    const { crc32cReady } = await import('./crc32c.js');
    await crc32cReady();
    const CRC32C = (await import('crc-32/crc32c')).default;
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 3000 }), fc.nat(3000), (bytes, cut) => {
        const at = Math.min(cut, bytes.length);
        const reference = CRC32C.buf(bytes) >>> 0;
        expect(crc32c(bytes)).toBe(reference);
        expect(crc32c(bytes.subarray(at), crc32c(bytes.subarray(0, at)))).toBe(reference);
      }),
      { numRuns: 300 },
    );
  });
});

describe('crc32c start of the WebAssembly hasher', () => {
  it('loads none while a process has checked less than 1 MiB (a small file at open), and starts it past that', async () => {
    vi.resetModules();
    let loads = 0;
    vi.doMock('./hashWasm.js', async (original) => {
      loads++;
      return original();
    });
    try {
      const fresh = (await import('./crc32c.js')).crc32c;
      const piece = new Uint8Array(4096).map((_, i) => i * 7);
      const reference = crc32c(piece);
      for (let i = 0; i < 255; i++) expect(fresh(piece)).toBe(reference);
      await new Promise((r) => setTimeout(r, 0));
      expect(loads).toBe(0);
      fresh(piece);
      await vi.waitFor(() => expect(loads).toBe(1));
    } finally {
      vi.doUnmock('./hashWasm.js');
      vi.resetModules();
    }
  });
});
