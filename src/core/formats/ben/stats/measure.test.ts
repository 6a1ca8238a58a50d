import { describe, expect, it } from 'vitest';
import { naiveGraph, naiveLine } from '../../../../../test/helpers/naiveStats.js';
import { RunBuffer } from '../plan.js';
import { parseStatsGraph } from './graph.js';
import { PlanMeasure, StatsInputError } from './measure.js';

/**
 * A hand-checked graph: the path 0–1–2–3 plus the chord 0–2, in adjacency form (each edge
 * listed from both ends, the chord twice more, as a multigraph dump would).
 *   POP = 1, 2, 3, 4     F = 0.5, 0.25, 1, 2
 */
const TINY = JSON.stringify({
  directed: false,
  multigraph: false,
  nodes: [
    { id: 'a', POP: 1, F: 0.5 },
    { id: 'b', POP: 2, F: 0.25 },
    { id: 'c', POP: 3, F: 1 },
    { id: 'd', POP: 4, F: 2 },
  ],
  adjacency: [[{ id: 'b' }, { id: 'c' }, { id: 'c' }], [{ id: 'a' }, { id: 'c' }], [{ id: 'b' }, { id: 'd' }, { id: 'a' }, { id: 'a' }], [{ id: 'c' }]],
});

const plan = (a: number[]) => new RunBuffer().fromAssignment(a);

describe('PlanMeasure', () => {
  it('counts each undirected edge once and sums each district (hand-checked)', () => {
    const m = new PlanMeasure(parseStatsGraph(TINY, ['POP', 'F']));
    // districts {a,b} and {c,d}: cut edges b–c and a–c; POP 3 and 7; F 0.75 and 3
    expect(m.measure(plan([1, 1, 2, 2]))).toEqual({
      cutEdges: 2,
      labels: [1, 2],
      sums: [
        [3, 7],
        [0.75, 3],
      ],
    });
    // labels ascending whatever their order in the plan; {a,d} and {b,c}: cut a–b, a–c, c–d
    expect(m.measure(plan([9, 3, 3, 9]))).toEqual({
      cutEdges: 3,
      labels: [3, 9],
      sums: [
        [5, 5],
        [1.25, 2.5],
      ],
    });
    // one district: nothing cut
    expect(m.measure(plan([0, 0, 0, 0]))).toEqual({ cutEdges: 0, labels: [0], sums: [[10], [3.75]] });
  });

  it('keeps integer sums exact past 2^53, where doubles would round', () => {
    const g = parseStatsGraph(
      JSON.stringify({
        nodes: [
          { id: 0, V: 9007199254740991 },
          { id: 1, V: 2 },
          { id: 2, V: 5 },
        ],
        links: [],
      }),
      ['V'],
    );
    expect(g.attributes[0]!.kind).toBe('bigint');
    expect(new PlanMeasure(g).measure(plan([1, 1, 2])).sums).toEqual([[9007199254740993n, 5n]]);
  });

  it('refuses a plan whose node count differs from the graph, naming both counts', () => {
    const m = new PlanMeasure(parseStatsGraph(TINY, ['POP']));
    expect(() => m.measure(plan([1, 1, 2]), 'sample 7')).toThrow(StatsInputError);
    expect(() => m.measure(plan([1, 1, 2]), 'sample 7')).toThrow(/sample 7 assigns 3 nodes, the graph has 4/);
  });
});

