import { FormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';

const PIECE = 1 << 20;

/**
 * Sequential reading over pieces that arrive one at a time (file reads, decompressed xz
 * chunks): `need(n)` makes n bytes from `pos` contiguous in `bytes`, so frame parsers index a
 * plain array. Memory is at most twice the largest frame plus one piece and a 16th.
 */
export class ByteCursor {
  /** The bytes read and not yet dropped: a view of the first `bytes.length` bytes of `store`. */
  bytes = new Uint8Array(0);
  pos = 0;
  /** Storage with room to append, grown geometrically so a long frame is copied O(1) times per byte. */
  private store = new Uint8Array(0);
  /** Absolute offset of `bytes[0]` in the decoded data. */
  private base: number;
  private done = false;

  constructor(
    /** The next piece, or undefined at the end: valid only until the next pull (`append` copies it). */
    private readonly pull: () => Promise<Uint8Array | undefined>,
    start = 0,
    /** Absolute end of the data when it is known (a file range): longer requirements fail without reading. */
    private readonly end?: number,
  ) {
    this.base = start;
  }

  static over(src: ByteSource, offset: number, length: number): ByteCursor {
    let read = 0;
    // Read straight into the storage where the source allows. A read through the page cache cost
    // a fresh MiB, 64 page copies and a MiB result per piece, memory the allocator kept: a 280 MB
    // cat peaked at 71 MB RSS that way; a piece buffer read into and copied from held a MiB more.
    const c: ByteCursor = new ByteCursor(
      async () => {
        if (read >= length) return undefined;
        const n = Math.min(PIECE, length - read);
        let bytes: Uint8Array;
        if (src.readInto) {
          bytes = c.space(n);
          await src.readInto(offset + read, bytes);
        } else bytes = await src.read(offset + read, n);
        read += n;
        return bytes;
      },
      offset,
      offset + length,
    );
    return c;
  }

  static overChunks(chunks: AsyncIterator<Uint8Array>): ByteCursor {
    return new ByteCursor(async () => {
      const r = await chunks.next();
      return r.done ? undefined : r.value;
    });
  }

  /** Absolute offset of `pos`. */
  get offset(): number {
    return this.base + this.pos;
  }

  get available(): number {
    return this.bytes.length - this.pos;
  }

  /** Ensures n bytes at `pos` when the data has them; returns how many are there (< n only at the end). */
  async need(n: number): Promise<number> {
    while (this.available < n && !this.done) {
      const piece = await this.pull();
      if (piece === undefined) {
        this.done = true;
        break;
      }
      this.append(piece);
    }
    return Math.min(n, this.available);
  }

  /** Appends a piece: in place where it was read into `space`, else copied there. */
  private append(piece: Uint8Array): void {
    if (piece.buffer !== this.store.buffer || piece.byteOffset !== this.bytes.length) this.space(piece.length).set(piece);
    this.bytes = this.store.subarray(0, this.bytes.length + piece.length);
  }

  /**
   * The n bytes of storage after `bytes`, made room for: what is left moves to the front of the
   * storage, or, where that leaves too little room, to new storage at least twice its size, with
   * room for n and n/16 more. So a frame spanning many pieces costs linear, not quadratic, copying,
   * and a read of frames up to a 16th of a piece allocates once: new storage per piece left a dead
   * MiB per MiB read to the collector (a 32 MB BEN to JSONL: 10 MB of dead buffers). Bytes before
   * `pos` may be overwritten by the next `need`: a view of `bytes` is good until then.
   */
  private space(n: number): Uint8Array {
    const filled = this.bytes.length;
    if (filled + n > this.store.length) {
      const rest = filled - this.pos;
      if (rest + n <= this.store.length) this.store.copyWithin(0, this.pos, filled);
      else {
        const next = new Uint8Array(Math.max(rest + n, 2 * rest, n + (n >> 4)));
        next.set(this.bytes.subarray(this.pos));
        this.store = next;
      }
      this.base += this.pos;
      this.pos = 0;
      this.bytes = this.store.subarray(0, rest);
    }
    return this.store.subarray(this.bytes.length, this.bytes.length + n);
  }

  /** True at a clean end: no byte left. */
  async atEnd(): Promise<boolean> {
    return (await this.need(1)) === 0;
  }

  /** Like `need`, but an end before n bytes is a located truncation of `field`. */
  async require(n: number, field: string, frameStart = this.offset): Promise<void> {
    // A length read from the file that reaches past its end is refused before reading up to it.
    const got = this.end !== undefined && this.offset + n > this.end ? this.end - this.offset : await this.need(n);
    if (got < n) {
      throw new FormatError('truncated', `needs ${n} bytes but the data ends after ${got}`, {
        offset: frameStart === this.offset ? this.offset : frameStart,
        field,
      });
    }
  }

  u8(): number {
    return this.bytes[this.pos++]!;
  }

  u16(): number {
    const b = this.bytes;
    const v = (b[this.pos]! << 8) | b[this.pos + 1]!;
    this.pos += 2;
    return v;
  }

  u32(): number {
    const b = this.bytes;
    const p = this.pos;
    this.pos += 4;
    return (b[p]! * 0x1000000 + ((b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!)) >>> 0;
  }
}
