import type { AttributeChoice } from './choice.js';
import { districtReport } from './districts.js';
import type { PlanStats } from './measure.js';
import { Placer, Tracked } from './summary.js';

/**
 * The plan-level figures of the District panel over an ensemble: the largest population deviation,
 * and per election each party's seats, the efficiency gap and the mean-median, one distribution
 * each (memory independent of the number of plans), each with the reference plan's place in it.
 * `names` are the graph's attributes in the order PlanStats sums them.
 */
export class FiguresSummary {
  private readonly deviation: Tracked | undefined;
  private readonly elections: { readonly seats: Tracked[]; readonly gap?: Tracked; readonly mm?: Tracked }[];

  constructor(
    private readonly choice: AttributeChoice,
    private readonly names: readonly string[],
    reference?: PlanStats,
  ) {
    const ref = reference && districtReport(reference, names, choice);
    const track = (v: number | null | undefined) => new Tracked(ref && v !== null && v !== undefined ? new Placer(v) : undefined);
    this.deviation = choice.population ? track(ref?.maxDeviation) : undefined;
    this.elections = choice.elections.map((parties, e) => {
      const f = ref?.elections[e];
      const two = parties.length === 2;
      return { seats: parties.map((_, p) => track(f?.seats[p])), gap: two ? track(f?.efficiencyGap) : undefined, mm: two ? track(f?.meanMedian) : undefined };
    });
  }

  add(stats: PlanStats, times = 1): void {
    const r = districtReport(stats, this.names, this.choice);
    if (r.maxDeviation !== undefined) this.deviation?.add(r.maxDeviation, times);
    r.elections.forEach((f, e) => {
      const t = this.elections[e]!;
      f.seats.forEach((s, p) => t.seats[p]!.add(s, times));
      if (f.efficiencyGap !== null) t.gap?.add(f.efficiencyGap, times);
      if (f.meanMedian !== null) t.mm?.add(f.meanMedian, times);
    });
  }

  /**
   * The summary's `population_deviation` (the largest |population − ideal| / ideal, a fraction) and
   * `elections` (`votes`: the attributes, `seats` per party, `efficiency_gap` and `mean_median`
   * from the first party's side, null for other than two parties); `reference` the placements.
   */
  result(): { figures: Record<string, unknown>; reference: Record<string, unknown> } {
    const dist = (t?: Tracked) => (t ? t.dist.summary() : null);
    const place = (t?: Tracked) => (t?.ref ? t.ref.placement() : null);
    const figures: Record<string, unknown> = {};
    const reference: Record<string, unknown> = {};
    if (this.deviation) {
      figures.population_deviation = dist(this.deviation);
      reference.population_deviation = place(this.deviation);
    }
    figures.elections = this.elections.map((t, e) => ({
      votes: this.choice.elections[e],
      seats: t.seats.map((s) => dist(s)),
      efficiency_gap: dist(t.gap),
      mean_median: dist(t.mm),
    }));
    reference.elections = this.elections.map((t, e) => ({
      votes: this.choice.elections[e],
      seats: t.seats.map((s) => place(s)),
      efficiency_gap: place(t.gap),
      mean_median: place(t.mm),
    }));
    return { figures, reference };
  }
}
