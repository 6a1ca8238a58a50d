import { describe, expect, it } from 'vitest';
import { readFixture, readJson } from '../../../../test/helpers/fixtures.js';
import { unitSquare } from '../../../../test/helpers/shapes.js';
import { MemorySource } from '../../io/byteSource.js';
import type { FormatDocument, TaskContext } from '../../model.js';
import { DISTRICTS_PARAMS, PLAN_HELD_PARAM, PLAN_MAP_PARAM, PLAN_SHAPES_PARAMS, type PlanPanelData } from '../../views.js';
import { benHandler } from './handler.js';
import { MemorySink } from './testing.js';

/** The fixture's 4×4 grid (node i at x = i mod 4, y = i div 4), each node given the unit square at its (x, y) + 1000. */
type Node = Record<string, unknown> & { x: number; y: number };
const grid = readJson<{ nodes: Node[] }>('ben/grid4x4_graph.json');
const square = (x: number, y: number) => unitSquare(x, y);
const shaped = JSON.stringify({ ...grid, nodes: grid.nodes.map((n) => ({ ...n, geometry: { type: 'Polygon', coordinates: square(n.x, n.y) } })) });

async function bundle(graph: string): Promise<FormatDocument> {
  const ben = await benHandler.open(new MemorySource(readFixture('ben/grid4x4_chain.mkv_chain.ben')), { name: 'x.ben' });
  const sink = new MemorySink();
  const files: Pick<TaskContext, 'openPath'> = { openPath: async () => new MemorySource(new TextEncoder().encode(graph)) };
  await ben.converters.find((c) => c.id === 'bendl')!.run({ file: async () => sink }, files, { graph: 'G.json' });
  return benHandler.open(new MemorySource(sink.bytes()), { name: 'x.bendl' });
}

const panel = (doc: FormatDocument, id: string) => doc.panels!.find((p) => p.id === id)!;

