import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, readJson } from '../../../../../test/helpers/fixtures.js';
import { naiveFigures, naiveGraph } from '../../../../../test/helpers/naiveStats.js';
import { RunBuffer } from '../plan.js';
import { choiceAttributes } from './choice.js';
import { districtReport } from './districts.js';
import { parseStatsGraph } from './graph.js';
import { PlanMeasure } from './measure.js';

/**
 * The fixture's 4×4 grid carries TOTPOP only: votes are added here, node i getting
 * D = 30 + (7i mod 41) and R = 25 + (11i mod 37), and a three-party election with L = i.
 */
type Node = Record<string, number | string>;
const grid = readJson<{ nodes: Node[]; links: { source: number; target: number }[] }>('ben/grid4x4_graph.json');
const nodes: Node[] = grid.nodes.map((n, i) => ({ ...n, DEMV: 30 + ((7 * i) % 41), REPV: 25 + ((11 * i) % 37), LIBV: i }));
const graphText = JSON.stringify({ ...grid, nodes });
const samples = readFileSync(fixture('ben/grid4x4_chain.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => (JSON.parse(l) as { assignment: number[] }).assignment);

const choice = {
  population: 'TOTPOP',
  elections: [
    ['DEMV', 'REPV'],
    ['DEMV', 'REPV', 'LIBV'],
  ],
};
const attrs = choiceAttributes(choice);
const naive = naiveGraph({ ...grid, nodes });

describe('districtReport', () => {
  it('matches a direct computation from the fixture JSONL and graph, for every sample', () => {
    const measure = new PlanMeasure(parseStatsGraph(graphText, attrs));
    expect(samples).toHaveLength(48);
    for (const a of samples) {
      const r = districtReport(measure.measure(new RunBuffer().fromAssignment(a)), attrs, choice);
      const d = naiveFigures(naive, a, 'TOTPOP', 'DEMV', 'REPV');
      expect(r.rows.map((x) => x.label)).toEqual(d.labels);
      expect(r.rows.map((x) => x.population)).toEqual(d.population);
      r.rows.forEach((x, k) => expect(x.deviation).toBeCloseTo(d.deviation[k]!, 12));
      expect(r.maxDeviation).toBeCloseTo(d.maxDeviation, 12);
      expect(r.cutEdges).toBe(d.cut);
      expect(r.rows.map((x) => x.elections[0]!.votes)).toEqual(d.labels.map((_, k) => [d.dem[k], d.rep[k]]));
      const two = r.elections[0]!;
      expect(two.seats[0]).toBe(d.seatsD);
      expect(two.seats[0]! + two.seats[1]!).toBe(d.labels.length);
      expect(two.efficiencyGap).toBeCloseTo(d.gap, 12);
      expect(two.meanMedian).toBeCloseTo(d.meanMedian, 12);
      // three parties: no two-party figures, shares over all three
      expect(r.elections[1]!.efficiencyGap).toBeNull();
      for (const x of r.rows) expect(x.elections[1]!.shares.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
    }
  });

  it('sample 1, checked by hand: columns of the grid, 4 districts', () => {
    // sample 1 assigns column c of the grid to district c + 1: nodes c, c+4, c+8, c+12
    // TOTPOP = 100 + i: district 1 = 100+104+108+112 = 424, then 428, 432, 436; ideal 430
    const measure = new PlanMeasure(parseStatsGraph(graphText, attrs));
    const r = districtReport(measure.measure(new RunBuffer().fromAssignment(samples[0]!)), attrs, choice);
    expect(r.rows.map((x) => x.population)).toEqual([424, 428, 432, 436]);
    expect(r.idealPopulation).toBe(430);
    expect(r.maxDeviation).toBeCloseTo(6 / 430, 12);
    // 3 vertical cuts × 4 rows of horizontal edges
    expect(r.cutEdges).toBe(12);
    expect(r.elections[0]!.election.name).toBe('DEMV / REPV');
  });
});
