import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listFixtures, readFixture } from '../../../../test/helpers/fixtures.js';
import { MemorySource } from '../../io/byteSource.js';
import { walkChunks } from './chunks.js';

const files = listFixtures('xorb', ['.xorb']);

describe('the chunk walk with header reads prefetched from footer boundaries', () => {
  it('finds the same headers and the same stop whatever the boundaries say, true, shifted or random', async () => {
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const bytes = readFixture(file);
      const src = new MemorySource(bytes);
      const plain = await walkChunks(src, bytes.length);
      const ends = plain.chunks.map((h) => h.offset + 8 + h.compressedLength);
      expect(await walkChunks(src, bytes.length, undefined, ends), file).toEqual(plain);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.nat(bytes.length + 64), { maxLength: 200 }), async (lies) => {
          expect(await walkChunks(src, bytes.length, undefined, lies)).toEqual(plain);
          expect(await walkChunks(src, bytes.length, undefined, ends.map((e, i) => (i % 2 ? e + 1 : e)))).toEqual(plain);
        }),
        { numRuns: 40 },
      );
    }
  });
});
