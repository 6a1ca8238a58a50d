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
  it('reads a file-like source into one buffer, again and again, and keeps every byte of the range across pieces in one storage', async () => {
    const bytes = Uint8Array.from({ length: 3 << 20 }, (_, i) => (i * 31 + (i >> 11)) & 0xff);
    const src = new FileLike(bytes);
    const start = 5;
    const c = ByteCursor.over(src, start, bytes.length - start - 7);
    // Fields that straddle the 1 MiB piece boundaries, read the way frame parsers do.
    const seen: number[] = [];
    const stores = new Set<ArrayBufferLike>();
    for (let at = start; !(await c.atEnd()); ) {
      const n = Math.min(700_001, bytes.length - 7 - at);
      await c.require(n, 'field');
      stores.add(c.bytes.buffer);
      seen.push(c.bytes[c.pos]!, c.bytes[c.pos + n - 1]!);
      expect(c.offset).toBe(at);
      c.pos += n;
      at += n;
    }
    const expected: number[] = [];
    for (let at = start; at < bytes.length - 7; at += 700_001) expected.push(bytes[at]!, bytes[Math.min(at + 700_001, bytes.length - 7) - 1]!);
    expect(seen).toEqual(expected);
    expect(src.targets.size).toBe(1);
    // Fields shorter than a piece: what is left moves to the front of the one storage, none is allocated per piece.
    expect(stores.size).toBe(1);
  });

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
