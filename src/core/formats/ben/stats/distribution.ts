/**
 * One statistic over an ensemble (cut edges, or an attribute's k-th smallest district sum) in
 * memory that does not grow with the number of plans: min, max and mean exactly; quantiles from
 * exact counts while the values take at most EXACT_LIMIT distinct values (cut edges, and the sums
 * of a short chain, usually do), and from a log-bucket sketch after that (DDSketch, Masson et al.
 * 2019): every quantile within ALPHA relative error, one bucket per factor (1+α)/(1−α) of the
 * value range, so ≈ 115 buckets per decade whatever the number of plans.
 */
export const EXACT_LIMIT = 4096;
export const ALPHA = 0.01;
const GAMMA = (1 + ALPHA) / (1 - ALPHA);
const LOG_GAMMA = Math.log(GAMMA);

/** The quantiles the summary reports, besides min and max. */
export const QUANTILES = [0.05, 0.25, 0.5, 0.75, 0.95] as const;

export interface Summary {
  readonly n: number;
  readonly min: number | null;
  readonly mean: number | null;
  readonly max: number | null;
  /** q → value; the nearest-rank quantile: the smallest value v with at least ⌈q·n⌉ values ≤ v. */
  readonly quantiles: Record<string, number | null>;
  /** False once the sketch answers the quantiles (within ALPHA relative error). */
  readonly exact: boolean;
}

export class Distribution {
  private n = 0;
  private total = 0;
  private min = Number.POSITIVE_INFINITY;
  private max = Number.NEGATIVE_INFINITY;
  private exact: Map<number, number> | undefined = new Map();
  private sketch: LogSketch | undefined;

  add(v: number, times = 1): void {
    this.n += times;
    this.total += v * times;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
    if (this.exact) {
      this.exact.set(v, (this.exact.get(v) ?? 0) + times);
      if (this.exact.size > EXACT_LIMIT) {
        this.sketch = new LogSketch();
        for (const [x, c] of this.exact) this.sketch.add(x, c);
        this.exact = undefined;
      }
    } else {
      this.sketch!.add(v, times);
    }
  }

  summary(): Summary {
    const none = this.n === 0;
    const quantiles: Record<string, number | null> = {};
    const sorted = this.exact ? [...this.exact].sort((x, y) => x[0] - y[0]) : undefined;
    for (const q of QUANTILES) {
      const rank = Math.max(1, Math.ceil(q * this.n));
      // The sketch's estimate is clamped to the exact extremes it cannot know better than.
      quantiles[String(q)] = none ? null : sorted ? nearestRank(sorted, rank) : Math.min(this.max, Math.max(this.min, this.sketch!.atRank(rank)));
    }
    return { n: this.n, min: none ? null : this.min, mean: none ? null : this.total / this.n, max: none ? null : this.max, quantiles, exact: this.exact !== undefined };
  }
}

function nearestRank(sorted: readonly (readonly [number, number])[], rank: number): number {
  let seen = 0;
  for (const [v, c] of sorted) {
    seen += c;
    if (seen >= rank) return v;
  }
  return sorted[sorted.length - 1]![0];
}

/** DDSketch's buckets: index i holds values in (γ^(i−1), γ^i], negatives mirrored, zero apart. */
class LogSketch {
  private readonly positive = new Map<number, number>();
  private readonly negative = new Map<number, number>();
  private zeros = 0;

  add(v: number, times: number): void {
    if (v === 0) {
      this.zeros += times;
      return;
    }
    const store = v > 0 ? this.positive : this.negative;
    const i = Math.ceil(Math.log(Math.abs(v)) / LOG_GAMMA);
    store.set(i, (store.get(i) ?? 0) + times);
  }

  /** The value of the given 1-based rank, within ALPHA relative error. */
  atRank(rank: number): number {
    const value = (i: number) => (2 * GAMMA ** i) / (GAMMA + 1);
    let seen = 0;
    // Ascending: the most negative first (largest |v| among negatives), then zeros, then positives.
    for (const i of [...this.negative.keys()].sort((x, y) => y - x)) {
      seen += this.negative.get(i)!;
      if (seen >= rank) return -value(i);
    }
    seen += this.zeros;
    if (seen >= rank) return 0;
    let last = 0;
    for (const i of [...this.positive.keys()].sort((x, y) => x - y)) {
      seen += this.positive.get(i)!;
      last = value(i);
      if (seen >= rank) return last;
    }
    return last;
  }
}
