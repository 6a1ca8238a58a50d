import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/byteSource.js';
import { ByteCursor } from './cursor.js';

/** A local file's kind of source: reads into the caller's buffer; a read that allocates is refused. */
class FileLike extends MemorySource {
  readonly targets = new Set<ArrayBufferLike>();
  override read(): Promise<Uint8Array> {
    throw new Error('a cursor over a source that reads into a buffer allocates no piece');
  }
  readInto(offset: number, target: Uint8Array): Promise<void> {
    this.targets.add(target.buffer);
    target.set(this.readSync(offset, target.length));
    return Promise.resolve();
  }
}

describe('ByteCursor over a source', () => {
  it.each([
    // Fields that straddle the 1 MiB piece boundaries: the storage grows to hold them, not once per piece.
    [700_001, 3],
    // Fields of up to a 16th of a piece: what is left moves to the front of the one storage.
    [60_001, 1],
  ])(
    'reads a file-like source of %i-byte fields straight into storage made at most %i times, and keeps every byte of the range across pieces',
    async (field, storages) => {
      const bytes = Uint8Array.from({ length: 3 << 20 }, (_, i) => (i * 31 + (i >> 11)) & 0xff);
      const src = new FileLike(bytes);
      const start = 5;
      const c = ByteCursor.over(src, start, bytes.length - start - 7);
      // Read the way frame parsers do.
      const seen: number[] = [];
      const stores = new Set<ArrayBufferLike>();
      for (let at = start; !(await c.atEnd()); ) {
        const n = Math.min(field, bytes.length - 7 - at);
        await c.require(n, 'field');
        stores.add(c.bytes.buffer);
        seen.push(c.bytes[c.pos]!, c.bytes[c.pos + n - 1]!);
        expect(c.offset).toBe(at);
        c.pos += n;
        at += n;
      }
      const expected: number[] = [];
      for (let at = start; at < bytes.length - 7; at += field) expected.push(bytes[at]!, bytes[Math.min(at + field, bytes.length - 7) - 1]!);
      expect(seen).toEqual(expected);
      expect(stores.size).toBeLessThanOrEqual(storages);
      // Every piece was read into the storage itself, not into a buffer of its own.
      expect([...src.targets].every((t) => stores.has(t))).toBe(true);
    },
  );

  it('keeps a field longer than many pieces whole, growing its storage', async () => {
    const bytes = Uint8Array.from({ length: 5 << 20 }, (_, i) => (i * 7 + (i >> 13)) & 0xff);
    const c = ByteCursor.over(new FileLike(bytes), 0, bytes.length);
    await c.require(3, 'head');
    c.pos += 3;
    await c.require(bytes.length - 3, 'field');
    expect(c.offset).toBe(3);
    expect(Buffer.compare(c.bytes.subarray(c.pos, c.pos + bytes.length - 3), bytes.subarray(3))).toBe(0);
  });
});
