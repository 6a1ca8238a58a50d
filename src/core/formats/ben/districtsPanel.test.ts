import { describe, expect, it } from 'vitest';
import { readFixture, readJson } from '../../../../test/helpers/fixtures.js';
import { unitSquare } from '../../../../test/helpers/shapes.js';
import { MemorySource } from '../../io/byteSource.js';
import type { FormatDocument, TaskContext } from '../../model.js';
import type { DistrictsPanelData } from '../../views.js';
import { benHandler } from './handler.js';
import { MemorySink } from './testing.js';

/**
 * The fixture's 4×4 grid with votes added: node i gets G20PRESD = 10 + i and G20PRESR = 25 − i,
 * so the right-hand columns lean D. Sample 1 of grid4x4_chain assigns column c to district c + 1
 * (nodes c, c+4, c+8, c+12): by hand, district 1 has D 10+14+18+22 = 64, R 25+21+17+13 = 76;
 * district 2: D 68, R 72; district 3: D 72, R 68; district 4: D 76, R 64. Seats D 2, R 2.
 */
type Node = Record<string, unknown>;
const grid = readJson<{ nodes: Node[] }>('ben/grid4x4_graph.json');
const graph = JSON.stringify({ ...grid, nodes: grid.nodes.map((n, i) => ({ ...n, G20PRESD: 10 + i, G20PRESR: 25 - i })) });
const files = (texts: Record<string, string>): Pick<TaskContext, 'openPath'> => ({
  openPath: async (path) => {
    if (!(path in texts)) throw new Error(`ENOENT: ${path}`);
    return new MemorySource(new TextEncoder().encode(texts[path]));
  },
});

const open = (bytes: Uint8Array, name: string) => benHandler.open(new MemorySource(bytes), { name });
const districts = (doc: FormatDocument) => doc.panels!.find((p) => p.id === 'districts')!;

async function bundleWithGraph(): Promise<FormatDocument> {
  const ben = await open(readFixture('ben/grid4x4_chain.mkv_chain.ben'), 'x.ben');
  const sink = new MemorySink();
  await ben.converters.find((c) => c.id === 'bendl')!.run({ file: async () => sink }, files({ 'G.json': graph }), { graph: 'G.json' });
  return open(sink.bytes(), 'x.bendl');
}

describe('the districts panel', () => {
  it('a plain stream without a graph says so and offers the pick', async () => {
    const doc = await open(readFixture('ben/grid4x4_chain.mkv_chain.ben'), 'x.ben');
    const d = (await districts(doc).data({ sample: 1 })) as DistrictsPanelData;
    expect(d).toMatchObject({ kind: 'districts', pickGraph: true, rows: [] });
    expect(d.missing).toMatch(/No graph/);
    // the plan and ensemble views stay
    expect(doc.panels!.map((p) => p.id)).toEqual(expect.arrayContaining(['plan', 'flips', 'repeats']));
  });

  it('a bundle measures with its graph asset: guessed attributes, the hand-checked table of sample 1', async () => {
    const d = (await districts(await bundleWithGraph()).data({ sample: 1 })) as DistrictsPanelData;
    expect(d.missing).toBeUndefined();
    expect(d.pickGraph).toBe(false);
    expect(d.guessed).toBe(true);
    expect(d.attributes).toEqual(['TOTPOP', 'x', 'y', 'G20PRESD', 'G20PRESR']);
    expect(d.choice).toEqual({ population: 'TOTPOP', elections: [['G20PRESD', 'G20PRESR']] });
    expect(d.columns.map((c) => c.title)).toEqual(['District', 'TOTPOP', 'Deviation', 'G20PRES D', 'D share', 'G20PRES R', 'R share', 'G20PRES winner']);
    // TOTPOP = 100 + i: 424, 428, 432, 436 against the ideal 430
    expect(d.rows).toEqual([
      ['1', '424', '-1.40 %', '64', '45.71 %', '76', '54.29 %', 'R'],
      ['2', '428', '-0.47 %', '68', '48.57 %', '72', '51.43 %', 'R'],
      ['3', '432', '+0.47 %', '72', '51.43 %', '68', '48.57 %', 'D'],
      ['4', '436', '+1.40 %', '76', '54.29 %', '64', '45.71 %', 'D'],
    ]);
    const fig = Object.fromEntries(d.figures.map((f) => [f.name, f.value]));
    // 3 vertical cuts in each of 4 rows; a symmetric plan: no gap, median = mean
    expect(fig).toMatchObject({ 'Cut edges': '12', 'Ideal population': '430', 'Largest population deviation': '1.40 %', 'G20PRES: seats': 'D 2, R 2' });
    // wasted D = 64 + 68 + 2 + 6 = 140, wasted R = 6 + 2 + 68 + 64 = 140: the gap is 0
    expect(fig['G20PRES: efficiency gap']).toBe('0.00 %');
    expect(fig['G20PRES: mean-median']).toBe('0.00 %');
  });

  it('a choice from the user is used, what the graph lacks is named; a picked graph file is read through the host', async () => {
    const doc = await open(readFixture('ben/grid4x4_chain.mkv_chain.ben'), 'x.ben');
    const choice = JSON.stringify({
      population: 'x',
      elections: [
        ['G20PRESR', 'G20PRESD'],
        ['G20PRESD', 'NOPE'],
      ],
    });
    const d = (await districts(doc).data(
      { sample: 1, graph: '/g/G.json', attributes: choice },
      undefined,
      files({ '/g/G.json': graph }),
    )) as DistrictsPanelData;
    expect(d.guessed).toBe(false);
    expect(d.pickGraph).toBe(true);
    expect(d.choice).toEqual({ population: 'x', elections: [['G20PRESR', 'G20PRESD']] });
    expect(d.caption).toMatch(/graph: G\.json; not in this graph, so left out: NOPE/);
    // population = x (the column): 0, 4, 8, 12; R listed first
    expect(d.rows[0]).toEqual(['1', '0', '-100.00 %', '76', '54.29 %', '64', '45.71 %', 'R']);
  });

  it('a graph that does not fit says why and offers another pick', async () => {
    const doc = await open(readFixture('ben/grid4x4_chain.mkv_chain.ben'), 'x.ben');
    const panel = districts(doc);
    const small = JSON.stringify({ nodes: [{ id: 0, P: 1 }], links: [] });
    const fs = files({ 'small.json': small, 'bad.json': '{"nodes": [' });
    expect(await panel.data({ sample: 1, graph: 'small.json' }, undefined, fs)).toMatchObject({
      pickGraph: true,
      missing: expect.stringMatching(/has 1 nodes but this plan assigns 16/),
    });
    expect(await panel.data({ sample: 1, graph: 'bad.json' }, undefined, fs)).toMatchObject({
      pickGraph: true,
      missing: expect.stringMatching(/bad\.json cannot be used: .*not valid JSON/),
    });
    expect(await panel.data({ sample: 1, graph: 'gone.json' }, undefined, fs)).toMatchObject({ pickGraph: true, missing: expect.stringMatching(/ENOENT/) });
  });
});

