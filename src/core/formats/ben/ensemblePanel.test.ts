import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, readFixture, readJson } from '../../../../test/helpers/fixtures.js';
import { naiveFigures, naiveGraph, naiveQuantile } from '../../../../test/helpers/naiveStats.js';
import { MemorySource } from '../../io/byteSource.js';
import type { FormatDocument, PanelHost, Progress } from '../../model.js';
import type { EnsemblePanelData } from '../../views.js';
import { benHandler } from './handler.js';
import { MemorySink } from './testing.js';

/**
 * The Ensemble panel over the 48 plans of grid4x4_chain, its 4×4 grid with votes added as in the
 * districts tests (node i: G20PRESD = 10 + i, G20PRESR = 25 − i) and an enacted-plan column CD
 * (the rows of the grid as districts). Expected values come from test/helpers/naiveStats.ts over
 * the ground-truth JSONL, not from the pass.
 */
type Node = Record<string, unknown>;
const grid = readJson<{ nodes: Node[]; links: { source: unknown; target: unknown }[] }>('ben/grid4x4_graph.json');
const nodes: Node[] = grid.nodes.map((n, i) => ({ ...n, G20PRESD: 10 + i, G20PRESR: 25 - i, CD: Math.floor(i / 4) + 1 }));
const graph = JSON.stringify({ ...grid, nodes });
const TRUTH = readFileSync(fixture('ben/grid4x4_chain.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => (JSON.parse(l) as { assignment: number[] }).assignment);
const g = naiveGraph({ ...grid, nodes });
const naive = TRUTH.map((a) => naiveFigures(g, a, 'TOTPOP', 'G20PRESD', 'G20PRESR'));

const open = (bytes: Uint8Array, name: string) => benHandler.open(new MemorySource(bytes), { name });

async function bundleWithGraph(): Promise<FormatDocument> {
  const ben = await open(readFixture('ben/grid4x4_chain.mkv_chain.ben'), 'x.ben');
  const sink = new MemorySink();
  const files = { openPath: async () => new MemorySource(new TextEncoder().encode(graph)) };
  await ben.converters.find((c) => c.id === 'bendl')!.run({ file: async () => sink }, files, { graph: 'G.json' });
  return open(sink.bytes(), 'x.bendl');
}

/** A host with a cache in a Map and the files of `texts`. */
function host(cache: Map<string, Uint8Array>, texts: Record<string, string> = {}, progress: Progress[] = []): PanelHost {
  return {
    openPath: async (path) => new MemorySource(new TextEncoder().encode(texts[path] ?? '')),
    progress: (p) => progress.push(p),
    cache: { load: async (k) => cache.get(k), save: async (k, b) => void cache.set(k, b) },
  };
}

const panel = (doc: FormatDocument) => doc.panels!.find((p) => p.id === 'ensemble')!;
const placed = (values: number[], v: number) => (100 * (values.filter((x) => x < v).length + values.filter((x) => x === v).length / 2)) / values.length;

describe('the ensemble panel', () => {
  it('measures nothing until asked; then every plan, with the reference marked at its directly counted percentile', async () => {
    const cache = new Map<string, Uint8Array>();
    const p = panel(await bundleWithGraph());
    const ready = (await p.data({}, undefined, host(cache))) as EnsemblePanelData;
    expect(ready).toMatchObject({ state: 'ready', histograms: [], boxes: [] });
    expect(ready.attributes).toEqual(['TOTPOP', 'x', 'y', 'G20PRESD', 'G20PRESR', 'CD']);

    const d = (await p.data({ run: 1, reference: 'sample:10' }, undefined, host(cache))) as EnsemblePanelData;
    expect(d.state).toBe('done');
    expect(d.samples).toBe(48);
    expect(d.cached).toBe(false);
    expect(d.caption).toBe('graph: graph.json in the bundle, 16 nodes; population TOTPOP, G20PRESD/G20PRESR (as the Districts tab chooses); 48 plans');
    expect(d.reference).toEqual({ name: 'sample 10', problem: undefined });
    const cut = d.histograms.find((h) => h.id === 'cut_edges')!;
    const cuts = naive.map((f) => f.cut);
    expect(cut).toMatchObject({ n: 48, min: Math.min(...cuts), max: Math.max(...cuts), median: naiveQuantile(cuts, 0.5) });
    // a bar per integer: each holds the plans with that many cut edges
    for (const b of cut.bins) expect(b.count).toBe(cuts.filter((c) => c === b.from + 0.5).length);
    expect(cut.mark).toEqual({ value: cuts[9], percentile: placed(cuts, cuts[9]!) });
    const gaps = naive.map((f) => f.gap);
    expect(d.histograms.find((h) => h.id === 'e0.efficiency_gap')!.mark!.percentile).toBe(placed(gaps, gaps[9]!));
    const dev = naive.map((f) => f.maxDeviation);
    expect(d.histograms.find((h) => h.id === 'population_deviation')!.mark!.percentile).toBe(placed(dev, naive[9]!.maxDeviation));
    // the box plots: rank k is the k-th smallest D share of each plan
    const shares = naive.map((f) => f.dem.map((v, k) => v / (v + f.rep[k]!)).sort((a, b) => a - b));
    const box = d.boxes[0]!;
    expect(box.ranks).toHaveLength(4);
    box.ranks.forEach((r, k) => {
      const v = shares.map((s) => s[k]!);
      expect(r).toMatchObject({
        rank: k + 1,
        n: 48,
        min: Math.min(...v),
        max: Math.max(...v),
        median: naiveQuantile(v, 0.5),
        q25: naiveQuantile(v, 0.25),
        q75: naiveQuantile(v, 0.75),
      });
      expect(r.mark).toEqual({ value: shares[9]![k], percentile: placed(v, shares[9]![k]!) });
    });
    // the exports: a CSV row per statistic and rank, the cut edges row as counted
    const csv = d.exports!.csv.trimEnd().split('\n');
    expect(csv[0]).toBe('statistic,title,rank,n,min,mean,max,q0.05,q0.25,q0.5,q0.75,q0.95,exact,reference,reference_value,reference_percentile');
    expect(csv).toHaveLength(1 + d.histograms.length + 4);
    expect(csv[1]).toBe(
      [
        'cut_edges',
        'Cut edges',
        '',
        48,
        Math.min(...cuts),
        cuts.reduce((a, b) => a + b, 0) / 48,
        Math.max(...cuts),
        ...[0.05, 0.25, 0.5, 0.75, 0.95].map((q) => naiveQuantile(cuts, q)),
        true,
        'sample 10',
        cuts[9],
        placed(cuts, cuts[9]!),
      ].join(','),
    );
    const jsonl = d
      .exports!.jsonl.trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(jsonl[0]).toMatchObject({ statistic: 'cut_edges', n: 48, reference: { plan: 'sample 10', value: cuts[9] } });
  });

  it('a second open shows the plots from the cache at once; another attribute choice is another entry', async () => {
    const cache = new Map<string, Uint8Array>();
    const progress: Progress[] = [];
    const first = (await panel(await bundleWithGraph()).data({ run: 1 }, undefined, host(cache, {}, progress))) as EnsemblePanelData;
    expect(cache.size).toBe(1);
    const again = (await panel(await bundleWithGraph()).data({}, undefined, host(cache))) as EnsemblePanelData;
    expect(again.state).toBe('done');
    expect(again.cached).toBe(true);
    expect(again.histograms).toEqual(first.histograms);
    expect(again.boxes).toEqual(first.boxes);
    const other = (await panel(await bundleWithGraph()).data(
      { attributes: '{"population":"TOTPOP","elections":[]}' },
      undefined,
      host(cache),
    )) as EnsemblePanelData;
    expect(other.state).toBe('ready');
  });

  it('a request while the pass runs waits for it instead of offering a second one; a cancelled pass lets the next request run its own', async () => {
    const cache = new Map<string, Uint8Array>();
    const p = panel(await bundleWithGraph());
    const running = p.data({ run: 1 }, undefined, host(cache));
    const meanwhile = (await p.data({}, undefined, host(cache))) as EnsemblePanelData;
    expect(meanwhile.state).toBe('done');
    expect(((await running) as EnsemblePanelData).histograms).toEqual(meanwhile.histograms);

    const q = panel(await bundleWithGraph());
    const stop = new AbortController();
    const cancelled = q.data({ run: 1 }, stop.signal, host(new Map()));
    stop.abort();
    const next = (await q.data({ run: 1 }, undefined, host(new Map()))) as EnsemblePanelData;
    await expect(cancelled).rejects.toThrow(/cancel/);
    expect(next.state).toBe('done');
    expect(next.samples).toBe(48);
  });

  it('a reference from a node attribute or a CSV file places as the same plan from the ensemble; a bad one says why', async () => {
    const cache = new Map<string, Uint8Array>();
    const p = panel(await bundleWithGraph());
    // The CD column (rows as districts) and a CSV of the same plan by node id.
    const csv = `node,district\n${nodes.map((n) => `${n.id as number},${n.CD}`).join('\n')}\n`;
    const files = { '/w/enacted.csv': csv, '/w/bad.csv': '0,1\n' };
    const byAttr = (await p.data({ run: 1, reference: 'attribute:CD' }, undefined, host(cache, files))) as EnsemblePanelData;
    const byFile = (await p.data({ reference: 'file', referenceFile: '/w/enacted.csv' }, undefined, host(cache, files))) as EnsemblePanelData;
    const rows = naiveFigures(
      g,
      nodes.map((n) => n.CD as number),
      'TOTPOP',
      'G20PRESD',
      'G20PRESR',
    );
    const cuts = naive.map((f) => f.cut);
    expect(byAttr.histograms[0]!.mark).toEqual({ value: rows.cut, percentile: placed(cuts, rows.cut) });
    expect(byFile.reference).toEqual({ name: 'enacted.csv', problem: undefined });
    expect(byFile.histograms).toEqual(byAttr.histograms);
    const bad = (await p.data({ reference: 'file', referenceFile: '/w/bad.csv' }, undefined, host(cache, files))) as EnsemblePanelData;
    expect(bad.reference!.problem).toMatch(/has no district/);
    expect(bad.histograms[0]!.mark).toBeUndefined();
    const none = (await p.data({ reference: 'sample:49' }, undefined, host(cache, files))) as EnsemblePanelData;
    expect(none.reference!.problem).toMatch(/no sample 49/);
  });

  it('a plain stream without a graph offers the pick; a cancelled pass ends as cancelled', async () => {
    const plain = panel(await open(readFixture('ben/grid4x4_chain.mkv_chain.ben'), 'x.ben'));
    const d = (await plain.data({ run: 1 }, undefined, host(new Map()))) as EnsemblePanelData;
    expect(d).toMatchObject({ pickGraph: true, state: 'ready' });
    expect(d.missing).toMatch(/No graph/);
    const stop = new AbortController();
    stop.abort();
    await expect(panel(await bundleWithGraph()).data({ run: 1 }, stop.signal, host(new Map()))).rejects.toThrow(/cancel/);
  });
});
