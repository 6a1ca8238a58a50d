import { describe, expect, it } from 'vitest';
import { naiveQuantile } from '../../../../../test/helpers/naiveStats.js';
import { ALPHA, Distribution, EXACT_LIMIT, QUANTILES } from './distribution.js';

/** A deterministic spread of values (xorshift32), so a failure reproduces; a quarter negative. */
function values(n: number, scale: number, seed = 7): number[] {
  const out: number[] = [];
  let s = seed;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out.push(Math.round(((s >>> 0) / 4294967296) * scale) - scale / 4);
  }
  return out;
}

describe('Distribution', () => {
  it('hand-checked: 1, 2, 2, 3, 10 with a repeat count', () => {
    const d = new Distribution();
    d.add(2, 2);
    for (const v of [10, 1, 3]) d.add(v);
    // nearest rank: ⌈0.05·5⌉ = 1 → 1; ⌈0.25·5⌉ = 2 → 2; ⌈0.5·5⌉ = 3 → 2; ⌈0.75·5⌉ = 4 → 3; ⌈0.95·5⌉ = 5 → 10
    expect(d.summary()).toEqual({ n: 5, min: 1, mean: 3.6, max: 10, quantiles: { '0.05': 1, '0.25': 2, '0.5': 2, '0.75': 3, '0.95': 10 }, exact: true });
  });

  it('is exact while the values are few, then within ALPHA relative error of the true quantiles', () => {
    const few = values(20000, 2000);
    const d = new Distribution();
    for (const v of few) d.add(v);
    expect(d.summary().exact).toBe(true);
    for (const q of QUANTILES) expect(d.summary().quantiles[String(q)]).toBe(naiveQuantile(few, q));

    const many = values(50000, 10_000_000, 11);
    expect(new Set(many).size).toBeGreaterThan(EXACT_LIMIT);
    const e = new Distribution();
    for (const v of many) e.add(v);
    const s = e.summary();
    expect(s.exact).toBe(false);
    expect(s.min).toBe(Math.min(...many));
    expect(s.max).toBe(Math.max(...many));
    for (const q of QUANTILES) {
      const truth = naiveQuantile(many, q);
      expect(Math.abs(s.quantiles[String(q)]! - truth)).toBeLessThanOrEqual(ALPHA * Math.abs(truth) + 1e-9);
    }
  });

  it('an empty distribution has no values to report', () => {
    expect(new Distribution().summary()).toMatchObject({ n: 0, min: null, mean: null, max: null, quantiles: { '0.5': null } });
  });

  it('histogram, hand-checked: a bar per integer over a short range; equal-width bars otherwise, the last one closed', () => {
    const d = new Distribution();
    d.add(2, 2);
    for (const v of [10, 1, 3]) d.add(v);
    // 1..10 is 10 integers: bars [0.5,1.5) … [9.5,10.5): 1 → 1, 2 → 2, 3 → 1, 10 → 1
    expect(d.histogram(30).map((b) => [b.from, b.count])).toEqual([
      [0.5, 1],
      [1.5, 2],
      [2.5, 1],
      [3.5, 0],
      [4.5, 0],
      [5.5, 0],
      [6.5, 0],
      [7.5, 0],
      [8.5, 0],
      [9.5, 1],
    ]);
    // 4 bars over 1..10, width 2.25: [1,3.25) holds 1, 2, 2, 3; [7.75,10] holds 10
    expect(d.histogram(4).map((b) => b.count)).toEqual([4, 0, 0, 1]);
    expect(d.histogram(4).at(-1)!.to).toBe(10);
    expect(new Distribution().histogram()).toEqual([]);
  });

  it('beyond the exact limit: placements within a bucket of the truth, histogram counts every value, JSON round trip', () => {
    const many = values(30000, 10_000_000, 5);
    const d = new Distribution();
    for (const v of many) d.add(v);
    expect(d.summary().exact).toBe(false);
    const bins = d.histogram(30);
    expect(bins.reduce((n, b) => n + b.count, 0)).toBe(many.length);
    for (const ref of [many[0]!, many[17]!, 0, Math.max(...many)]) {
      const truth = (100 * (many.filter((v) => v < ref).length + many.filter((v) => v === ref).length / 2)) / many.length;
      // the plans that share the reference's bucket (values within 2·ALPHA of it) are what the estimate may misplace
      const near = many.filter((v) => v !== ref && Math.abs(v - ref) <= 2 * ALPHA * Math.abs(ref) + 1).length;
      expect(Math.abs(d.place(ref).percentile! - truth)).toBeLessThanOrEqual((100 * near) / many.length / 2 + 1e-9);
    }
    const back = Distribution.fromJSON(JSON.parse(JSON.stringify(d.toJSON())));
    expect(back.summary()).toEqual(d.summary());
    expect(back.histogram(30)).toEqual(bins);
    expect(Distribution.fromJSON(JSON.parse(JSON.stringify(new Distribution().toJSON()))).summary().n).toBe(0);
  });
});