describe('the plan panel on its precinct map', () => {
  it('sends the shapes once: a 4×4 grid is 16 squares on a 4-unit extent; then only the key', async () => {
    const doc = await bundle(shaped);
    const first = (await panel(doc, 'plan').data({ sample: 1 })) as PlanPanelData;
    const map = first.map!;
    expect(map.ids).toEqual(grid.nodes.map((n) => String(n.id)));
    expect([map.width, map.height]).toEqual([1, 1]);
    expect(map.columns.map((c) => c.name)).toEqual(['TOTPOP', 'x', 'y']);
    const level = map.levels[0]!;
    expect(level.rings.length - 1).toBe(16);
    // node 5 is the square (1, 1)–(2, 2): a quarter of 256 cells per unit
    const r5 = level.ringNode.indexOf(5);
    expect(Array.from(level.points.slice(2 * level.rings[r5]!, 2 * level.rings[r5 + 1]!))).toEqual([64, 64, 128, 64, 128, 128, 64, 128]);
    // every square keeps its 4 corners, one ring per node
    expect(Array.from(level.rings)).toEqual(Array.from({ length: 17 }, (_, r) => 4 * r));
    expect(Array.from(level.ringNode).sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, n) => n));
    expect(first.edges).toBeUndefined();
    expect(first.caption).toMatch(/precincts as drawn in the graph/);

    const again = (await panel(doc, 'plan').data({ sample: 2, [PLAN_MAP_PARAM]: map.key })) as PlanPanelData;
    expect(again.map).toBeUndefined();
    expect(again.mapKey).toBe(map.key);
    // the flip panel draws the same map under the same key
    const flips = (await panel(doc, 'flips').data({})) as PlanPanelData;
    expect(flips.mapKey).toBe(map.key);
  });

  it('a step from the plan the webview holds sends only the nodes that moved (as in the fixture JSONL), else the whole plan', async () => {
    const truth = readFixture('ben/grid4x4_chain.jsonl');
    const plans = new TextDecoder()
      .decode(truth)
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { assignment: number[] }).assignment);
    const moved = (a: number, b: number) => plans[b - 1]!.flatMap((d, n) => (d === plans[a - 1]![n] ? [] : [n]));
    const doc = await bundle(shaped);
    const plan = panel(doc, 'plan');
    const first = (await plan.data({ sample: 1 })) as PlanPanelData;
    expect(first.values).toEqual(plans[0]);
    expect(first.changes).toBeUndefined();
    // sample 2 against sample 1, the plan just sent: node 1 moves to district 3
    const step = (await plan.data({ sample: 2, [PLAN_HELD_PARAM]: 1 })) as PlanPanelData;
    expect(step.values).toEqual([]);
    expect(step.changes).toEqual({ from: 1, nodes: [1], districts: [3] });
    // a held sample the panel did not send last is decoded again: 10 against 3
    const jump = (await plan.data({ sample: 10, [PLAN_HELD_PARAM]: 3 })) as PlanPanelData;
    expect(jump.changes!.nodes).toEqual(moved(3, 10));
    expect(jump.changes!.districts).toEqual(moved(3, 10).map((n) => plans[9]![n]));
    // no plan held, or one that is not in the stream: the whole plan
    expect(((await plan.data({ sample: 4, [PLAN_HELD_PARAM]: 0 })) as PlanPanelData).values).toEqual(plans[3]);
    expect(((await plan.data({ sample: 4, [PLAN_HELD_PARAM]: 9999 })) as PlanPanelData).values).toEqual(plans[3]);
  });

  it('a plain .ben gets the map from the graph the user picked (the host passes it in `graph`), without positions or edges', async () => {
    const ben = await benHandler.open(new MemorySource(readFixture('ben/grid4x4_chain.mkv_chain.ben')), { name: 'x.ben' });
    const files: Pick<TaskContext, 'openPath'> = {
      openPath: async (path) => new MemorySource(new TextEncoder().encode(path === 'picked/G.json' ? shaped : JSON.stringify(grid))),
    };
    const none = (await panel(ben, 'plan').data({ sample: 1 }, undefined, files)) as PlanPanelData;
    expect(none.map).toBeUndefined();
    const d = (await panel(ben, 'plan').data({ sample: 1, [DISTRICTS_PARAMS.graph]: 'picked/G.json' }, undefined, files)) as PlanPanelData;
    expect(d.map!.ids).toEqual(grid.nodes.map((n) => String(n.id)));
    expect(d.map!.levels[0]!.rings.length - 1).toBe(16);
    expect([d.x, d.y, d.edges]).toEqual([undefined, undefined, undefined]);
    expect(d.caption).toMatch(/precincts as drawn in the graph \(G\.json, \d+ zoom levels\)/);
    // the flip panel draws the same map; a graph without shapes leaves the strip
    expect(((await panel(ben, 'flips').data({ [DISTRICTS_PARAMS.graph]: 'picked/G.json' }, undefined, files)) as PlanPanelData).mapKey).toBe(d.map!.key);
    expect(((await panel(ben, 'plan').data({ sample: 1, [DISTRICTS_PARAMS.graph]: 'other.json' }, undefined, files)) as PlanPanelData).map).toBeUndefined();
  });

  it('a BENDL asset *.geojson draws the map: by order, or matched by the chosen property; the properties found are offered', async () => {
    // Features in reverse node order, each naming its node by the graph's GEOID; by order, feature 0 (node 15's square) is node 0.
    const fc = JSON.stringify({
      type: 'FeatureCollection',
      features: grid.nodes
        .map((n) => ({
          type: 'Feature',
          properties: { GEOID: n.GEOID, NAME: `p${String(n.id)}` },
          geometry: { type: 'Polygon', coordinates: square(n.x, n.y) },
        }))
        .reverse(),
    });
    const ben = await benHandler.open(new MemorySource(readFixture('ben/grid4x4_chain.mkv_chain.ben')), { name: 'x.ben' });
    const sink = new MemorySink();
    const texts: Record<string, string> = { 'G.json': JSON.stringify(grid), 'precincts.geojson': fc };
    await ben.converters
      .find((c) => c.id === 'bendl')!
      .run(
        { file: async () => sink },
        { openPath: async (p) => new MemorySource(new TextEncoder().encode(texts[p]!)) },
        { graph: 'G.json', assets: 'precincts.geojson' },
      );
    const doc = await benHandler.open(new MemorySource(sink.bytes()), { name: 'x.bendl' });
    const ring0 = (d: PlanPanelData) => {
      const l = d.map!.levels[0]!;
      const r = l.ringNode.indexOf(0);
      return Array.from(l.points.slice(2 * l.rings[r]!, 2 * l.rings[r + 1]!));
    };
    const byOrder = (await panel(doc, 'plan').data({ sample: 1 })) as PlanPanelData;
    expect(byOrder.features).toEqual({ name: 'precincts.geojson in the bundle', properties: ['GEOID', 'NAME'], id: undefined });
    expect(byOrder.pickShapes).toBe(true);
    expect(byOrder.caption).toMatch(/precincts as drawn in the graph \(precincts\.geojson in the bundle/);
    // node 0 drawn as node 15's square, (3, 3)–(4, 4): 192..256 in a 256-cell grid
    expect(ring0(byOrder)).toEqual([192, 192, 256, 192, 256, 256, 192, 256]);
    const matched = (await panel(doc, 'plan').data({ sample: 1, [PLAN_SHAPES_PARAMS.id]: 'GEOID' })) as PlanPanelData;
    expect(matched.features!.id).toBe('GEOID');
    expect(ring0(matched)).toEqual([0, 0, 64, 0, 64, 64, 0, 64]);
    expect(matched.map!.key).not.toBe(byOrder.map!.key);
    // a property the features lack: no map, the reason named, the properties still offered
    const wrong = (await panel(doc, 'plan').data({ sample: 1, [PLAN_SHAPES_PARAMS.id]: 'NOPE' })) as PlanPanelData;
    expect(wrong.map).toBeUndefined();
    expect(wrong.caption).toMatch(/no precinct shapes: precincts\.geojson in the bundle features\[0\]\.properties: no property "NOPE"/);
    expect(wrong.features!.properties).toEqual(['GEOID', 'NAME']);
  });

  it('a FeatureCollection the user picked (the host passes its path) is used for a plain .ben with a picked graph', async () => {
    const fc = JSON.stringify({
      type: 'FeatureCollection',
      features: grid.nodes.map((n) => ({ type: 'Feature', properties: { GEOID: n.id }, geometry: { type: 'Polygon', coordinates: square(n.x, n.y) } })),
    });
    const ben = await benHandler.open(new MemorySource(readFixture('ben/grid4x4_chain.mkv_chain.ben')), { name: 'x.ben' });
    const texts: Record<string, string> = { 'w/G.json': JSON.stringify(grid), 'w/p.geojson': fc };
    const files: Pick<TaskContext, 'openPath'> = { openPath: async (p) => new MemorySource(new TextEncoder().encode(texts[p]!)) };
    const d = (await panel(ben, 'plan').data(
      { sample: 1, [DISTRICTS_PARAMS.graph]: 'w/G.json', [PLAN_SHAPES_PARAMS.file]: 'w/p.geojson' },
      undefined,
      files,
    )) as PlanPanelData;
    expect(d.features).toEqual({ name: 'p.geojson', properties: ['GEOID'], id: undefined });
    expect(d.map!.levels[0]!.rings.length - 1).toBe(16);
    // without a graph there is nothing to match features to: no map, no pick offered
    const none = (await panel(ben, 'plan').data({ sample: 1, [PLAN_SHAPES_PARAMS.file]: 'w/p.geojson' }, undefined, files)) as PlanPanelData;
    expect([none.map, none.pickShapes]).toEqual([undefined, undefined]);
  });

  it('without shapes the dot map stays; broken shapes say why in the caption', async () => {
    const plain = (await panel(await bundle(JSON.stringify(grid)), 'plan').data({ sample: 1 })) as PlanPanelData;
    expect(plain.map).toBeUndefined();
    expect(plain.x).toHaveLength(16);
    expect(plain.edges!.length).toBeGreaterThan(0);
    const broken = JSON.stringify({
      ...grid,
      nodes: grid.nodes.map((n) => ({
        ...n,
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 0],
            ],
          ],
        },
      })),
    });
    const d = (await panel(await bundle(broken), 'plan').data({ sample: 1 })) as PlanPanelData;
    expect(d.map).toBeUndefined();
    expect(d.caption).toMatch(/no precinct shapes: graph\.json in the bundle nodes\[0\]\.geometry\.coordinates\[0\]: a ring of 2 distinct positions/);
  });
});
