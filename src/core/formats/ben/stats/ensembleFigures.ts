import { throwIfAborted } from '../../../errors.js';
import type { TaskContext } from '../../../model.js';
import type { SampleRun } from '../pipeline.js';
import { type AttributeChoice, electionOf } from './choice.js';
import { type DistrictReport, districtReport } from './districts.js';
import { Distribution, type DistributionJson } from './distribution.js';
import type { PlanMeasure, PlanStats } from './measure.js';
import { measureRuns } from './rows.js';

/**
 * The ensemble figures the viewer plots (issue 20 item 3), one Distribution per statistic, so
 * memory stays flat whatever the number of plans: cut edges, the largest population deviation,
 * and per election the seats, the efficiency gap, the mean-median and the sorted-district vote
 * shares (rank k: the k-th smallest share of the first party: the marginal box plots). A reference
 * plan is placed afterwards from the distributions (Distribution.place), so changing it costs no
 * second pass and the cache need not know it.
 */

/** What one statistic is: its id (stable across opens: the cache's keys), title and unit. */
export interface FigureSpec {
  readonly id: string;
  readonly title: string;
  /** What the x axis (histograms) or y axis (box plots) measures. */
  readonly label: string;
  readonly unit: 'count' | 'fraction';
}

/** One plan's value of each statistic: scalars for histograms, a value per rank for box plots. */
export interface PlanFigures {
  readonly scalars: ReadonlyMap<string, number>;
  readonly ranks: ReadonlyMap<string, readonly number[]>;
}

/** The statistics a choice of attributes gives, in the order the view shows them. */
export function figureSpecs(choice: AttributeChoice): { scalars: FigureSpec[]; ranks: FigureSpec[] } {
  const scalars: FigureSpec[] = [{ id: 'cut_edges', title: 'Cut edges', label: 'cut edges', unit: 'count' }];
  if (choice.population)
    scalars.push({ id: 'population_deviation', title: 'Largest population deviation', label: `|${choice.population} − ideal| / ideal`, unit: 'fraction' });
  const ranks: FigureSpec[] = [];
  choice.elections.forEach((attrs, e) => {
    const { name, parties } = electionOf(attrs);
    // With two parties the second's seats are the districts less the first's: one plot says both.
    const seated = parties.length === 2 ? parties.slice(0, 1) : parties;
    seated.forEach((p, i) => scalars.push({ id: `e${e}.seats.${i}`, title: `${name}: ${p.label} seats`, label: `${p.label} seats`, unit: 'count' }));
    if (parties.length === 2) {
      scalars.push({
        id: `e${e}.efficiency_gap`,
        title: `${name}: efficiency gap`,
        label: `efficiency gap (positive favours ${parties[0]!.label})`,
        unit: 'fraction',
      });
      scalars.push({ id: `e${e}.mean_median`, title: `${name}: mean-median`, label: `mean-median (positive favours ${parties[0]!.label})`, unit: 'fraction' });
    }
    ranks.push({
      id: `e${e}.shares`,
      title: `${name}: ${parties[0]!.label} vote share by district, sorted`,
      label: `${parties[0]!.label} share`,
      unit: 'fraction',
    });
  });
  return { scalars, ranks };
}

/** A plan's figures from its district report; the ids are figureSpecs'. */
export function planFigures(r: DistrictReport): PlanFigures {
  const scalars = new Map<string, number>([['cut_edges', r.cutEdges]]);
  if (r.maxDeviation !== undefined) scalars.set('population_deviation', r.maxDeviation);
  const ranks = new Map<string, number[]>();
  r.elections.forEach((f, e) => {
    const two = f.seats.length === 2;
    (two ? f.seats.slice(0, 1) : f.seats).forEach((s, i) => scalars.set(`e${e}.seats.${i}`, s));
    if (f.efficiencyGap !== null) scalars.set(`e${e}.efficiency_gap`, f.efficiencyGap);
    if (f.meanMedian !== null) scalars.set(`e${e}.mean_median`, f.meanMedian);
    // Districts where no votes were cast have no share: left out, as mean-median leaves them out.
    const shares = r.rows.flatMap((d) => (d.elections[e]!.votes.some((v) => v > 0) ? [d.elections[e]!.shares[0]!] : []));
    ranks.set(
      `e${e}.shares`,
      shares.sort((x, y) => x - y),
    );
  });
  return { scalars, ranks };
}

export interface EnsembleFiguresJson {
  readonly samples: number;
  readonly scalars: Readonly<Record<string, DistributionJson>>;
  readonly ranks: Readonly<Record<string, readonly DistributionJson[]>>;
}

/** The distributions, fed one plan (or one run of a repeated plan) at a time. */
export class EnsembleFigures {
  samples = 0;
  readonly scalars = new Map<string, Distribution>();
  readonly ranks = new Map<string, Distribution[]>();

  add(f: PlanFigures, times = 1): void {
    this.samples += times;
    for (const [id, v] of f.scalars) this.dist(this.scalars, id).add(v, times);
    for (const [id, values] of f.ranks) {
      let byRank = this.ranks.get(id);
      if (!byRank) this.ranks.set(id, (byRank = []));
      values.forEach((v, k) => (byRank[k] ??= new Distribution()).add(v, times));
    }
  }

  private dist(m: Map<string, Distribution>, id: string): Distribution {
    let d = m.get(id);
    if (!d) m.set(id, (d = new Distribution()));
    return d;
  }

  toJSON(): EnsembleFiguresJson {
    return {
      samples: this.samples,
      scalars: Object.fromEntries([...this.scalars].map(([id, d]) => [id, d.toJSON()])),
      ranks: Object.fromEntries([...this.ranks].map(([id, ds]) => [id, ds.map((d) => d.toJSON())])),
    };
  }

  static fromJSON(j: EnsembleFiguresJson): EnsembleFigures {
    const f = new EnsembleFigures();
    f.samples = j.samples;
    for (const [id, d] of Object.entries(j.scalars)) f.scalars.set(id, Distribution.fromJSON(d));
    for (const [id, ds] of Object.entries(j.ranks))
      f.ranks.set(
        id,
        ds.map((d) => Distribution.fromJSON(d)),
      );
    return f;
  }
}

/** A plan's figures: its stats (PlanMeasure over the choice's attributes, in `names` order) reported and read out. */
export function figuresOf(stats: PlanStats, names: readonly string[], choice: AttributeChoice): PlanFigures {
  return planFigures(districtReport(stats, names, choice));
}

/**
 * The viewer's ensemble pass: every checked sample from the one path cat takes, each run of a
 * repeated plan measured once (rows.ts), progress every 1024 samples, `ctx.signal` honoured.
 */
export async function collectFigures(
  samples: AsyncIterable<SampleRun>,
  measure: PlanMeasure,
  names: readonly string[],
  choice: AttributeChoice,
  ctx: TaskContext = {},
): Promise<EnsembleFigures> {
  const out = new EnsembleFigures();
  for await (const r of measureRuns(samples, measure, undefined, ctx)) {
    throwIfAborted(ctx.signal);
    out.add(figuresOf(r.stats, names, choice), r.count);
  }
  return out;
}
