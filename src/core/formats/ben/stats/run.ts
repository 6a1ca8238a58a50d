import type { ByteSink, TaskContext } from '../../../model.js';
import type { AttributeChoice } from './choice.js';
import { FiguresSummary } from './figuresSummary.js';
import type { Plan } from '../plan.js';
import type { StatsGraph } from './graph.js';
import { PlanMeasure, type PlanStats, StatsInputError } from './measure.js';
import { writeStatsCsv, writeStatsJsonl } from './output.js';
import { measureRuns } from './rows.js';
import type { PlanEnsemble } from './source.js';
import { EnsembleSummary } from './summary.js';

/** A reference plan: a sample of the ensemble itself (1-based), or a plan read from elsewhere. */
export type ReferencePlan = { readonly sample: number } | { readonly name: string; readonly plan: Plan };

export interface StatsRequest {
  readonly graph: StatsGraph;
  readonly attributes: readonly string[];
  /** Samples skipped first (cat's --from: 0-based). */
  readonly from?: number;
  /** At most this many samples (cat's --count). */
  readonly count?: number;
  /** One line per sample (jsonl, csv) or one JSON object over them all (summary). */
  readonly output: 'jsonl' | 'csv' | 'summary';
  /** Summary only: where this plan's statistics fall in the ensemble. */
  readonly reference?: ReferencePlan;
  /**
   * Summary only: the plan figures' distributions (population deviation, seats, efficiency gap,
   * mean-median) for this population and these elections; the graph carries their attributes
   * after `attributes`.
   */
  readonly figures?: AttributeChoice;
}

/**
 * `binlens stats`, and later the viewer's ensemble pass: one streaming pass over the checked
 * samples, memory bounded by the graph. A damaged sample stops it with the decoder's error, as
 * it stops cat (nothing measured from it); a plan whose node count differs from the graph's
 * throws StatsInputError before anything about it is written. Returns the samples measured.
 */
export async function runStats(ensemble: PlanEnsemble, req: StatsRequest, out: ByteSink, ctx: TaskContext = {}): Promise<number> {
  const measure = new PlanMeasure(req.graph);
  // The sums printed: the graph may carry more attributes after them, for the figures.
  const names = req.attributes;
  if (req.output !== 'summary') {
    const runs = measureRuns(ensemble.samples(ctx, req.from ?? 0), measure, req.count, ctx);
    return req.output === 'csv' ? writeStatsCsv(runs, names, out) : writeStatsJsonl(runs, names, out);
  }
  const reference = req.reference && (await measureReference(ensemble, measure, req.reference, ctx));
  const summary = new EnsembleSummary(names, reference);
  const figures =
    req.figures &&
    new FiguresSummary(
      req.figures,
      req.graph.attributes.map((a) => a.name),
      reference?.stats,
    );
  let samples = 0;
  for await (const r of measureRuns(ensemble.samples(ctx, req.from ?? 0), measure, req.count, ctx)) {
    summary.add(r.stats, r.count);
    figures?.add(r.stats, r.count);
    samples += r.count;
  }
  const result = summary.result();
  if (figures) {
    const f = figures.result();
    Object.assign(result, f.figures);
    if (result.reference) Object.assign(result.reference, f.reference);
  }
  await out.write(new TextEncoder().encode(`${JSON.stringify(result)}\n`));
  return samples;
}

async function measureReference(
  ensemble: PlanEnsemble,
  measure: PlanMeasure,
  ref: ReferencePlan,
  ctx: TaskContext,
): Promise<{ name: string; stats: PlanStats }> {
  if ('plan' in ref) return { name: ref.name, stats: measure.measure(ref.plan, `the reference plan ${ref.name}`) };
  if (ref.sample < 1) throw new StatsInputError('out-of-range', 'samples are numbered from 1', { field: '--reference' });
  for await (const r of ensemble.samples(ctx, ref.sample - 1)) return { name: `sample ${ref.sample}`, stats: measure.measure(r.plan, `sample ${ref.sample}`) };
  throw new StatsInputError('out-of-range', `sample ${ref.sample}: the ensemble holds fewer samples`, { field: '--reference' });
}
