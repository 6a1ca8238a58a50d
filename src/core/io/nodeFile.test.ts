import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySource, SliceSource, type ByteSource } from './byteSource.js';
import { FormatError } from '../errors.js';
import { NodeFileSource, openFile, openFileWhole } from './nodeFile.js';
import { scratchDir } from '../../../test/helpers/scratch.js';

const data = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 131 + (i >> 9)) & 0xff);
let src: ByteSource;
let file: NodeFileSource;
const path = join(scratchDir('file'), 'data.bin');

beforeAll(async () => {
  writeFileSync(path, data);
  src = await openFile(path);
  file = await NodeFileSource.open(path);
});
afterAll(async () => {
  await src.close?.();
  await file.close();
});

describe('a local file source', () => {
  it('reads the same bytes at once, through the thread pool and into given memory, behind the page cache and in a slice', async () => {
    expect(src.readSync).toBeDefined();
    expect(src.readInto).toBeDefined();
    const slice = new SliceSource(src, 1000, data.length - 5000);
    await fc.assert(
      fc.asyncProperty(fc.nat(data.length), fc.nat(70_000), async (offset, length) => {
        const n = Math.min(length, data.length - offset);
        const want = data.subarray(offset, offset + n);
        expect(Buffer.from(src.readSync!(offset, n)).equals(want)).toBe(true);
        expect(Buffer.from(await src.read(offset, n)).equals(want)).toBe(true);
        const into = new Uint8Array(n);
        await src.readInto!(offset, into);
        expect(Buffer.from(into).equals(want)).toBe(true);
        if (offset + n <= slice.size) {
          const inSlice = data.subarray(1000 + offset, 1000 + offset + n);
          expect(Buffer.from(slice.readSync!(offset, n)).equals(inSlice)).toBe(true);
          await slice.readInto!(offset, into);
          expect(Buffer.from(into).equals(inSlice)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a read past the end with the range it needed, before allocating for it', async () => {
    expect(() => src.readSync!(data.length - 4, 8)).toThrow(FormatError);
    expect(() => src.readSync!(data.length - 4, 8)).toThrow(/needs 8 bytes but the file ends after 4/);
    // A length read from a damaged file: a located error, not an allocation of 1 TiB.
    await expect(file.read(10, 2 ** 40)).rejects.toThrow(FormatError);
    expect(() => file.readSync(10, 2 ** 40)).toThrow(FormatError);
    await expect(file.readInto(data.length - 2, new Uint8Array(3))).rejects.toThrow(/needs 3 bytes/);
  });
});

describe('a small file read whole', () => {
  it('holds the same bytes in memory up to the limit, and is paged from the file above it', async () => {
    const whole = await openFileWhole(path, data.length);
    const paged = await openFileWhole(path, data.length - 1);
    try {
      expect(whole).toBeInstanceOf(MemorySource);
      expect(paged).not.toBeInstanceOf(MemorySource);
      for (const s of [whole, paged]) expect(await s.read(0, data.length)).toEqual(data);
    } finally {
      await paged.close?.();
    }
  });
});
