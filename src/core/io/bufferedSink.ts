import type { ByteSink } from '../model.js';

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
    const out = this.buf.slice(0, this.at);
    this.flushed += this.at;
    this.at = 0;
    await this.inner.write(out);
  }
}
