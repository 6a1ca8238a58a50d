import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { naiveFigures, naiveQuantile, type NaiveGraph } from '../../../../../test/helpers/naiveStats.js';
import { MemorySource } from '../../../io/byteSource.js';
import { openDocument } from '../../../open.js';
import { jsonlSamples, writeStream } from '../pipeline.js';
import { MemorySink } from '../testing.js';
import { QUANTILES } from './distribution.js';
import { EnsembleFigures, collectFigures, figureSpecs } from './ensembleFigures.js';
import { parseStatsGraph } from './graph.js';
import { PlanMeasure } from './measure.js';
import { planEnsembleOf } from './source.js';

/** A w×h grid graph (NetworkX adjacency JSON) with random integer population and votes per node. */
function grid(w: number, h: number, pop: number[], d: number[], r: number[]) {
  const id = (x: number, y: number) => y * w + x;
  const nodes = pop.map((p, i) => ({ id: i, TOTPOP: p, G20PRESD: d[i]!, G20PRESR: r[i]! }));
  const adjacency = nodes.map((_, i) => {
    const x = i % w;
    const y = Math.floor(i / w);
    return [
      [x - 1, y],
      [x + 1, y],
      [x, y - 1],
      [x, y + 1],
    ]
      .filter(([a, b]) => a! >= 0 && a! < w && b! >= 0 && b! < h)
      .map(([a, b]) => ({ id: id(a!, b!) }));
  });
  return { directed: false, multigraph: false, graph: [], nodes, adjacency };
}

const CHOICE = { population: 'TOTPOP', elections: [['G20PRESD', 'G20PRESR']] };
const NAMES = ['TOTPOP', 'G20PRESD', 'G20PRESR'];

const ensembleArb = fc.record({ w: fc.integer({ min: 2, max: 4 }), h: fc.integer({ min: 2, max: 4 }) }).chain(({ w, h }) =>
  fc.record({
    w: fc.constant(w),
    h: fc.constant(h),
    pop: fc.array(fc.integer({ min: 1, max: 500 }), { minLength: w * h, maxLength: w * h }),
    d: fc.array(fc.integer({ min: 0, max: 300 }), { minLength: w * h, maxLength: w * h }),
    r: fc.array(fc.integer({ min: 1, max: 300 }), { minLength: w * h, maxLength: w * h }),
    // each plan repeated 1–3 times (a chain that stays), districts 1..3; every district keeps a node
    plans: fc.array(fc.tuple(fc.array(fc.integer({ min: 1, max: 3 }), { minLength: w * h, maxLength: w * h }), fc.integer({ min: 1, max: 3 })), {
      minLength: 1,
      maxLength: 12,
    }),
  }),
);

/** The ensemble as a BEN stream (MkvChain: repeats become frame counts), opened as a document, and its JSONL. */
async function benOf(plans: readonly (readonly [number[], number])[]) {
  const jsonl = plans
    .flatMap(([a, times]) => Array.from({ length: times }, () => a))
    .map((a, i) => JSON.stringify({ assignment: a, sample: i + 1 }))
    .join('\n');
  const sink = new MemorySink();
  await writeStream(jsonlSamples(new MemorySource(new TextEncoder().encode(`${jsonl}\n`))), sink, { format: 'ben', variant: 'mkv_chain' });
  const outcome = await openDocument(new MemorySource(sink.bytes()), { name: 'random.ben' });
  if (outcome.kind !== 'opened') throw new Error(outcome.reason);
  return { ensemble: planEnsembleOf(outcome.doc)!, jsonl };
}

/** The exact summary a list of values should give: nearest-rank quantiles, as distribution.ts defines them. */
function expected(values: number[]) {
  return {
    n: values.length,
    min: Math.min(...values),
    max: Math.max(...values),
    quantiles: Object.fromEntries(QUANTILES.map((q) => [String(q), naiveQuantile(values, q)])),
  };
}

