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
  it('reads a file-like source into one buffer, again and again, and keeps every byte of the range across pieces', async () => {
    const bytes = Uint8Array.from({ length: 3 << 20 }, (_, i) => (i * 31 + (i >> 11)) & 0xff);
    const src = new FileLike(bytes);
    const start = 5;
    const c = ByteCursor.over(src, start, bytes.length - start - 7);
    // Fields that straddle the 1 MiB piece boundaries, read the way frame parsers do.
    const seen: number[] = [];
    for (let at = start; !(await c.atEnd()); ) {
      const n = Math.min(700_001, bytes.length - 7 - at);
      await c.require(n, 'field');
      seen.push(c.bytes[c.pos]!, c.bytes[c.pos + n - 1]!);
      expect(c.offset).toBe(at);
      c.pos += n;
      at += n;
    }
    const expected: number[] = [];
    for (let at = start; at < bytes.length - 7; at += 700_001) expected.push(bytes[at]!, bytes[Math.min(at + 700_001, bytes.length - 7) - 1]!);
    expect(seen).toEqual(expected);
    expect(src.targets.size).toBe(1);
  });
});
