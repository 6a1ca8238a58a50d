import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binlens } from '../helpers/cli.js';
import { fixture, readJson } from '../helpers/fixtures.js';
import { naiveFigures, naiveGraph, naiveLines, naiveQuantile } from '../helpers/naiveStats.js';
import { scratchDir } from '../helpers/scratch.js';

const dir = scratchDir('stats-cli');

const GRAPH = fixture('ben/grid4x4_graph.json');
const CHAIN = fixture('ben/grid4x4_chain.mkv_chain.ben');
const TRUTH = readFileSync(fixture('ben/grid4x4_chain.jsonl'), 'utf8');
const naive = naiveLines(naiveGraph(readJson('ben/grid4x4_graph.json')), TRUTH, ['TOTPOP', 'y']);
const parsed = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));

/** The grid graph with a change, written to the temporary folder. */
function graphWith(name: string, change: (g: { nodes: Record<string, unknown>[]; links: { source: number; target: number }[] }) => void): string {
  const g = readJson('ben/grid4x4_graph.json');
  change(g);
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(g));
  return path;
}

describe('binlens stats', () => {
  it('prints one JSONL line per sample: district sums and cut edges as a naive count over the ground truth gives them (exit 0)', async () => {
    const r = await binlens('stats', CHAIN, '--graph', GRAPH, '--sum', 'TOTPOP', '--sum', 'y');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(parsed(r.stdout)).toEqual(naive);
    expect(r.stdout.split('\n')[0]).toBe(
      '{"sample":1,"cut_edges":12,"districts":{"1":{"TOTPOP":424,"y":6},"2":{"TOTPOP":428,"y":6},"3":{"TOTPOP":432,"y":6},"4":{"TOTPOP":436,"y":6}}}',
    );
  });

  it('reads the graph a bundle carries, without --graph', async () => {
    const bundle = join(dir, 'chain.bendl');
    expect((await binlens('convert', fixture('ben/grid4x4_chain.standard.xben'), bundle, '--to', 'bendl', '--set', `graph=${GRAPH}`)).code).toBe(0);
    const r = await binlens('stats', bundle, '--sum', 'TOTPOP', '--sum', 'y', '--from', '40');
    expect(r.code).toBe(0);
    expect(parsed(r.stdout)).toEqual(naive.slice(40));
  });

  it('--format csv, --summary and --reference print their forms', async () => {
    const csv = await binlens('stats', CHAIN, '--graph', GRAPH, '--sum', 'TOTPOP', '--format', 'csv', '--count', '1');
    expect(csv.stdout).toBe('sample,district,cut_edges,TOTPOP\n1,1,12,424\n1,2,12,428\n1,3,12,432\n1,4,12,436\n');
    const plan = join(dir, 'enacted.json');
    writeFileSync(plan, JSON.stringify([1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2]));
    const s = await binlens('stats', CHAIN, '--graph', GRAPH, '--sum', 'TOTPOP', '--reference', plan);
    expect(s.code).toBe(0);
    const summary = JSON.parse(s.stdout);
    // two halves of the grid: the 4 vertical edges between rows 2 and 3 are cut, fewer than any sample's
    expect(summary.reference).toMatchObject({ plan, districts: 2, cut_edges: { value: 4, below: 0, equal: 0, percentile: 0 } });
    expect(summary.samples).toBe(48);
  });

  it('--summary with --population and --election: the distributions of the figures and the place of the reference, as a direct computation over the ground truth gives them', async () => {
    // The grid with votes: node i casts DEMV = 30 + (7i mod 41) and REPV = 25 + (11i mod 37).
    const path = graphWith('votes.json', (g) => g.nodes.forEach((n, i) => Object.assign(n, { DEMV: 30 + ((7 * i) % 41), REPV: 25 + ((11 * i) % 37) })));
    const g = naiveGraph(JSON.parse(readFileSync(path, 'utf8')));
    const plans = TRUTH.split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { assignment: number[] }).assignment);
    const each = plans.map((a) => naiveFigures(g, a, 'TOTPOP', 'DEMV', 'REPV'));
    const r = await binlens(
      'stats',
      CHAIN,
      '--graph',
      path,
      '--sum',
      'TOTPOP',
      '--summary',
      '--population',
      'TOTPOP',
      '--election',
      'DEMV,REPV',
      '--reference',
      '5',
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    // the sums printed are --sum's alone
    expect(Object.keys(s.sums)).toEqual(['TOTPOP']);
    const check = (got: { n: number; min: number; max: number; mean: number; quantiles: Record<string, number> }, values: number[]) => {
      expect(got.n).toBe(48);
      expect(got.min).toBeCloseTo(Math.min(...values), 12);
      expect(got.max).toBeCloseTo(Math.max(...values), 12);
      expect(got.mean).toBeCloseTo(values.reduce((x, y) => x + y, 0) / values.length, 12);
      expect(got.quantiles['0.5']).toBeCloseTo(naiveQuantile(values, 0.5), 12);
    };
    check(
      s.population_deviation,
      each.map((f) => f.maxDeviation),
    );
    const [e] = s.elections;
    expect(e.votes).toEqual(['DEMV', 'REPV']);
    check(
      e.seats[0],
      each.map((f) => f.seatsD),
    );
    check(
      e.seats[1],
      each.map((f) => f.labels.length - f.seatsD),
    );
    check(
      e.efficiency_gap,
      each.map((f) => f.gap),
    );
    check(
      e.mean_median,
      each.map((f) => f.meanMedian),
    );
    // sample 5's efficiency gap placed among all 48 (the sample itself is among them)
    const ref = each[4]!.gap;
    const near = (v: number) => Math.abs(v - ref) < 1e-12;
    expect(s.reference.elections[0].efficiency_gap).toMatchObject({
      below: each.filter((f) => f.gap < ref && !near(f.gap)).length,
      equal: each.filter((f) => near(f.gap)).length,
    });
    expect(s.reference.population_deviation.value).toBeCloseTo(each[4]!.maxDeviation, 12);
    // the per-sample lines take no figures
    const lines = await binlens('stats', CHAIN, '--graph', path, '--sum', 'TOTPOP', '--election', 'DEMV,REPV');
    expect(lines.code).toBe(2);
    expect(lines.stderr).toMatch(/--population and --election add figures to --summary/);
    const short = await binlens('stats', CHAIN, '--graph', path, '--sum', 'TOTPOP', '--summary', '--election', 'DEMV');
    expect(short.stderr).toMatch(/--election DEMV: name two or more vote attributes/);
    const missing = await binlens('stats', CHAIN, '--graph', path, '--sum', 'TOTPOP', '--summary', '--election', 'DEMV,NOPE');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/attribute "NOPE" is missing on node 0/);
  });

  it('exit 1 when the data is damaged: the lines before the damage, then the located error', async () => {
    const r = await binlens('stats', fixture('ben/negative/trunc_midframe.standard.ben'), '--graph', GRAPH, '--sum', 'TOTPOP', '--sum', 'y');
    expect(r.code).toBe(1);
    expect(parsed(r.stdout)).toEqual(naive.slice(0, 47));
    expect(r.stderr).toMatch(/damaged: .*offset \d+/);
    const s = await binlens('stats', fixture('ben/negative/trunc_midframe.standard.ben'), '--graph', GRAPH, '--sum', 'TOTPOP', '--summary');
    expect(s.code).toBe(1);
    expect(s.stdout).toBe('');
  });

  it.each([
    [
      'a graph with fewer nodes than the plans',
      () => [
        '--graph',
        graphWith('short.json', (g) => {
          g.nodes.pop();
          g.links = g.links.filter((l) => l.source !== 15 && l.target !== 15);
        }),
      ],
      /sample 1 assigns 16 nodes, the graph has 15/,
    ],
    ['a missing attribute', () => ['--graph', graphWith('noattr.json', (g) => delete g.nodes[3]!.TOTPOP)], /attribute "TOTPOP" is missing on node 3/],
    [
      'a non-numeric attribute',
      () => ['--graph', graphWith('text.json', (g) => (g.nodes[0]!.TOTPOP = 'many'))],
      /attribute "TOTPOP" is not a number \("many"\) on node 0/,
    ],
    [
      'an edge to no node',
      () => ['--graph', graphWith('edge.json', (g) => g.links.push({ source: 2, target: 99 }))],
      /links\[24\]\.target: 99 is no node's id/,
    ],
    ['a plain stream without --graph', () => [], /carries no graph: give one with --graph/],
    ['a reference past the last sample', () => ['--graph', GRAPH, '--reference', '49'], /sample 49: the ensemble holds fewer samples/],
  ])('exit 2, nothing written, for %s', async (_what, extra, message) => {
    const r = await binlens('stats', CHAIN, '--sum', 'TOTPOP', ...extra());
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
  });

  it.each([
    ['no --sum', ['--graph', GRAPH], /at least one --sum/],
    ['an attribute summed twice', ['--graph', GRAPH, '--sum', 'TOTPOP', '--sum', 'TOTPOP'], /--sum TOTPOP is given twice/],
    ['an unknown --format', ['--graph', GRAPH, '--sum', 'TOTPOP', '--format', 'tsv'], /stats prints jsonl or csv/],
    ['--summary with --format', ['--graph', GRAPH, '--sum', 'TOTPOP', '--summary', '--format', 'csv'], /--summary prints one JSON object/],
  ])('exit 2 (usage) for %s', async (_what, extra, message) => {
    const r = await binlens('stats', CHAIN, ...extra);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('exit 2 for a file that holds no plans and for one that does not exist', async () => {
    const fst = await binlens('stats', fixture('fst/tiny.map.fst3.fst'), '--graph', GRAPH, '--sum', 'TOTPOP');
    expect(fst.code).toBe(2);
    expect(fst.stderr).toMatch(/holds no district plans/);
    expect((await binlens('stats', join(dir, 'missing.ben'), '--graph', GRAPH, '--sum', 'TOTPOP')).code).toBe(2);
  });
});
