import { FormatError, throwIfAborted } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { yieldToEventLoop } from '../../io/scan.js';
import type { TaskContext } from '../../model.js';
import { nextPosition, readFrame, type FramePosition } from './frames.js';
import type { BenFrame, Variant } from './model.js';

/** One checkpoint every this many frames: 2 M frames cost 2 k checkpoints. */
const CHECKPOINT_EVERY = 1024;

/**
 * A sparse index of a BEN stream's frames, built as far as anyone has looked. Paging to frame k
 * walks headers from the nearest checkpoint before k; `scanToEnd` completes the count in the
 * background. Memory is O(frames / 1024) whatever the file size.
 */
export class FrameIndex {
  private readonly checkpoints: FramePosition[];
  /** The first frame not yet walked. */
  private frontier: FramePosition;
  private complete = false;
  private failure: FormatError | undefined;

  constructor(
    private readonly src: ByteSource,
    readonly variant: Variant,
    start: FramePosition,
    /** Absolute end of the stream (the file size for a .ben, the stream's end in a bundle). */
    private readonly end: number = src.size,
  ) {
    this.checkpoints = [start];
    this.frontier = start;
    this.complete = start.offset >= end;
  }

  /** Frames and samples known so far; `complete` once the walk reached the end or an error. */
  get known(): { frames: number; samples: number; complete: boolean; error?: FormatError } {
    return { frames: this.frontier.index, samples: this.frontier.firstSample - 1, complete: this.complete, error: this.failure };
  }

  /** Frames [from, from + count); fewer at the end or where the stream breaks. */
  async frames(from: number, count: number, signal?: AbortSignal): Promise<BenFrame[]> {
    const out: BenFrame[] = [];
    let pos = this.checkpointAtOrBefore(from);
    while (out.length < count) {
      throwIfAborted(signal);
      if (pos.offset >= this.end) {
        this.finish(pos);
        break;
      }
      if (this.failure && pos.index >= this.frontier.index) break;
      let frame: BenFrame;
      try {
        frame = await readFrame(this.src, this.variant, pos, this.end);
      } catch (e) {
        if (!(e instanceof FormatError)) throw e;
        this.fail(pos, e);
        break;
      }
      if (frame.index >= from) out.push(frame);
      pos = nextPosition(frame, pos);
      this.advance(pos);
    }
    return out;
  }

  /** Walks every remaining frame header, reporting progress in bytes; resolves when done. */
  async scanToEnd(ctx: TaskContext): Promise<void> {
    let pos = this.frontier;
    let sinceYield = 0;
    while (!this.complete) {
      if (pos.offset >= this.end) {
        this.finish(pos);
        break;
      }
      try {
        pos = nextPosition(await readFrame(this.src, this.variant, pos, this.end), pos);
      } catch (e) {
        if (!(e instanceof FormatError)) throw e;
        this.fail(pos, e);
        break;
      }
      this.advance(pos);
      if (++sinceYield === 4096) {
        sinceYield = 0;
        throwIfAborted(ctx.signal);
        ctx.progress?.({ done: pos.offset, total: this.end, message: `${pos.index} frames` });
        await yieldToEventLoop();
      }
    }
    ctx.progress?.({ done: this.end, total: this.end, message: `${this.frontier.index} frames` });
  }

  /**
   * The frame holding 0-based sample `k` (with the snapshot a TwoDelta decode starts from), or
   * undefined past the end: headers are walked from the last checkpoint at or before it.
   */
  async frameOfSample(k: number, signal?: AbortSignal): Promise<{ frame: BenFrame; at: FramePosition } | undefined> {
    let lo = 0;
    let hi = this.checkpoints.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.checkpoints[mid]!.firstSample - 1 <= k) lo = mid;
      else hi = mid - 1;
    }
    let pos = this.checkpoints[lo]!;
    if (this.frontier.firstSample - 1 <= k && this.frontier.index > pos.index) pos = this.frontier;
    for (let steps = 0; ; steps++) {
      if (steps % 4096 === 4095) throwIfAborted(signal);
      if (pos.offset >= this.end) {
        this.finish(pos);
        return undefined;
      }
      let frame: BenFrame;
      try {
        frame = await readFrame(this.src, this.variant, pos, this.end);
      } catch (e) {
        if (!(e instanceof FormatError)) throw e;
        this.fail(pos, e);
        return undefined;
      }
      const next = nextPosition(frame, pos);
      this.advance(next);
      if (k < next.firstSample - 1) return { frame, at: pos };
      pos = next;
    }
  }

  private checkpointAtOrBefore(frame: number): FramePosition {
    const i = Math.min(Math.floor(frame / CHECKPOINT_EVERY), this.checkpoints.length - 1);
    const cp = this.checkpoints[i]!;
    return cp.index <= this.frontier.index ? cp : this.frontier;
  }

  private advance(pos: FramePosition): void {
    if (pos.index <= this.frontier.index) return;
    this.frontier = pos;
    if (pos.index % CHECKPOINT_EVERY === 0 && pos.index / CHECKPOINT_EVERY === this.checkpoints.length) this.checkpoints.push(pos);
  }

  private finish(pos: FramePosition): void {
    if (pos.index >= this.frontier.index) {
      this.frontier = pos;
      this.complete = true;
    }
  }

  private fail(pos: FramePosition, e: FormatError): void {
    if (pos.index >= this.frontier.index) {
      this.frontier = pos;
      this.failure = e;
      this.complete = true;
    }
  }
}
