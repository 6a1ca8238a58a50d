import type { TaskContext } from '../../../model.js';
import type { SampleRun } from '../pipeline.js';
import type { PlanMeasure, PlanStats } from './measure.js';

/** One plan's statistics and the consecutive samples (1-based, from `firstSample`) it stands for. */
export interface StatsRun {
  readonly firstSample: number;
  readonly count: number;
  readonly stats: PlanStats;
}

/**
 * The statistics of each run of samples, in one pass: a repeated plan (a frame's count, a chain
 * that stayed) is measured once. `limit` keeps at most that many samples, as cat's --count.
 * The runs come from the same checked path as cat's (salvage.ts), so a damaged sample is never
 * measured: the decoder's error leaves here as it does from cat.
 */
export async function* measureRuns(
  samples: AsyncIterable<SampleRun>,
  measure: PlanMeasure,
  limit = Number.POSITIVE_INFINITY,
  ctx: TaskContext = {},
): AsyncGenerator<StatsRun> {
  let left = limit;
  if (left <= 0) return;
  let measured = 0;
  for await (const r of samples) {
    const count = Math.min(left, r.count);
    yield { firstSample: r.firstSample, count, stats: measure.measure(r.plan, `sample ${r.firstSample}`) };
    left -= count;
    measured += count;
    if (measured >> 10 !== (measured - count) >> 10) ctx.progress?.({ done: measured, message: `${measured} samples` });
    if (left <= 0) return;
  }
}
