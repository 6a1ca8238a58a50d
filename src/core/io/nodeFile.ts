import { closeSync, openSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { checkRange, MemorySource, type ByteSource } from './byteSource.js';
import { PageCache } from './pageCache.js';

/** A file read with positioned reads: never the whole file, whatever its size. */
export class NodeFileSource implements ByteSource {
  private constructor(
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}

  static async open(path: string): Promise<NodeFileSource> {
    const handle = await open(path, 'r');
    try {
      const stat = await handle.stat();
      return new NodeFileSource(handle, stat.size);
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    checkRange(this.size, offset, length); // before allocating
    const out = unfilled(length);
    await this.readInto(offset, out);
    return out;
  }

  async readInto(offset: number, target: Uint8Array): Promise<void> {
    const length = target.length;
    checkRange(this.size, offset, length);
    let done = 0;
    while (done < length) {
      const { bytesRead } = await this.handle.read(target, done, length - done, offset + done);
      if (bytesRead === 0) throw shrank(offset + done);
      done += bytesRead;
    }
  }

  readSync(offset: number, length: number): Uint8Array {
    checkRange(this.size, offset, length);
    const out = unfilled(length);
    this.readIntoSync(offset, out);
    return out;
  }

  readIntoSync(offset: number, target: Uint8Array): void {
    const length = target.length;
    checkRange(this.size, offset, length);
    let done = 0;
    while (done < length) {
      const n = readSync(this.handle.fd, target, done, length - done, offset + done);
      if (n === 0) throw shrank(offset + done);
      done += n;
    }
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/**
 * Memory for `length` bytes, not zero-filled first (every byte is read into it, or the read
 * throws): zeroing cost 10-15 ms of the 64 MiB xorb verify. A plain Uint8Array over its own
 * buffer, not a Buffer, whose slice() would share memory where callers expect a copy.
 */
function unfilled(length: number): Uint8Array {
  return new Uint8Array(Buffer.allocUnsafeSlow(length).buffer, 0, length);
}

function shrank(at: number): Error {
  return new Error(`file shrank while reading at ${at}`);
}

/** A file source behind a page cache: what the CLI and the engine open files with. */
export async function openFile(path: string): Promise<ByteSource> {
  return new PageCache(await NodeFileSource.open(path));
}

/**
 * A file of at most `wholeBelow` bytes read at once with synchronous calls, else `openFile`'s
 * source. For runs over many small files (folder verify): an asynchronous open, read and close
 * each take a trip through Node's thread pool, and those trips were 60 % of verifying 1 820 small
 * files in one thread; a verify reads every byte anyway. The size comes from the read itself,
 * into memory kept for the next file: fstat builds four Dates per call, 5 % of such a run.
 */
export async function openFileWhole(path: string, wholeBelow: number): Promise<ByteSource> {
  if (scratch.length < wholeBelow + 1) scratch = new Uint8Array(wholeBelow + 1);
  const fd = openSync(path, 'r');
  let done = 0;
  try {
    for (let n = 1; n > 0 && done <= wholeBelow; done += n) n = readSync(fd, scratch, done, wholeBelow + 1 - done, done);
  } finally {
    closeSync(fd);
  }
  // One byte past the limit: a larger file, paged instead.
  if (done > wholeBelow) return openFile(path);
  return new MemorySource(scratch.slice(0, done));
}

/** The buffer `openFileWhole` reads into, kept between files (one per thread). */
let scratch = new Uint8Array(0);
