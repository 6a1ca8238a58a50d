import type { ByteSink } from '../model.js';

/**
 * The first `n` bytes of a writer's buffer as the chunk to write to `sink`: the buffer itself where
 * the sink lets go of a chunk when its write resolves, else a copy. A 280 MB JSONL written in
 * 1 MiB copies left them waiting for the collector: cat's peak RSS 76 MB, 71-74 without.
 */
export function chunkFor(sink: ByteSink, buf: Uint8Array, n: number): Uint8Array {
  return sink.releasesChunk ? buf.subarray(0, n) : buf.slice(0, n);
}

/**
 * Collects small writes (frame headers, runs) into pieces of `size` bytes before passing them
 * on, so an encoder can write field by field without a system call or a WASM call per field.
 */
export class BufferedSink implements ByteSink {
  private buf: Uint8Array;
  private at = 0;
  /** Bytes passed on so far plus those still buffered. */
  get written(): number {
    return this.flushed + this.at;
  }
  private flushed = 0;

  constructor(
    private readonly inner: ByteSink,
    private readonly size = 1 << 20,
  ) {
    this.buf = new Uint8Array(size);
  }

  /** Space for n bytes at `at`: returns the buffer and the position to fill; call `commit(n)` after. */
  async reserve(n: number): Promise<{ buf: Uint8Array; at: number }> {
    if (this.at + n > this.buf.length) {
      await this.flush();
      if (n > this.buf.length) this.buf = new Uint8Array(n);
    }
    return { buf: this.buf, at: this.at };
  }

  commit(n: number): void {
    this.at += n;
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (chunk.length >= this.size) {
      await this.flush();
      this.flushed += chunk.length;
      await this.inner.write(chunk);
      return;
    }
    const { buf, at } = await this.reserve(chunk.length);
    buf.set(chunk, at);
    this.commit(chunk.length);
  }

  async flush(): Promise<void> {
    if (this.at === 0) return;
    const out = chunkFor(this.inner, this.buf, this.at);
    this.flushed += this.at;
    this.at = 0;
    await this.inner.write(out);
  }
}
