import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemorySource, type ByteSource } from './byteSource.js';
import { PageCache } from './pageCache.js';

class CountingSource implements ByteSource {
  reads = 0;
  bytesRead = 0;
  constructor(private readonly inner: MemorySource) {}
  get size() {
    return this.inner.size;
  }
  read(offset: number, length: number) {
    this.reads++;
    this.bytesRead += length;
    return this.inner.read(offset, length);
  }
}

const data = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 31 + (i >> 8)) & 0xff);

describe('PageCache', () => {
  it('returns exactly the bytes of the source for any range', async () => {
    const cache = new PageCache(new MemorySource(data), 4096, 8);
    await fc.assert(
      fc.asyncProperty(fc.nat(data.length), fc.nat(20_000), async (offset, length) => {
        const n = Math.min(length, data.length - offset);
        const got = Buffer.from(await cache.read(offset, n));
        expect(got.equals(data.subarray(offset, offset + n))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('reads each page once while it stays cached', async () => {
    const counting = new CountingSource(new MemorySource(data));
    const cache = new PageCache(counting, 4096, 8);
    for (let i = 0; i < 100; i++) await cache.read(100 + i * 8, 8);
    expect(counting.reads).toBe(1);
  });

  it('reads a run of uncached pages in one request', async () => {
    const counting = new CountingSource(new MemorySource(data));
    const cache = new PageCache(counting, 4096, 64);
    expect(Buffer.from(await cache.read(1000, 5 * 4096)).equals(data.subarray(1000, 1000 + 5 * 4096))).toBe(true);
    expect(counting.reads).toBe(1);
    // A range with cached pages inside reads only the missing runs around them.
    await cache.read(10 * 4096, 10);
    expect(Buffer.from(await cache.read(8 * 4096, 5 * 4096)).equals(data.subarray(8 * 4096, 13 * 4096))).toBe(true);
    expect(counting.reads).toBe(4);
  });

  it('keeps memory bounded: at most maxPages pages, large reads pass through', async () => {
    const counting = new CountingSource(new MemorySource(data));
    const cache = new PageCache(counting, 1024, 4);
    for (let p = 0; p < 50; p++) await cache.read(p * 1024, 1);
    await cache.read(0, 1);
    expect(counting.reads).toBe(51);
    await cache.read(0, 100_000);
    expect(counting.bytesRead).toBe(51 * 1024 + 100_000);
  });

  it('rejects reads beyond the end with a located error', async () => {
    const cache = new PageCache(new MemorySource(data));
    await expect(cache.read(data.length - 2, 4)).rejects.toMatchObject({ code: 'truncated', offset: data.length - 2 });
  });
});
