/**
 * The plan-level figures redistricting reports quote, from district totals alone: population
 * balance, winners and seats, efficiency gap and mean-median. Pure arithmetic on numbers in
 * district order; which attribute is what is the caller's business (districts.ts).
 */

export interface PopulationBalance {
  /** Total population over the number of districts. */
  readonly ideal: number;
  /** Per district: (population − ideal) / ideal; 0 everywhere when the ideal is 0. */
  readonly deviations: readonly number[];
  /** The largest |deviation|: the figure a ±1 % population constraint bounds. */
  readonly maxAbs: number;
}

export function populationBalance(populations: readonly number[]): PopulationBalance {
  const total = populations.reduce((s, p) => s + p, 0);
  const ideal = populations.length ? total / populations.length : 0;
  const deviations = populations.map((p) => (ideal === 0 ? 0 : (p - ideal) / ideal));
  return { ideal, deviations, maxAbs: deviations.reduce((m, d) => Math.max(m, Math.abs(d)), 0) };
}

/** The index of the party with the most votes; null on a tie for first (or no votes at all). */
export function winnerOf(votes: readonly number[]): number | null {
  let best = -1;
  let tied = false;
  votes.forEach((v, i) => {
    if (best < 0 || v > votes[best]!) {
      best = i;
      tied = false;
    } else if (v === votes[best]) tied = true;
  });
  return best < 0 || tied || votes[best] === 0 ? null : best;
}

/**
 * Seats per party: votes[party][district]. A district tied between k leading parties gives each
 * 1/k of its seat, so seats always add up to the districts that cast votes.
 */
export function seatsWon(votes: readonly (readonly number[])[]): number[] {
  const seats = votes.map(() => 0);
  const districts = votes[0]?.length ?? 0;
  for (let d = 0; d < districts; d++) {
    const inD = votes.map((p) => p[d]!);
    const top = Math.max(...inD);
    if (top <= 0) continue;
    const leaders = inD.flatMap((v, i) => (v === top ? [i] : []));
    for (const i of leaders) seats[i]! += 1 / leaders.length;
  }
  return seats;
}

/**
 * Efficiency gap of two parties A and B over districts: (wasted B − wasted A) / all votes, as
 * GerryChain computes it, so positive favours A. In a district the loser wastes all its votes, the
 * winner those beyond half the district's votes; a tie is half of each outcome (each wastes half
 * its votes). Null when no votes were cast.
 */
export function efficiencyGap(a: readonly number[], b: readonly number[]): number | null {
  let wastedA = 0;
  let wastedB = 0;
  let total = 0;
  a.forEach((va, d) => {
    const vb = b[d]!;
    const half = (va + vb) / 2;
    total += va + vb;
    if (va > vb) {
      wastedA += va - half;
      wastedB += vb;
    } else if (vb > va) {
      wastedB += vb - half;
      wastedA += va;
    } else {
      wastedA += va / 2;
      wastedB += vb / 2;
    }
  });
  return total === 0 ? null : (wastedB - wastedA) / total;
}

/**
 * Mean-median of party A's two-party share by district: median − mean, as GerryChain's
 * mean_median, so positive means A's median district does better than its average one (B is the
 * packed party). Districts without votes are left out; null when none has any.
 */
export function meanMedian(a: readonly number[], b: readonly number[]): number | null {
  const shares = a.flatMap((va, d) => (va + b[d]! > 0 ? [va / (va + b[d]!)] : [])).sort((x, y) => x - y);
  const n = shares.length;
  if (n === 0) return null;
  const median = n % 2 ? shares[(n - 1) / 2]! : (shares[n / 2 - 1]! + shares[n / 2]!) / 2;
  return median - shares.reduce((s, x) => s + x, 0) / n;
}
