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
 * machine. Memory is the blocks held (sent, or waiting for a thread): at most one per thread plus
 * the one filling.
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
   * Full blocks no thread has started, oldest first. A block waits here until a thread is idle,
   * so what is still here when the input ends can be split evenly (finish): sent at once, the
   * last block ran alone on one core while the others had finished (1 MiB and 0.84 MB blocks
   * of the bench's 1.9 MB body, both waiting for threads still starting).
   */
  private readonly queued: Uint8Array[] = [];
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
        this.queued.push(this.filling);
        this.filling = new Uint8Array(this.blockBytes);
        this.filled = 0;
        // Memory is the blocks held: at most one per thread, besides the one filling.
        await this.flow(this.encoders.threads);
      }
    }
    this.bytesIn += chunk.length;
  }

  async finish(): Promise<{ readonly bytesIn: number; readonly bytesOut: number }> {
    try {
      const tail = [...this.queued.splice(0), this.filling.subarray(0, this.filled)];
      const bytes = tail.reduce((n, b) => n + b.length, 0);
      // Pieces of at least a quarter block, as each loses the matches into the pieces before it.
      const pieces = Math.min(this.encoders.threads, Math.floor(bytes / (this.blockBytes / 4)));
      // All of it in one block: compressed here, as waiting for a thread to start would take longer.
      if (pieces <= 1 && this.pending.length === 0 && bytes > 0) this.pending.push(xzCompressBlock(concatBytes(tail), this.opts).then(soleBlock));
      else if (bytes > 0) this.queued.push(...splitEvenly(tail, bytes, Math.max(1, pieces)));
      await this.flow(0);
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

  /** Sends queued blocks to idle threads, and writes finished blocks out, until at most `held` blocks are held. */
  private async flow(held: number): Promise<void> {
    for (;;) {
      while (this.queued.length > 0 && this.encoders.idle() > 0) this.send(this.queued.shift()!);
      if (this.queued.length + this.pending.length <= held) return;
      if (this.queued.length === 0) {
        await this.writeOldest();
        continue;
      }
      this.encoders.warm();
      const oldest = this.pending[0];
      const idle = this.encoders.nextIdle().then(() => false);
      // A thread failing after the oldest block won the race must not be an unhandled rejection: the next wait sees it.
      idle.catch(() => undefined);
      // True when the oldest block settled (its error, if any, is taken as it is written).
      const settled = oldest?.then(
        () => true,
        () => true,
      );
      if (await (settled ? Promise.race([settled, idle]) : idle)) await this.writeOldest();
    }
  }

  private send(data: Uint8Array): void {
    // `data` is handed over (its buffer transferred to another thread): every queued block owns its buffer.
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

/** `bytes` bytes held in `parts`, copied into `k` blocks of their own whose sizes differ by at most one. */
export function splitEvenly(parts: readonly Uint8Array[], bytes: number, k: number): Uint8Array[] {
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
