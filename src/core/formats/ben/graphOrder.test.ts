import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatErrorOf } from '../../../../test/helpers/errors.js';
import { fixture } from '../../../../test/helpers/fixtures.js';
import { orderByAttribute, permuteGraph } from './graphOrder.js';
import { parseStatsGraph } from './stats/graph.js';

const grid = readFileSync(fixture('ben/grid4x4_graph.json'), 'utf8');
const nodes = (attrs: object[]) => JSON.stringify({ nodes: attrs, adjacency: attrs.map(() => []) });

describe('node order from a graph attribute', () => {
  it('the 4×4 grid by x: column by column (the map written out by hand)', () => {
    // Node k sits at x = k % 4, y = ⌊k / 4⌋; sorting by x stably puts column 0 (0, 4, 8, 12) first.
    const oldToNew = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];
    expect(Array.from(orderByAttribute(grid, 'x', 'g'))).toEqual(oldToNew);
  });

  it('is stable: ties keep the node order (the grid by y, by its GEOID strings: already in order)', () => {
    expect(Array.from(orderByAttribute(grid, 'y', 'g'))).toEqual(Array.from({ length: 16 }, (_, i) => i));
    expect(Array.from(orderByAttribute(grid, 'GEOID', 'g'))).toEqual(Array.from({ length: 16 }, (_, i) => i));
  });

  it('sorts numbers as numbers and strings as strings', () => {
    // 30, 10, 20, 10 → order 1, 3, 2, 0 → old 0 goes to 3, old 1 to 0, old 2 to 2, old 3 to 1.
    expect(Array.from(orderByAttribute(nodes([{ P: 30 }, { P: 10 }, { P: 20 }, { P: 10 }]), 'P', 'g'))).toEqual([3, 0, 2, 1]);
    expect(Array.from(orderByAttribute(nodes([{ G: '9' }, { G: '10' }]), 'G', 'g'))).toEqual([1, 0]);
  });

  it('refuses a missing, a non-sortable or a mixed attribute, naming the node (bad input, not damage)', () => {
    const cases: [string, string, RegExp, string][] = [
      [nodes([{ P: 1 }, { Q: 2 }]), 'P', /missing on node 1/, 'g nodes[1].P'],
      [nodes([{ P: 1 }, { P: true }]), 'P', /neither a number nor a string/, 'g nodes[1].P'],
      [nodes([{ P: null }]), 'P', /neither a number nor a string/, 'g nodes[0].P'],
      [nodes([{ P: 1 }, { P: '2' }]), 'P', /do not compare/, 'g nodes[1].P'],
      ['{"nodes": 4, "edges": []}', 'P', /no "nodes" list/, 'g'],
      ['{"nodes": [', 'P', /not valid JSON/, 'g'],
    ];
    for (const [text, attr, message, field] of cases) {
      const e = formatErrorOf(() => orderByAttribute(text, attr, 'g'));
      expect(e.code).toBe('bad-input');
      expect(e.detail).toMatch(message);
      expect(e.field).toBe(field);
    }
  });
});

describe('the graph in a new node order', () => {
  it('node-link JSON: nodes move, links (by id) stay, and every edge joins the same two nodes', () => {
    const p = orderByAttribute(grid, 'x', 'g');
    const moved = permuteGraph(grid, p, 'g');
    const before = parseStatsGraph(grid, ['TOTPOP']);
    const after = parseStatsGraph(moved, ['TOTPOP']);
    // Node old is now at p[old]: same attribute, same neighbours, under the new indices.
    for (let old = 0; old < 16; old++) expect(after.attributes[0]!.values[p[old]!]).toBe(before.attributes[0]!.values[old]);
    const edgeSet = (edges: Uint32Array, map: (i: number) => number) =>
      new Set(Array.from({ length: edges.length / 2 }, (_, k) => [map(edges[2 * k]!), map(edges[2 * k + 1]!)].sort((a, b) => a - b).join('-')));
    expect(edgeSet(after.edges, (i) => i)).toEqual(edgeSet(before.edges, (i) => p[i]!));
    expect((JSON.parse(moved) as { nodes: { GEOID: string }[] }).nodes.slice(0, 5).map((n) => n.GEOID)).toEqual(['G00', 'G04', 'G08', 'G12', 'G01']);
  });

  it('adjacency JSON: each adjacency list moves with its node; nodes without an id keep their old index as id', () => {
    const g = JSON.stringify({ nodes: [{ P: 3 }, { P: 1 }, { P: 2 }], adjacency: [[{ id: 1 }], [{ id: 0 }, { id: 2 }], [{ id: 1 }]] });
    const moved = JSON.parse(permuteGraph(g, Uint32Array.from([2, 0, 1]), 'g')) as unknown;
    expect(moved).toEqual({
      nodes: [
        { id: 1, P: 1 },
        { id: 2, P: 2 },
        { id: 0, P: 3 },
      ],
      adjacency: [[{ id: 0 }, { id: 2 }], [{ id: 1 }], [{ id: 1 }]],
    });
  });

  it('the toy {"nodes": N, "edges"} form names nodes by index: its edges are renumbered', () => {
    expect(JSON.parse(permuteGraph('{"nodes":3,"edges":[[0,1],[1,2]]}', Uint32Array.from([2, 0, 1]), 'g'))).toEqual({
      nodes: 3,
      edges: [
        [2, 0],
        [0, 1],
      ],
    });
  });

  it("refuses a graph whose node count is not the map's", () => {
    const e = formatErrorOf(() => permuteGraph(grid, Uint32Array.from([0, 1, 2]), 'g'));
    expect(e.code).toBe('bad-input');
    expect(e.message).toBe('g nodes: the graph has 16 nodes, the node order 3');
  });
});
