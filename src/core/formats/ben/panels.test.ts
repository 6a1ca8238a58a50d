import { describe, expect, it } from 'vitest';
import { readFixture, readJson } from '../../../../test/helpers/fixtures.js';
import { MemorySource } from '../../io/byteSource.js';
import type { FormatDocument, TaskContext } from '../../model.js';
import { DISTRICTS_PARAMS, PLAN_HELD_PARAM, PLAN_MAP_PARAM, type PlanPanelData } from '../../views.js';
import { benHandler } from './handler.js';
import { MemorySink } from './testing.js';

/** The fixture's 4×4 grid (node i at x = i mod 4, y = i div 4), each node given the unit square at its (x, y) + 1000. */
type Node = Record<string, unknown> & { x: number; y: number };
const grid = readJson<{ nodes: Node[] }>('ben/grid4x4_graph.json');
const square = (x: number, y: number) => [[[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1], [x, y]].map(([a, b]) => [a! + 1000, b! + 1000])];
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
  it('sends the shapes once: a 4×4 grid is 16 squares on a 4-unit extent, 40 segments, 24 of them inside; then only the key', async () => {
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
    expect(level.points.slice(2 * level.rings[r5]!, 2 * level.rings[r5 + 1]!)).toEqual([64, 64, 128, 64, 128, 128, 64, 128]);
    // 4 × 5 horizontal and 5 × 4 vertical unit sides; the 16 on the outline have the outside (−1) as their second node
    const segs = level.segments.length / 4;
    expect(segs).toBe(40);
    expect(Array.from({ length: segs }, (_, s) => level.segments[4 * s + 3]).filter((b) => b === -1).length).toBe(16);
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
    const plans = new TextDecoder().decode(truth).trim().split('\n').map((l) => (JSON.parse(l) as { assignment: number[] }).assignment);
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
    const files: Pick<TaskContext, 'openPath'> = { openPath: async (path) => new MemorySource(new TextEncoder().encode(path === 'picked/G.json' ? shaped : JSON.stringify(grid))) };
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

  it('without shapes the dot map stays; broken shapes say why in the caption', async () => {
    const plain = (await panel(await bundle(JSON.stringify(grid)), 'plan').data({ sample: 1 })) as PlanPanelData;
    expect(plain.map).toBeUndefined();
    expect(plain.x).toHaveLength(16);
    expect(plain.edges!.length).toBeGreaterThan(0);
    const broken = JSON.stringify({ ...grid, nodes: grid.nodes.map((n) => ({ ...n, geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 0]]] } })) });
    const d = (await panel(await bundle(broken), 'plan').data({ sample: 1 })) as PlanPanelData;
    expect(d.map).toBeUndefined();
    expect(d.caption).toMatch(/no precinct shapes: graph\.json in the bundle nodes\[0\]\.geometry\.coordinates\[0\]: a ring of 2 distinct positions/);
  });
});
