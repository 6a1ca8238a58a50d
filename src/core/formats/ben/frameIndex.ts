import { FormatError, rethrowUnlessFormatError, throwIfAborted } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { TimeSlice, yieldToEventLoop } from '../../io/scan.js';
import type { SavedIndex, TaskContext } from '../../model.js';
import { decodeFrameIndex, encodeFrameIndex } from './frameIndexBytes.js';
import { nextPosition, readFrame, type FramePosition } from './frames.js';
import { CHECKPOINT_EVERY, Hop, WalkState, hopFrames } from './headerWalk.js';
import type { BenFrame, Variant } from './model.js';
import { MAX_PIECE, ReadAhead } from './readAhead.js';
import { releaseHopper, takeHopper } from './wasmHop.js';

/** How a walk ended: at its stop (`at` is the frame there), at the end, or at a frame that does not read. */
type WalkEnd = { readonly kind: 'stopped'; readonly at: FramePosition } | { readonly kind: 'end' | 'failed' };
/**
 * A sparse index of a BEN stream's frames, built as far as anyone has looked. Paging to frame k
 * walks headers from the nearest checkpoint before k; `scanToEnd` completes the count in the
 * background. Memory is O(frames / 1024) whatever the file size.
 */
export class FrameIndex implements SavedIndex {
  private checkpoints: FramePosition[];
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

  /** The walk so far, once it has passed a checkpoint: less is quicker to walk again than to store. */
  save(): Uint8Array | undefined {
    if (this.checkpoints.length < 2) return undefined;
    return encodeFrameIndex({
      variant: this.variant,
      end: this.end,
      frontier: this.frontier,
      complete: this.complete && !this.failure,
      checkpoints: this.checkpoints,
    });
  }

  /**
   * Continues from a saved walk that went further than this one. A frame the saved index points
   * to is still read and checked when a page needs it, so a stale index gives located errors,
   * not wrong plans; a failure is never restored, the walk finds it again.
   */
  restore(bytes: Uint8Array): boolean {
    let saved;
    try {
      saved = decodeFrameIndex(bytes, this.checkpoints[0]!, this.end);
    } catch (e) {
      rethrowUnlessFormatError(e);
      return false;
    }
    if (saved.variant !== this.variant || this.failure || saved.frontier.index <= this.frontier.index) return false;
    this.checkpoints = [...saved.checkpoints];
    this.frontier = saved.frontier;
    this.complete = saved.complete;
    return true;
  }

  /** Frames [from, from + count); fewer at the end or where the stream breaks. */
  async frames(from: number, count: number, signal?: AbortSignal): Promise<BenFrame[]> {
    const out: BenFrame[] = [];
    // Hop to `from` without making frames, then read the page's frames one by one.
    const w = await this.walk(this.checkpointAtOrBefore(from), from, Infinity, signal);
    if (w.kind !== 'stopped') return out;
    let pos = w.at;
    while (out.length < count) {
      throwIfAborted(signal);
      if (pos.offset >= this.end) {
        this.finish(pos);
        break;
      }
      if (this.failure && pos.index >= this.frontier.index) break;
      const frame = await this.frameAt(pos);
      if (frame === undefined) break;
      out.push(frame);
      pos = nextPosition(frame, pos);
      this.advance(pos);
    }
    return out;
  }

  /** Walks every remaining frame header, reporting progress in bytes; resolves when done. */
  async scanToEnd(ctx: TaskContext): Promise<void> {
    if (!this.complete) await this.walk(this.frontier, Infinity, Infinity, ctx.signal, ctx.progress);
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
    // A frame that starts at sample k holds it (a count is at least 1): a read from the start, as
    // cat's, walks nothing, and compiles no WebAssembly hop (2-3 MB of that cat's peak RSS).
    const w: WalkEnd = pos.firstSample - 1 === k && pos.offset < this.end ? { kind: 'stopped', at: pos } : await this.walk(pos, Infinity, k, signal);
    if (w.kind !== 'stopped') return undefined;
    try {
      return { frame: await readFrame(this.src, this.variant, w.at, this.end), at: w.at };
    } catch (e) {
      rethrowUnlessFormatError(e);
      this.fail(w.at, e);
      return undefined;
    }
  }

  /**
   * Hops over frame headers from `from` to frame `stopIndex`, or to the frame holding 0-based
   * sample `stopSample`, or to the end, in large sequential reads (headerWalk.ts), recording
   * checkpoints and the frontier on the way. A frame the fast loop does not take goes through
   * `readFrame`, which reads it or names what is wrong with it.
   */
  private async walk(from: FramePosition, stopIndex: number, stopSample: number, signal?: AbortSignal, progress?: TaskContext['progress']): Promise<WalkEnd> {
    const s = new WalkState(from);
    const checkpoint = (w: WalkState) => {
      if (w.index / CHECKPOINT_EVERY === this.checkpoints.length) this.checkpoints.push(w.position());
    };
    const hopper = takeHopper(MAX_PIECE);
    const hop = hopper ? hopper.hopFrames : hopFrames;
    const pieces = new ReadAhead(this.src, this.end, hopper ? (length) => hopper.view(length) : undefined);
    const slice = new TimeSlice();
    try {
      let buf: Uint8Array = new Uint8Array(0);
      let bufOffset = -1;
      for (;;) {
        const r = bufOffset < 0 ? Hop.Refill : hop(buf, bufOffset, this.variant, s, this.end, stopIndex, stopSample, checkpoint);
        if (r === Hop.Stopped) {
          const at = s.position();
          this.advance(at);
          return { kind: 'stopped', at };
        }
        if (r === Hop.End) {
          this.finish(s.position());
          return { kind: 'end' };
        }
        if (r === Hop.Refill && s.offset > bufOffset) {
          throwIfAborted(signal);
          if (bufOffset >= 0) {
            this.advance(s.position());
            progress?.({ done: s.offset, total: this.end, message: `${s.index} frames` });
            // A local file or one in memory answers without waiting: let a viewer's other requests in between.
            if (slice.spent()) await yieldToEventLoop();
          }
          ({ bytes: buf, offset: bufOffset } = await pieces.pieceAt(s.offset));
          continue;
        }
        // One frame the loop left (longer than a read, or perhaps invalid): readFrame reads it or names the error.
        const at = s.position();
        const frame = await this.frameAt(at);
        if (frame === undefined) return { kind: 'failed' };
        if (at.firstSample - 1 + frame.count > stopSample) {
          this.advance(at);
          return { kind: 'stopped', at };
        }
        const next = nextPosition(frame, at);
        s.index = next.index;
        s.offset = next.offset;
        s.firstSample = next.firstSample;
        if (next.anchor) s.setAnchor(next.anchor.index, next.anchor.offset, next.anchor.firstSample);
        if (next.index % CHECKPOINT_EVERY === 0) checkpoint(s);
      }
    } finally {
      pieces.close();
      releaseHopper(hopper);
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

  /** The frame at `pos`, or undefined where it is damaged: the failure is then the index's frontier. */
  private async frameAt(pos: FramePosition): Promise<BenFrame | undefined> {
    try {
      return await readFrame(this.src, this.variant, pos, this.end);
    } catch (e) {
      rethrowUnlessFormatError(e);
      this.fail(pos, e);
      return undefined;
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
