import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, readFixture, readJson } from '../../../../../test/helpers/fixtures.js';
import { naiveGraph, naiveLines, naiveQuantile } from '../../../../../test/helpers/naiveStats.js';
import { MemorySource } from '../../../io/byteSource.js';
import { openDocument } from '../../../open.js';
import { MemorySink } from '../testing.js';
import { parseStatsGraph } from './graph.js';
import { RunBuffer } from '../plan.js';
import { type StatsRequest, runStats } from './run.js';
import { type PlanEnsemble, planEnsembleOf } from './source.js';

const GRAPH = 'ben/grid4x4_graph.json';
const TRUTH = readFileSync(fixture('ben/grid4x4_chain.jsonl'), 'utf8');
const ATTRS = ['TOTPOP', 'x', 'y'];
const naive = naiveLines(naiveGraph(readJson(GRAPH)), TRUTH, ATTRS);

async function ensembleOf(file: string): Promise<PlanEnsemble> {
  const outcome = await openDocument(new MemorySource(readFixture(file)), { name: file });
  if (outcome.kind !== 'opened') throw new Error(outcome.reason);
  return planEnsembleOf(outcome.doc)!;
}

async function stats(file: string, req: Partial<StatsRequest>): Promise<string> {
  const out = new MemorySink();
  const graph = parseStatsGraph(readFileSync(fixture(GRAPH), 'utf8'), ATTRS);
  await runStats(await ensembleOf(file), { graph, attributes: ATTRS, output: 'jsonl', ...req }, out);
  return out.text();
}

const lines = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('runStats over the 4×4 grid chain, against a naive computation from the ground-truth JSONL', () => {
  it.each(['standard.ben', 'mkv_chain.ben', 'standard.xben', 'mkv_chain.xben'])('grid4x4_chain.%s: every sample, in order', async (x) => {
    const got = lines(await stats(`ben/grid4x4_chain.${x}`, {}));
    expect(got).toHaveLength(48);
    expect(got).toEqual(naive);
  });

  it('--from and --count select the samples as cat does, keeping their numbers (inside a repeat run too)', async () => {
    expect(lines(await stats('ben/grid4x4_chain.mkv_chain.ben', { from: 20, count: 7 }))).toEqual(naive.slice(20, 27));
    expect(await stats('ben/grid4x4_chain.mkv_chain.ben', { count: 0 })).toBe('');
  });

  it('CSV: a header, then one row per sample and district', async () => {
    const rows = (await stats('ben/grid4x4_chain.standard.ben', { output: 'csv', count: 2 })).trimEnd().split('\n');
    const expected = naive.slice(0, 2).flatMap((l) => Object.entries(l.districts).map(([d, s]) => [l.sample, d, l.cut_edges, s.TOTPOP, s.x, s.y].join(',')));
    expect(rows).toEqual(['sample,district,cut_edges,TOTPOP,x,y', ...expected]);
  });

  it('the summary: exact min, mean, max and nearest-rank quantiles of cut edges and of each rank of district sums', async () => {
    const s = JSON.parse(await stats('ben/grid4x4_chain.mkv_chain.xben', { output: 'summary' }));
    const cuts = naive.map((l) => l.cut_edges);
    expect(s.samples).toBe(48);
    expect(s.cut_edges).toEqual({
      n: 48,
      min: Math.min(...cuts),
      max: Math.max(...cuts),
      mean: cuts.reduce((a, b) => a + b, 0) / 48,
      quantiles: Object.fromEntries([0.05, 0.25, 0.5, 0.75, 0.95].map((q) => [String(q), naiveQuantile(cuts, q)])),
      exact: true,
    });
    // rank k: the k-th smallest district population of each plan that has k districts
    const byRank = (k: number) =>
      naive
        .map(
          (l) =>
            Object.values(l.districts)
              .map((d) => d.TOTPOP!)
              .sort((a, b) => a - b)[k],
        )
        .filter((v) => v !== undefined) as number[];
    const ranks = Math.max(...naive.map((l) => Object.keys(l.districts).length));
    expect(s.sums.TOTPOP).toHaveLength(ranks);
    for (let k = 0; k < ranks; k++) {
      const v = byRank(k);
      expect(s.sums.TOTPOP[k]).toMatchObject({
        rank: k + 1,
        n: v.length,
        min: Math.min(...v),
        max: Math.max(...v),
        quantiles: { '0.5': naiveQuantile(v, 0.5) },
      });
    }
  });

  it('places a reference plan: the plans below and equal, and the mid-rank percentile', async () => {
    const ref = naive[9]!; // sample 10
    const s = JSON.parse(await stats('ben/grid4x4_chain.mkv_chain.ben', { output: 'summary', reference: { sample: 10 } }));
    const cuts = naive.map((l) => l.cut_edges);
    const below = cuts.filter((c) => c < ref.cut_edges).length;
    const equal = cuts.filter((c) => c === ref.cut_edges).length;
    expect(s.reference.plan).toBe('sample 10');
    expect(s.reference.cut_edges).toEqual({ value: ref.cut_edges, below, equal, percentile: (100 * (below + equal / 2)) / 48 });
    // the same plan given as an assignment places the same
    const assignment = (JSON.parse(TRUTH.split('\n')[9]!) as { assignment: number[] }).assignment;
    const t = JSON.parse(
      await stats('ben/grid4x4_chain.mkv_chain.ben', { output: 'summary', reference: { name: 'enacted', plan: new RunBuffer().fromAssignment(assignment) } }),
    );
    expect(t.reference.cut_edges).toEqual(s.reference.cut_edges);
    expect(t.reference.sums).toEqual(s.reference.sums);
    const smallest = Math.min(...Object.values(ref.districts).map((d) => d.TOTPOP!));
    const rank1 = naive.map((l) => Math.min(...Object.values(l.districts).map((d) => d.TOTPOP!)));
    expect(s.reference.sums.TOTPOP[0]).toMatchObject({
      rank: 1,
      value: smallest,
      below: rank1.filter((v) => v < smallest).length,
      equal: rank1.filter((v) => v === smallest).length,
    });
  });

  it('a damaged stream: the samples before the damage, then the decoder error; none measured from it', async () => {
    const out = new MemorySink();
    const graph = parseStatsGraph(readFileSync(fixture(GRAPH), 'utf8'), ATTRS);
    await expect(runStats(await ensembleOf('ben/negative/trunc_midframe.standard.ben'), { graph, attributes: ATTRS, output: 'jsonl' }, out)).rejects.toThrow(
      /offset \d+/,
    );
    expect(lines(out.text())).toEqual(naive.slice(0, 47));
  });
});
