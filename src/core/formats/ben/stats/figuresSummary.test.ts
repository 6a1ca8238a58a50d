import { describe, expect, it } from 'vitest';
import { FiguresSummary } from './figuresSummary.js';
import type { PlanStats } from './measure.js';

/**
 * Two plans of the 4-district example worked by hand in partisan.test.ts: A votes 70 60 20 45,
 * B votes 30 40 80 55 (efficiency gap +0.025, mean-median +0.0375, 2 seats each), and the same
 * plan with the parties' votes swapped (−0.025; shares 0.30 0.40 0.80 0.55: median 0.475, mean
 * 0.5125, mean-median −0.0375). Populations 98 102 100 100 (largest deviation 2 %), then 100 each.
 */
const names = ['P', 'A', 'B'];
const plan = (p: number[], a: number[], b: number[]): PlanStats => ({ cutEdges: 0, labels: [1, 2, 3, 4], sums: [p, a, b] });
const first = plan([98, 102, 100, 100], [70, 60, 20, 45], [30, 40, 80, 55]);
const swapped = plan([100, 100, 100, 100], [30, 40, 80, 55], [70, 60, 20, 45]);

describe('FiguresSummary', () => {
  it('distributions of the plan figures, and the reference plan placed among them', () => {
    const s = new FiguresSummary({ population: 'P', elections: [['A', 'B']] }, names, first);
    s.add(first, 3);
    s.add(swapped);
    const { figures, reference } = s.result() as { figures: any; reference: any };
    expect(figures.population_deviation).toMatchObject({ n: 4, min: 0, max: 0.02 });
    expect(figures.population_deviation.mean).toBeCloseTo(0.015, 12);
    const [e] = figures.elections;
    expect(e.votes).toEqual(['A', 'B']);
    expect(e.seats[0]).toMatchObject({ n: 4, min: 2, max: 2 });
    expect(e.efficiency_gap.min).toBeCloseTo(-0.025, 12);
    expect(e.efficiency_gap.mean).toBeCloseTo((3 * 0.025 - 0.025) / 4, 12);
    expect(e.mean_median.min).toBeCloseTo(-0.0375, 12);
    // the reference (the first plan): its gap has one plan below and three equal → 100·(1 + 3/2)/4
    expect(reference.elections[0].efficiency_gap).toMatchObject({ below: 1, equal: 3, percentile: 62.5 });
    expect(reference.population_deviation).toMatchObject({ value: 0.02, below: 1, equal: 3 });
  });

  it('three parties: seats only, no two-party figures; no population: no deviation', () => {
    const s = new FiguresSummary({ elections: [['P', 'A', 'B']] }, names);
    s.add(first);
    const { figures } = s.result() as { figures: any };
    expect(figures.population_deviation).toBeUndefined();
    // P (98, 102, 100, 100) outpolls A (70, 60, 20, 45) and B (30, 40, 80, 55) in every district
    expect(figures.elections[0].seats.map((d: { max: number }) => d.max)).toEqual([4, 0, 0]);
    expect(figures.elections[0].efficiency_gap).toBeNull();
  });
});
