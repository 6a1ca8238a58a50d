import { concatBytes } from '../../io/bytes.js';
import type { ByteSink } from '../../model.js';
import { type XzBlockBytes, soleBlock, xzIndexAndFooter, xzStreamHeader } from './blockStream.js';
import { xzCompressBlock } from './blockEncode.js';
import { type XzBlockEncoders, startXzBlockEncoders } from './blockEncoders.js';
import { CHECK_IDS, type XzEncodeOptions, type XzSink, XzWriter, checkPreset } from './encode.js';

/**
 * Uncompressed bytes per block. Blocks are compressed apart, so each loses the matches into the
 * blocks before it: on the bench's 200-plan MkvChain body (1.9 MB), 1 MiB blocks cost 2.9 % more
 * bytes than one block (86 032 against 83 604), and split it across the 2 cores of the test
 * machine. Memory is the blocks in flight (at most one per thread), the one held back and the one
 * filling.
 */
export const BLOCK_BYTES = 1 << 20;

/**
 * An xz writer: several blocks compressed at once on the lent encoders, one stream written in
 * order, when a host lends more than one thread; else the one-thread `XzWriter` (one block).
 */
export async function openXzWriter(out: ByteSink, opts: XzEncodeOptions): Promise<XzSink> {
  checkPreset(opts.preset);
  const encoders = await startXzBlockEncoders();
  if (!encoders || encoders.threads < 2) {
    encoders?.close();
    return XzWriter.open(out, opts);
  }
  return new ParallelXzWriter(out, opts, encoders);
}

export class ParallelXzWriter implements XzSink {
  private filling: Uint8Array;
  private filled = 0;
  /**
   * The newest full block, sent only once the next one fills: when the input ends, it and the rest
   * are split evenly among the threads (finish). Sent as they filled, the bench's 1.9 MB body was
   * a 1 MiB and a 0.84 MB block, and the 1 MiB one ran on alone after the other had finished.
   * Holding back by count, not by which threads are free, keeps the file's bytes the same run to run.
   */
  private held: Uint8Array | undefined;
  /** Blocks sent to the encoders, oldest first: they are written in this order. */
  private readonly pending: Promise<XzBlockBytes>[] = [];
  private readonly written: Omit<XzBlockBytes, 'bytes'>[] = [];
  private bytesIn = 0;
  private bytesOut = 0;
  private started = false;

  constructor(
    private readonly out: ByteSink,
    private readonly opts: XzEncodeOptions,
    private readonly encoders: XzBlockEncoders,
    private readonly blockBytes = BLOCK_BYTES,
  ) {
    this.filling = new Uint8Array(blockBytes);
  }

  async write(chunk: Uint8Array): Promise<void> {
    // Threads start once a quarter block is written, booting while the rest of it comes: a body
    // smaller than that starts none (its one block is compressed here, in finish).
    if (this.bytesIn < this.blockBytes / 4 && this.bytesIn + chunk.length >= this.blockBytes / 4) this.encoders.warm();
    for (let at = 0; at < chunk.length; ) {
      const n = Math.min(chunk.length - at, this.blockBytes - this.filled);
      this.filling.set(chunk.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      if (this.filled === this.blockBytes) {
        if (this.held) await this.send(this.held);
        this.held = this.filling;
        // The held block may be transferred to another thread later: a fresh buffer for the next one.
        this.filling = new Uint8Array(this.blockBytes);
        this.filled = 0;
      }
    }
    this.bytesIn += chunk.length;
  }

  async finish(): Promise<{ readonly bytesIn: number; readonly bytesOut: number }> {
    try {
      const tail = [...(this.held ? [this.held] : []), this.filling.subarray(0, this.filled)];
      const bytes = tail.reduce((n, b) => n + b.length, 0);
      // Pieces of at least a quarter block, as each loses the matches into the pieces before it.
      const pieces = Math.max(1, Math.min(this.encoders.threads, Math.floor(bytes / (this.blockBytes / 4))));
      // All of it in one block: compressed here, as waiting for a thread to start would take longer.
      if (pieces === 1 && this.written.length === 0 && this.pending.length === 0 && bytes > 0)
        this.pending.push(xzCompressBlock(concatBytes(tail), this.opts).then(soleBlock));
      else if (bytes > 0) for (const piece of splitEvenly(tail, bytes, pieces)) this.dispatch(piece);
      while (this.pending.length > 0) await this.writeOldest();
      if (!this.started) await this.emit(xzStreamHeader(CHECK_IDS[this.opts.check]));
      await this.emit(xzIndexAndFooter(this.written, CHECK_IDS[this.opts.check]));
    } finally {
      this.encoders.close();
    }
    return { bytesIn: this.bytesIn, bytesOut: this.bytesOut };
  }

  abandon(): void {
    this.encoders.close();
  }

  /** Hands a full block on; waits for the oldest when every thread has one and one more waits. */
  private async send(data: Uint8Array): Promise<void> {
    this.dispatch(data);
    while (this.pending.length > this.encoders.threads) await this.writeOldest();
  }

  /** `data` is handed over: its buffer may be transferred to another thread, so it must own that buffer. */
  private dispatch(data: Uint8Array): void {
    const block = this.encoders.encode(data, this.opts).then(soleBlock);
    // Awaited in order later; marked handled now, so an error while an older block is awaited is not "unhandled".
    block.catch(() => undefined);
    this.pending.push(block);
  }

  private async writeOldest(): Promise<void> {
    const block = await this.pending.shift()!;
    if (!this.started) await this.emit(xzStreamHeader(CHECK_IDS[this.opts.check]));
    await this.emit(block.bytes);
    this.written.push({ unpaddedSize: block.unpaddedSize, uncompressedSize: block.uncompressedSize });
  }

  private async emit(bytes: Uint8Array): Promise<void> {
    this.started = true;
    this.bytesOut += bytes.length;
    await this.out.write(bytes);
  }
}

/** `bytes` bytes held in `parts`, copied into `k` blocks with buffers of their own, whose sizes differ by at most one. */
function splitEvenly(parts: readonly Uint8Array[], bytes: number, k: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let part = 0;
  let at = 0;
  for (let i = 0; i < k; i++) {
    const block = new Uint8Array(Math.floor(bytes / k) + (i < bytes % k ? 1 : 0));
    for (let filled = 0; filled < block.length; ) {
      const n = Math.min(block.length - filled, parts[part]!.length - at);
      block.set(parts[part]!.subarray(at, at + n), filled);
      filled += n;
      at += n;
      if (at === parts[part]!.length) (part++, (at = 0));
    }
    out.push(block);
  }
  return out;
}