describe('the districts panel with precinct shapes', () => {
  /**
   * The same grid with node i the unit square at (x, y) + 1000; sample 1's districts are 1×4 columns.
   * The offset keeps the coordinates planar: 0..4 would read as degrees and be projected.
   */
  const square = (x: number, y: number) => unitSquare(x, y);
  const withShapes = (shape: (n: Node) => unknown) =>
    JSON.stringify({ ...JSON.parse(graph), nodes: (JSON.parse(graph) as { nodes: Node[] }).nodes.map((n) => ({ ...n, geometry: shape(n) })) });
  const panelWith = async (g: string) => {
    const doc = await open(readFixture('ben/grid4x4_chain.mkv_chain.ben'), 'x.ben');
    return (await districts(doc).data({ sample: 1, graph: 'S.json' }, undefined, files({ 'S.json': g }))) as DistrictsPanelData;
  };

  it('adds a Polsby-Popper column and figure: a 1×4 strip has area 4, perimeter 10, so 4π·4/100 = 0.503', async () => {
    const d = await panelWith(withShapes((n) => ({ type: 'Polygon', coordinates: square(n.x as number, n.y as number) })));
    expect(d.columns.at(-1)).toEqual({ title: 'Polsby-Popper', numeric: true });
    expect(d.rows.map((r) => r.at(-1))).toEqual(['0.503', '0.503', '0.503', '0.503']);
    expect(d.figures.find((f) => f.name === 'Polsby-Popper')!.value).toBe('mean 0.503, lowest 0.503');
  });

  it('shapes that cannot be used leave the table as it was and say why in the figure', async () => {
    const d = await panelWith(
      withShapes((n) =>
        n.id === 5
          ? {
              type: 'Polygon',
              coordinates: [
                [
                  [0, 0],
                  [1, 0],
                ],
              ],
            }
          : { type: 'Polygon', coordinates: square(n.x as number, n.y as number) },
      ),
    );
    expect(d.columns.map((c) => c.title)).not.toContain('Polsby-Popper');
    expect(d.rows[0]!.slice(0, 2)).toEqual(['1', '424']);
    expect(d.figures.find((f) => f.name === 'Polsby-Popper')).toMatchObject({
      value: '—',
      detail: expect.stringContaining('S.json nodes[5].geometry.coordinates[0]'),
    });
  });
});
