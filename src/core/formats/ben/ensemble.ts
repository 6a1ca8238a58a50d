import type { ByteSource } from '../../io/byteSource.js';
import { ByteCursor } from './cursor.js';
import { benFrames } from './decode.js';
import type { FrameIndex } from './frameIndex.js';
import type { Variant } from './model.js';
import type { SampleRun } from './pipeline.js';
import { readFrames, type StreamLocation } from './stream.js';

/** An XBEN decode waiting at sample `next` for the next forward reader; `taken` once one took it. */
interface Parked {
  readonly next: number;
  readonly iter: AsyncGenerator<SampleRun>;
  readonly held: SampleRun;
  /** Decoded before the xz checks (readFrames' `unchecked`): only an unchecked reader may take it. */
  readonly unchecked: boolean;
  taken: boolean;
}

/**
 * The plans of one stream with random access where the format allows it. A .ben (or a bundle's
 * BEN stream) seeks through its frame index: sample k costs a walk over at most 1024 frame
 * headers and the decode of one frame (TwoDelta: from the latest snapshot). An .xben streams
 * from the start; a reader that pages forward continues where it stopped.
 */
export class Ensemble {
  /** A decode left where the last forward read stopped (XBEN paging without restarts). */
  private resume: Parked | undefined;
  /** Readers in `from` now: a parked decode is ended (`release`) only while there are none. */
  private reading = 0;

  constructor(
    readonly src: ByteSource,
    readonly loc: StreamLocation,
    readonly variant: Variant,
    readonly index: FrameIndex | undefined,
  ) {}

  get randomAccess(): boolean {
    return this.index !== undefined;
  }

  /** What a parked decode holds in JavaScript: its next run's plan (its xz state is in liblzma's heap, the thread's memory). */
  parkedBytes(): number {
    const held = this.resume?.held.plan;
    return held ? held.values.byteLength + held.lengths.byteLength : 0;
  }

  /**
   * Ends a parked decode, and its xz stream, so liblzma's heap can be made again (the memory
   * budget); the next forward read starts from the stream's beginning. Not while a read is under way.
   */
  async release(): Promise<void> {
    const parked = this.resume;
    if (!parked || this.reading > 0) return;
    parked.taken = true;
    this.resume = undefined;
    await parked.iter.return(undefined);
  }

  /**
   * Runs from 0-based sample `position` on; the first run starts exactly there. `unchecked`
   * decodes XBEN data before its xz block checks (for values shown labelled as damaged).
   */
  async *from(position: number, signal?: AbortSignal, opts: { unchecked?: boolean } = {}): AsyncGenerator<SampleRun> {
    const unchecked = opts.unchecked === true;
    const trim = (r: SampleRun): SampleRun | undefined => {
      const end = r.firstSample - 1 + r.count;
      if (end <= position) return undefined;
      const first = Math.max(position, r.firstSample - 1);
      return first === r.firstSample - 1 ? r : { plan: r.plan, count: end - first, firstSample: first + 1, repeat: r.repeat ?? r.count };
    };
    this.reading++;
    try {
      if (this.index) {
        const hit = await this.index.frameOfSample(position, signal);
        if (!hit) {
          // Past the end, or past a frame header that does not read: the latter is an error, not
          // an empty stream (a conversion would otherwise drop every sample after it silently).
          const broken = this.index.known.error;
          if (broken) throw broken;
          return;
        }
        const start = this.variant === 'two_delta' ? (hit.at.anchor ?? hit.at) : hit.at;
        const c = ByteCursor.over(this.src, start.offset, this.loc.offset + this.loc.length - start.offset);
        for await (const f of benFrames(c, this.variant, start, { signal })) {
          const r = trim(f);
          if (r) yield r;
        }
        return;
      }
      let iter: AsyncGenerator<SampleRun>;
      let held: SampleRun | undefined;
      const taken = this.resume && this.resume.next <= position && this.resume.unchecked === unchecked ? this.resume : undefined;
      if (taken) {
        taken.taken = true;
        ({ iter, held } = taken);
      } else {
        if (this.resume) this.resume.taken = true;
        await this.resume?.iter.return(undefined);
        iter = (await readFrames(this.src, this.loc, { signal, unchecked, fromSample: position })).frames;
      }
      this.resume = undefined;
      let parked: Parked | undefined;
      try {
        for (;;) {
          const r = held ?? (await iter.next()).value;
          held = undefined;
          if (!r) return;
          const t = trim(r);
          if (!t) continue;
          // Parked before the run is handed out, so a reader that stops after it resumes right here.
          parked = { next: t.firstSample - 1, iter, held: t, unchecked, taken: false };
          this.resume = parked;
          yield t;
          if (parked.taken) return;
          this.resume = undefined;
        }
      } finally {
        // Kept open only while parked for the next reader.
        if (!parked?.taken && this.resume !== parked) await iter.return(undefined);
      }
    } finally {
      this.reading--;
    }
  }
}
