import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listFixtures, readFixture } from '../../../../test/helpers/fixtures.js';
import { MemorySource } from '../../io/byteSource.js';
import { walkChunks } from './chunks.js';

const files = listFixtures('xorb', ['.xorb']);

describe('the chunk walk with header reads prefetched from footer boundaries', () => {
  it('finds the headers and the stop of the synchronous walk whatever the boundaries say, true, shifted or random', async () => {
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const bytes = readFixture(file);
      const memory = new MemorySource(bytes);
      const plain = await walkChunks(memory, bytes.length);
      // Without readSync, as a remote file: the walk prefetches.
      const src = { size: bytes.length, read: (offset: number, length: number) => memory.read(offset, length) };
      expect(await walkChunks(src, bytes.length), file).toEqual(plain);
      const ends = plain.chunks.map((h) => h.offset + 8 + h.compressedLength);
      expect(await walkChunks(src, bytes.length, undefined, ends), file).toEqual(plain);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.nat(bytes.length + 64), { maxLength: 200 }), async (lies) => {
          expect(await walkChunks(src, bytes.length, undefined, lies)).toEqual(plain);
          expect(
            await walkChunks(
              src,
              bytes.length,
              undefined,
              ends.map((e, i) => (i % 2 ? e + 1 : e)),
            ),
          ).toEqual(plain);
        }),
        { numRuns: 40 },
      );
    }
  });
});
