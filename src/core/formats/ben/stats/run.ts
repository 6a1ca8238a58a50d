import type { ByteSink, TaskContext } from '../../../model.js';
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
}

/**
 * `binlens stats`, and later the viewer's ensemble pass: one streaming pass over the checked
 * samples, memory bounded by the graph. A damaged sample stops it with the decoder's error, as
 * it stops cat (nothing measured from it); a plan whose node count differs from the graph's
 * throws StatsInputError before anything about it is written. Returns the samples measured.
 */
export async function runStats(ensemble: PlanEnsemble, req: StatsRequest, out: ByteSink, ctx: TaskContext = {}): Promise<number> {
  const measure = new PlanMeasure(req.graph);
  const names = req.graph.attributes.map((a) => a.name);
  if (req.output !== 'summary') {
    const runs = measureRuns(ensemble.samples(ctx, req.from ?? 0), measure, req.count, ctx);
    return req.output === 'csv' ? writeStatsCsv(runs, names, out) : writeStatsJsonl(runs, names, out);
  }
  const reference = req.reference && (await measureReference(ensemble, measure, req.reference, ctx));
  const summary = new EnsembleSummary(names, reference);
  let samples = 0;
  for await (const r of measureRuns(ensemble.samples(ctx, req.from ?? 0), measure, req.count, ctx)) {
    summary.add(r.stats, r.count);
    samples += r.count;
  }
  await out.write(new TextEncoder().encode(`${JSON.stringify(summary.result())}\n`));
  return samples;
}

async function measureReference(ensemble: PlanEnsemble, measure: PlanMeasure, ref: ReferencePlan, ctx: TaskContext): Promise<{ name: string; stats: PlanStats }> {
  if ('plan' in ref) return { name: ref.name, stats: measure.measure(ref.plan, `the reference plan ${ref.name}`) };
  if (ref.sample < 1) throw new StatsInputError('out-of-range', 'samples are numbered from 1', { field: '--reference' });
  for await (const r of ensemble.samples(ctx, ref.sample - 1)) return { name: `sample ${ref.sample}`, stats: measure.measure(r.plan, `sample ${ref.sample}`) };
  throw new StatsInputError('out-of-range', `sample ${ref.sample}: the ensemble holds fewer samples`, { field: '--reference' });
}
