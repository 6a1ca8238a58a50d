import { Distribution, type Summary } from './distribution.js';
import type { PlanStats, Sum } from './measure.js';

/**
 * Where a reference value falls among the ensemble's: `below` plans have a smaller value,
 * `equal` the same; `percentile` = 100·(below + equal/2)/n (the mid-rank percentile, so a value
 * every plan shares sits at 50, not 0 or 100), null when no plan has this statistic.
 */
export interface Placement {
  readonly value: number;
  readonly below: number;
  readonly equal: number;
  readonly percentile: number | null;
}

/** Counts plans below and equal to one reference value: exact, two numbers of memory. */
export class Placer {
  below = 0;
  equal = 0;
  n = 0;
  constructor(readonly value: number) {}
  add(v: number, times: number): void {
    this.n += times;
    if (v < this.value) this.below += times;
    else if (v === this.value) this.equal += times;
  }
  placement(): Placement {
    return { value: this.value, below: this.below, equal: this.equal, percentile: this.n === 0 ? null : (100 * (this.below + this.equal / 2)) / this.n };
  }
}

/** One statistic: its distribution, and the reference's place in it when there is a reference. */
export class Tracked {
  readonly dist = new Distribution();
  constructor(readonly ref?: Placer) {}
  add(v: number, times: number): void {
    this.dist.add(v, times);
    this.ref?.add(v, times);
  }
}

const num = (v: Sum): number => Number(v);

/** Each attribute's district sums sorted ascending: rank 1 is the smallest district of the plan. */
function ranked(stats: PlanStats, a: number): number[] {
  return stats.sums[a]!.map(num).sort((x, y) => x - y);
}

/**
 * The ensemble's distributions, fed one plan at a time: cut edges, the number of districts, and
 * for each attribute the k-th smallest district sum for every rank k (the marginal box plots of
 * the redistricting literature: district labels mean nothing across plans, ranks do). A plan with
 * fewer districts adds nothing to the ranks it lacks. With a reference plan (measured first), each
 * statistic also counts the plans below and equal to the reference's own value.
 */
export class EnsembleSummary {
  private samples = 0;
  private readonly cut: Tracked;
  private readonly districts = new Distribution();
  private readonly ranks: Tracked[][];

  constructor(
    private readonly attributes: readonly string[],
    private readonly reference?: { readonly name: string; readonly stats: PlanStats },
  ) {
    const ref = reference?.stats;
    this.cut = new Tracked(ref && new Placer(ref.cutEdges));
    this.ranks = attributes.map((_, a) => (ref ? ranked(ref, a).map((v) => new Tracked(new Placer(v))) : []));
  }

  add(stats: PlanStats, times = 1): void {
    this.samples += times;
    this.cut.add(stats.cutEdges, times);
    this.districts.add(stats.labels.length, times);
    this.attributes.forEach((_, a) => {
      const byRank = this.ranks[a]!;
      ranked(stats, a).forEach((v, k) => (byRank[k] ??= new Tracked()).add(v, times));
    });
  }

  /**
   * `{"samples":N,"districts":…,"cut_edges":…,"sums":{"ATTR":[{"rank":1,…},…]},"reference":…}`:
   * each statistic as n, min, mean, max, quantiles (distribution.ts says how exact).
   */
  result(): Record<string, unknown> {
    const sums: Record<string, unknown> = {};
    const refSums: Record<string, unknown> = {};
    this.attributes.forEach((name, a) => {
      const byRank = this.ranks[a]!;
      sums[name] = byRank.map((t, k): { rank: number } & Summary => ({ rank: k + 1, ...t.dist.summary() }));
      refSums[name] = byRank.flatMap((t, k) => (t.ref ? [{ rank: k + 1, ...t.ref.placement() }] : []));
    });
    const out: Record<string, unknown> = { samples: this.samples, districts: this.districts.summary(), cut_edges: this.cut.dist.summary(), sums };
    if (this.reference)
      out.reference = { plan: this.reference.name, districts: this.reference.stats.labels.length, cut_edges: this.cut.ref!.placement(), sums: refSums };
    return out;
  }
}
