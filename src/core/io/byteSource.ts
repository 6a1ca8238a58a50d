import { FormatError } from '../errors.js';

/**
 * Random access to the bytes of a file. Implementations read only what is asked for, so a
 * format can show the first screen of a multi-GB file from a handful of reads.
 */
export interface ByteSource {
  readonly size: number;
  /**
   * Exactly `length` bytes at `offset`. The range must lie inside [0, size); callers check
   * lengths read from the file with `readField` first, which names the field when it does not.
   * The bytes returned stay valid after later reads; callers must not modify them.
   */
  read(offset: number, length: number): Promise<Uint8Array>;
  /**
   * The same bytes at once, where the source can answer without waiting: memory, or a local file
   * (a positioned read from the OS cache takes microseconds, a trip through Node's thread pool
   * about 50). For walks of many small fields, such as a xorb's chunk headers; it blocks the
   * thread for the read, so not for bulk data.
   */
  readSync?(offset: number, length: number): Uint8Array;
  /**
   * The bytes at `offset` into `target` (its whole length), for bulk reads into memory the caller
   * reuses: a fresh buffer per read costs page faults and garbage collection.
   */
  readInto?(offset: number, target: Uint8Array): Promise<void>;
  /**
   * readInto, answered at once (a local file). For scans that walk each piece right after reading
   * it: the bytes are then still in this core's cache. A BEN frame walk over 2.2 GB took 450 ms of
   * CPU this way and 800 with reads from Node's thread pool, whose copies land in another core's cache.
   */
  readIntoSync?(offset: number, target: Uint8Array): void;
  close?(): Promise<void>;
}

/**
 * A ByteSource over bytes already in memory (small files, decompressed streams, tests). It has no
 * readInto: its reads are views, cheaper than any copy.
 */
export class MemorySource implements ByteSource {
  constructor(private readonly bytes: Uint8Array) {}

  get size(): number {
    return this.bytes.length;
  }

  read(offset: number, length: number): Promise<Uint8Array> {
    return Promise.resolve(this.readSync(offset, length));
  }

  readSync(offset: number, length: number): Uint8Array {
    checkRange(this.size, offset, length);
    return this.bytes.subarray(offset, offset + length);
  }
}

export function checkRange(size: number, offset: number, length: number, field?: string): void {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
    throw new FormatError('out-of-range', `invalid range ${offset}+${length}`, { offset: Math.max(0, offset) || 0, field });
  }
  if (offset + length > size) {
    throw new FormatError('truncated', `needs ${length} bytes but the file ends after ${Math.max(0, size - offset)}`, {
      offset,
      field,
    });
  }
}

/** Reads a field whose position or length came from the file: a clear error names it when it does not fit. */
export async function readField(src: ByteSource, offset: number, length: number, field: string): Promise<Uint8Array> {
  checkRange(src.size, offset, length, field);
  return src.read(offset, length);
}

/** Up to `length` bytes at `offset`, fewer at the end of the file. */
export function readUpTo(src: ByteSource, offset: number, length: number): Promise<Uint8Array> {
  const n = Math.max(0, Math.min(length, src.size - offset));
  return src.read(offset, n);
}

/** A window [offset, offset + length) of another source, addressed from 0: an embedded stream. */
export class SliceSource implements ByteSource {
  readonly readSync?: (offset: number, length: number) => Uint8Array;
  readonly readInto?: (offset: number, target: Uint8Array) => Promise<void>;
  readonly readIntoSync?: (offset: number, target: Uint8Array) => void;

  constructor(
    private readonly inner: ByteSource,
    readonly start: number,
    readonly size: number,
  ) {
    checkRange(inner.size, start, size);
    const at = inner.readSync?.bind(inner);
    if (at) {
      this.readSync = (offset, length) => {
        checkRange(this.size, offset, length);
        return at(this.start + offset, length);
      };
    }
    const into = inner.readInto?.bind(inner);
    if (into) {
      this.readInto = (offset, target) => {
        checkRange(this.size, offset, target.length);
        return into(this.start + offset, target);
      };
    }
    const intoSync = inner.readIntoSync?.bind(inner);
    if (intoSync) {
      this.readIntoSync = (offset, target) => {
        checkRange(this.size, offset, target.length);
        intoSync(this.start + offset, target);
      };
    }
  }

  read(offset: number, length: number): Promise<Uint8Array> {
    checkRange(this.size, offset, length);
    return this.inner.read(this.start + offset, length);
  }
}