describe("collectFigures: the Ensemble view's pass against a direct computation from the JSONL", () => {
  it("random ensembles on grid graphs: every figure's distribution, each share rank, histograms and placements", async () => {
    await fc.assert(
      fc.asyncProperty(ensembleArb, async ({ w, h, pop, d, r, plans }) => {
        const json = grid(w, h, pop, d, r);
        const { ensemble, jsonl } = await benOf(plans);
        const measure = new PlanMeasure(parseStatsGraph(JSON.stringify(json), NAMES));
        const got = await collectFigures(ensemble.samples({}, 0), measure, NAMES, CHOICE);

        // Direct: each JSONL line's plan, figured node by node (test/helpers/naiveStats.ts).
        const naiveGraph: NaiveGraph = { nodes: json.nodes, edges: json.adjacency.flatMap((nbs, i) => nbs.map((nb) => [i, nb.id] as const)) };
        const lines = jsonl.split('\n').map((l) => JSON.parse(l) as { assignment: number[] });
        const figs = lines.map((l) => naiveFigures(naiveGraph, l.assignment, 'TOTPOP', 'G20PRESD', 'G20PRESR'));
        expect(got.samples).toBe(lines.length);
        const voted = figs; // every node has an R vote, so every district has votes
        const cases: [string, number[]][] = [
          ['cut_edges', figs.map((f) => f.cut)],
          ['population_deviation', figs.map((f) => f.maxDeviation)],
          ['e0.seats.0', figs.map((f) => f.seatsD)],
          ['e0.efficiency_gap', voted.map((f) => f.gap)],
          ['e0.mean_median', voted.map((f) => f.meanMedian)],
        ];
        for (const [id, values] of cases) {
          const dist = got.scalars.get(id);
          if (values.length === 0) {
            expect(dist).toBeUndefined();
            continue;
          }
          const s = dist!.summary();
          expect({ n: s.n, min: s.min, max: s.max, quantiles: s.quantiles }, id).toEqual(expected(values));
          expect(s.mean!).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 9);
          // every plan in exactly one bar, and each bar holds the values between its edges
          const bins = dist!.histogram(30);
          expect(bins.reduce((a, b) => a + b.count, 0)).toBe(values.length);
          for (const b of bins)
            expect(b.count, `${id} bin ${b.from}..${b.to}`).toBe(values.filter((v) => v >= b.from && (v < b.to || (b === bins.at(-1) && v <= b.to))).length);
          // the first plan as reference: plans below and equal, counted directly
          const ref = values[0]!;
          expect(dist!.place(ref)).toEqual({
            below: values.filter((v) => v < ref).length,
            equal: values.filter((v) => v === ref).length,
            percentile: (100 * (values.filter((v) => v < ref).length + values.filter((v) => v === ref).length / 2)) / values.length,
          });
        }
        // Rank k: the k-th smallest D share of each plan that has k districts with votes.
        const shares = figs.map((f) => f.dem.flatMap((v, k) => (v + f.rep[k]! > 0 ? [v / (v + f.rep[k]!)] : [])).sort((a, b) => a - b));
        const ranks = got.ranks.get('e0.shares') ?? [];
        expect(ranks.length).toBe(Math.max(0, ...shares.map((s) => s.length)));
        ranks.forEach((dist, k) => {
          const values = shares.flatMap((s) => (k < s.length ? [s[k]!] : []));
          const s = dist.summary();
          expect({ n: s.n, min: s.min, max: s.max, quantiles: s.quantiles }, `rank ${k + 1}`).toEqual(expected(values));
        });
        // The cache's JSON gives back the same distributions.
        const back = EnsembleFigures.fromJSON(JSON.parse(JSON.stringify(got.toJSON())));
        for (const [id, dist] of got.scalars) expect(back.scalars.get(id)!.summary()).toEqual(dist.summary());
        for (const [id, list] of got.ranks) expect(back.ranks.get(id)!.map((x) => x.summary())).toEqual(list.map((x) => x.summary()));
      }),
      { numRuns: 40 },
    );
  });

  it('figureSpecs: one seats plot for two parties, one per party for three, two-party figures only for two', () => {
    const two = figureSpecs(CHOICE);
    expect(two.scalars.map((s) => s.id)).toEqual(['cut_edges', 'population_deviation', 'e0.seats.0', 'e0.efficiency_gap', 'e0.mean_median']);
    expect(two.ranks.map((s) => s.title)).toEqual(['G20PRES: D vote share by district, sorted']);
    const three = figureSpecs({ elections: [['AD', 'AR', 'AL']] });
    expect(three.scalars.map((s) => s.id)).toEqual(['cut_edges', 'e0.seats.0', 'e0.seats.1', 'e0.seats.2']);
  });

  it('a cancelled pass stops with a cancel, not with figures', async () => {
    const { ensemble } = await benOf([[[1, 1, 2, 2], 3]]);
    const measure = new PlanMeasure(parseStatsGraph(JSON.stringify(grid(2, 2, [1, 1, 1, 1], [1, 1, 1, 1], [0, 0, 0, 0])), NAMES));
    const stop = new AbortController();
    stop.abort();
    await expect(collectFigures(ensemble.samples({ signal: stop.signal }, 0), measure, NAMES, CHOICE, { signal: stop.signal })).rejects.toThrow(/cancel/);
  });
});
