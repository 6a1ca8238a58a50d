import type { AttributeChoice, Election } from './choice.js';
import { electionOf } from './choice.js';
import type { PlanStats } from './measure.js';
import { efficiencyGap, meanMedian, populationBalance, seatsWon, winnerOf } from './partisan.js';

/** One district of one plan: its population and each election's votes, shares and winner. */
export interface DistrictRow {
  readonly label: number;
  readonly population?: number;
  /** (population − ideal) / ideal. */
  readonly deviation?: number;
  readonly elections: readonly {
    readonly votes: readonly number[];
    /** Each party's votes over the election's votes in the district (0 where none were cast). */
    readonly shares: readonly number[];
    /** Index of the winning party; null on a tie or without votes. */
    readonly winner: number | null;
  }[];
}

export interface ElectionFigures {
  readonly election: Election;
  readonly seats: readonly number[];
  /** Two-party figures, from the first party's side; null for other than two parties. */
  readonly efficiencyGap: number | null;
  readonly meanMedian: number | null;
}

export interface DistrictReport {
  readonly rows: readonly DistrictRow[];
  readonly cutEdges: number;
  readonly idealPopulation?: number;
  readonly maxDeviation?: number;
  readonly elections: readonly ElectionFigures[];
}

/**
 * The district table and the plan-level figures of one measured plan. `stats` must carry the
 * choice's attributes in the order `attributes` lists them (PlanMeasure over a graph made with
 * choiceAttributes(choice)).
 */
export function districtReport(stats: PlanStats, attributes: readonly string[], choice: AttributeChoice): DistrictReport {
  const sums = (attr: string) => stats.sums[attributes.indexOf(attr)]!.map(Number);
  const pops = choice.population ? sums(choice.population) : undefined;
  const balance = pops && populationBalance(pops);
  const votes = choice.elections.map((e) => e.map(sums));
  const rows = stats.labels.map(
    (label, d): DistrictRow => ({
      label,
      population: pops?.[d],
      deviation: balance?.deviations[d],
      elections: votes.map((byParty) => {
        const inD = byParty.map((p) => p[d]!);
        const total = inD.reduce((s, v) => s + v, 0);
        return { votes: inD, shares: inD.map((v) => (total > 0 ? v / total : 0)), winner: winnerOf(inD) };
      }),
    }),
  );
  const elections = choice.elections.map((attrs, e): ElectionFigures => {
    const byParty = votes[e]!;
    const two = byParty.length === 2;
    return {
      election: electionOf(attrs),
      seats: seatsWon(byParty),
      efficiencyGap: two ? efficiencyGap(byParty[0]!, byParty[1]!) : null,
      meanMedian: two ? meanMedian(byParty[0]!, byParty[1]!) : null,
    };
  });
  return { rows, cutEdges: stats.cutEdges, idealPopulation: balance?.ideal, maxDeviation: balance?.maxAbs, elections };
}
