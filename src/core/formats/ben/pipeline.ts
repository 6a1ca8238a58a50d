import type { XzCheck } from '../../codecs/xz/encode.js';
import { openXzWriter } from '../../codecs/xz/parallelWriter.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { ByteSink, TaskContext } from '../../model.js';
import { BenPacker, Framer, XbenBodyPacker } from './encode.js';
import { JsonlWriter } from './jsonl.js';
import { readJsonl } from './jsonlRead.js';
import type { Variant } from './model.js';
import type { Plan } from './plan.js';
import { type Selection, exhausted, firstSelected, selectedIn } from './select.js';
import { readFrames, type StreamLocation } from './stream.js';
import { TallySink } from './tallySink.js';

/** A plan and how many consecutive samples it stands for, from any source. */
export interface SampleRun {
  readonly plan: Plan;
  readonly count: number;
  /** 1-based number of the first of these samples in the source. */
  readonly firstSample: number;
  /** The whole frame's repeat count when this run is a part of it. */
  readonly repeat?: number;
}

export async function* jsonlSamples(src: ByteSource, signal?: AbortSignal): AsyncGenerator<SampleRun> {
  let n = 0;
  for await (const s of readJsonl(src, signal)) yield { plan: s.plan, count: 1, firstSample: ++n };
}

export async function* streamSamples(src: ByteSource, loc: StreamLocation, signal?: AbortSignal): AsyncGenerator<SampleRun> {
  const { frames } = await readFrames(src, loc, { signal });
  yield* frames;
}

/**
 * Keeps the selected samples (positions 0-based over expanded samples); stops reading when
 * nothing more can be selected. A run's `firstSample` becomes its first selected sample; only
 * ranges keep the selected samples of a run consecutive, so other selections renumber on output.
 */
export async function* selectSamples(runs: AsyncIterable<SampleRun>, sel: Selection): AsyncGenerator<SampleRun> {
  if (sel.kind === 'all') return yield* runs;
  for await (const r of runs) {
    const first = r.firstSample - 1;
    if (exhausted(sel, first)) return;
    const kept = selectedIn(sel, first, r.count);
    if (kept > 0) yield { plan: r.plan, count: kept, firstSample: firstSelected(sel, first) + 1 };
  }
}

export interface StreamTarget {
  readonly format: 'ben' | 'xben';
  readonly variant: Variant;
  /** xz preset for XBEN (0..7). */
  readonly preset?: number;
  readonly check?: XzCheck;
}

export interface WriteReport {
  readonly samples: number;
  readonly frames: number;
  readonly bytes: number;
}

/** Encodes samples as a BEN stream or an XBEN file (xz over the re-expanded body). */
export async function writeStream(runs: AsyncIterable<SampleRun>, sink: ByteSink, target: StreamTarget, ctx: TaskContext = {}): Promise<WriteReport> {
  const out = new TallySink(sink);
  const xz = target.format === 'xben' ? await openXzWriter(out, { preset: target.preset ?? 6, check: target.check ?? 'none' }) : undefined;
  try {
    const framer = new Framer(target.variant, xz ? new XbenBodyPacker(xz) : new BenPacker(out));
    await framer.begin();
    for await (const r of runs) {
      await framer.add(r.plan, r.count);
      if (framer.frames % 1024 === 0) ctx.progress?.({ done: framer.samples, message: `${framer.samples} samples` });
    }
    await framer.end();
    await xz?.finish();
    return { samples: framer.samples, frames: framer.frames, bytes: out.bytes };
  } catch (e) {
    xz?.abandon();
    throw e;
  }
}

/** Writes samples as the reference decoder's JSONL; `renumber` numbers the written samples from 1. */
export async function writeJsonlSamples(runs: AsyncIterable<SampleRun>, sink: ByteSink, renumber: boolean, ctx: TaskContext = {}): Promise<WriteReport> {
  const w = new JsonlWriter(sink);
  let samples = 0;
  let frames = 0;
  try {
    for await (const r of runs) {
      await w.write(r.plan, renumber ? samples + 1 : r.firstSample, r.count);
      samples += r.count;
      if (++frames % 1024 === 0) ctx.progress?.({ done: samples, message: `${samples} samples` });
    }
  } finally {
    // Whole lines only: what was decoded before an error is kept, like the reference decoder's output.
    await w.flush();
  }
  return { samples, frames, bytes: w.bytes };
}