describe('parseStatsGraph', () => {
  const graph = (nodes: unknown[], links: unknown[] = []) => JSON.stringify({ nodes, links });

  it('names the attribute and the first node lacking it', () => {
    expect(() => parseStatsGraph(graph([{ id: 0, P: 1 }, { id: 1 }, { id: 2 }]), ['P'])).toThrow(/nodes\[1\]\.P: attribute "P" is missing on node 1 \(id 1\)/);
  });

  it('refuses a non-numeric attribute, naming the node and the value', () => {
    expect(() =>
      parseStatsGraph(
        graph([
          { id: 0, P: 1 },
          { id: 1, P: '12' },
        ]),
        ['P'],
      ),
    ).toThrow(/attribute "P" is not a number \("12"\) on node 1/);
  });

  it('refuses an edge end that is no node id, naming where it is listed', () => {
    expect(() =>
      parseStatsGraph(
        graph(
          [{ id: 0 }, { id: 1 }],
          [
            { source: 0, target: 1 },
            { source: 1, target: 7 },
          ],
        ),
        [],
      ),
    ).toThrow(/links\[1\]\.target: 7 is no node's id/);
    expect(() => parseStatsGraph(JSON.stringify({ nodes: [{ id: 0 }], adjacency: [[{ id: 5 }]] }), [])).toThrow(/adjacency\[0\]\[0\]\.id/);
  });

  it('refuses JSON that is no graph', () => {
    expect(() => parseStatsGraph('{"nodes": 3}', [])).toThrow(/no "nodes" list/);
    expect(() => parseStatsGraph('[1,', [])).toThrow(/not valid JSON/);
    expect(() => parseStatsGraph(JSON.stringify({ nodes: [{ id: 0 }] }), [])).toThrow(/no "adjacency" or "links"/);
  });

  it('reads integer attributes as integers and others as floats', () => {
    const g = parseStatsGraph(
      graph([
        { id: 0, I: 3, F: 0.5 },
        { id: 1, I: -2, F: 1 },
      ]),
      ['I', 'F'],
    );
    expect(g.attributes.map((a) => a.kind)).toEqual(['int', 'float']);
  });
});

describe('PlanMeasure along a chain', () => {
  it('measures each plan of random chains as a naive count over all node pairs does: small moves, large jumps, relabellings', () => {
    // a 6×5 grid in node-link form with an integer, a float and a past-2^53 attribute
    const W = 6;
    const H = 5;
    const nodes = Array.from({ length: W * H }, (_, i) => ({ id: `n${i}`, P: (i * 7) % 11, F: ((i * 13) % 7) / 8, B: i === 0 ? 9007199254740991 : i }));
    const links = nodes.flatMap((_, i) => [
      ...(i % W < W - 1 ? [{ source: `n${i}`, target: `n${i + 1}` }] : []),
      ...(i + W < W * H ? [{ source: `n${i}`, target: `n${i + W}` }] : []),
    ]);
    const g = naiveGraph({ nodes, links: links.map((l) => ({ source: l.source, target: l.target })) });
    const m = new PlanMeasure(parseStatsGraph(JSON.stringify({ nodes, links }), ['P', 'F', 'B']));
    let s = 12345;
    const rnd = (k: number) => {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      return (s >>> 0) % k;
    };
    const a = nodes.map((_, i) => 1 + Math.floor((i % W) / 2));
    for (let step = 0; step < 400; step++) {
      const kind = rnd(10);
      if (kind === 0)
        for (let i = 0; i < a.length; i++) a[i] = 1 + rnd(4); // a jump: most nodes change
      else if (kind === 1)
        for (let i = 0; i < a.length; i++) a[i] = a[i] === 1 ? 7 : a[i] === 7 ? 1 : a[i]!; // relabel
      else for (let f = rnd(4); f >= 0; f--) a[rnd(a.length)] = a[rnd(a.length)]!; // a few nodes move
      const got = m.measure(new RunBuffer().fromAssignment(a));
      const want = naiveLine(g, step, a, ['P', 'F']);
      expect(got.cutEdges).toBe(want.cut_edges);
      expect(got.labels.map(String)).toEqual(Object.keys(want.districts));
      expect(got.sums[0]).toEqual(Object.values(want.districts).map((d) => d.P));
      expect(got.sums[1]).toEqual(Object.values(want.districts).map((d) => d.F));
      // B: exact in BigInt, against a BigInt sum of the nodes
      expect(got.sums[2]).toEqual(got.labels.map((v) => a.reduce((t, d, i) => (d === v ? t + BigInt(nodes[i]!.B) : t), 0n)));
    }
  });
});
