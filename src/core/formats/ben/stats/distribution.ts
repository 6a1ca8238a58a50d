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

/** One bar of a histogram: the values in [from, to) (the last bin includes `to`), and how many plans. */
export interface Bin {
  readonly from: number;
  readonly to: number;
  readonly count: number;
}

/**
 * A distribution as plain JSON, for a cache: the exact counts as [value, count] pairs, or the
 * sketch's buckets; restoring it gives the same summary, histogram and placements.
 */
export interface DistributionJson {
  readonly n: number;
  readonly total: number;
  /** Null while empty (JSON has no infinities). */
  readonly min: number | null;
  readonly max: number | null;
  readonly exact?: readonly (readonly [number, number])[];
  readonly sketch?: {
    readonly positive: readonly (readonly [number, number])[];
    readonly negative: readonly (readonly [number, number])[];
    readonly zeros: number;
  };
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
    return {
      n: this.n,
      min: none ? null : this.min,
      mean: none ? null : this.total / this.n,
      max: none ? null : this.max,
      quantiles,
      exact: this.exact !== undefined,
    };
  }

  /**
   * Counts in at most `maxBins` bins of equal width from min to max. Integer values spanning fewer
   * than `maxBins` integers get a bin per integer (seats, cut edges), so no bar mixes two values.
   * From the sketch each bucket's count falls in the bin of its representative value, so a bar
   * may hold values up to ALPHA (relative) outside its edges.
   */
  histogram(maxBins = 30): Bin[] {
    if (this.n === 0) return [];
    const { min, max } = this;
    const integers = this.exact !== undefined && [...this.exact.keys()].every(Number.isInteger);
    const bins = integers && max - min + 1 <= maxBins ? max - min + 1 : min === max ? 1 : maxBins;
    const width = integers && bins === max - min + 1 ? 1 : (max - min) / bins || 1;
    const from = integers && width === 1 ? min - 0.5 : min;
    const counts = new Array<number>(bins).fill(0);
    const edge = (i: number) => from + i * width;
    for (const [v, c] of this.entries()) {
      let i = Math.min(bins - 1, Math.max(0, Math.floor((v - from) / width)));
      // The division may round across an edge: the edges as reported decide.
      while (i > 0 && v < edge(i)) i--;
      while (i < bins - 1 && v >= edge(i + 1)) i++;
      counts[i]! += c;
    }
    // The last edge as computed may round below max: the last bar ends at max at least.
    return counts.map((count, i) => ({ from: edge(i), to: i === bins - 1 ? Math.max(edge(bins), max) : edge(i + 1), count }));
  }

  /**
   * Where `value` falls: as Placer counts it (summary.ts), exactly while the counts are exact; from
   * the sketch, the plans in buckets wholly below the value's bucket are below and that bucket's
   * plans count as equal, so the percentile is within one bucket (ALPHA relative) of the truth.
   */
  place(value: number): { below: number; equal: number; percentile: number | null } {
    let below = 0;
    let equal = 0;
    if (this.exact) {
      for (const [v, c] of this.exact) {
        if (v < value) below += c;
        else if (v === value) equal += c;
      }
    } else {
      const at = this.sketch!.bucketOf(value);
      for (const [v, c] of this.sketch!.entries()) {
        const b = this.sketch!.bucketOf(v);
        if (b.sign < at.sign || (b.sign === at.sign && (b.sign > 0 ? b.index < at.index : b.sign < 0 ? b.index > at.index : false))) below += c;
        else if (b.sign === at.sign && b.index === at.index) equal += c;
      }
    }
    return { below, equal, percentile: this.n === 0 ? null : (100 * (below + equal / 2)) / this.n };
  }

  /** The (value, count) pairs: exact values, or each sketch bucket at its representative value. */
  private entries(): Iterable<readonly [number, number]> {
    return this.exact ?? this.sketch!.entries();
  }

  toJSON(): DistributionJson {
    const none = this.n === 0;
    return {
      n: this.n,
      total: this.total,
      min: none ? null : this.min,
      max: none ? null : this.max,
      ...(this.exact ? { exact: [...this.exact] } : { sketch: this.sketch!.toJSON() }),
    };
  }

  static fromJSON(j: DistributionJson): Distribution {
    const d = new Distribution();
    d.n = j.n;
    d.total = j.total;
    d.min = j.min ?? Number.POSITIVE_INFINITY;
    d.max = j.max ?? Number.NEGATIVE_INFINITY;
    if (j.exact) d.exact = new Map(j.exact.map(([v, c]) => [v, c]));
    else {
      d.exact = undefined;
      d.sketch = LogSketch.fromJSON(j.sketch!);
    }
    return d;
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

/** The value a bucket stands for: within ALPHA of every value in (γ^(i−1), γ^i]. */
const representative = (i: number) => (2 * GAMMA ** i) / (GAMMA + 1);

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

  /** The bucket a value falls in: its sign (−1, 0, 1) and index. */
  bucketOf(v: number): { sign: number; index: number } {
    return v === 0 ? { sign: 0, index: 0 } : { sign: Math.sign(v), index: Math.ceil(Math.log(Math.abs(v)) / LOG_GAMMA) };
  }

  /** Each bucket's count at its representative value, the value atRank answers for it. */
  *entries(): Generator<readonly [number, number]> {
    for (const [i, c] of this.negative) yield [-representative(i), c];
    if (this.zeros) yield [0, this.zeros];
    for (const [i, c] of this.positive) yield [representative(i), c];
  }

  toJSON(): NonNullable<DistributionJson['sketch']> {
    return { positive: [...this.positive], negative: [...this.negative], zeros: this.zeros };
  }

  static fromJSON(j: NonNullable<DistributionJson['sketch']>): LogSketch {
    const s = new LogSketch();
    for (const [i, c] of j.positive) s.positive.set(i, c);
    for (const [i, c] of j.negative) s.negative.set(i, c);
    s.zeros = j.zeros;
    return s;
  }

  /** The value of the given 1-based rank, within ALPHA relative error. */
  atRank(rank: number): number {
    const value = representative;
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
