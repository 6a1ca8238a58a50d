import { describe, expect, it } from 'vitest';
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
    expect(m.measure(plan([1, 1, 2, 2]))).toEqual({ cutEdges: 2, labels: [1, 2], sums: [[3, 7], [0.75, 3]] });
    // labels ascending whatever their order in the plan; {a,d} and {b,c}: cut a–b, a–c, c–d
    expect(m.measure(plan([9, 3, 3, 9]))).toEqual({ cutEdges: 3, labels: [3, 9], sums: [[5, 5], [1.25, 2.5]] });
    // one district: nothing cut
    expect(m.measure(plan([0, 0, 0, 0]))).toEqual({ cutEdges: 0, labels: [0], sums: [[10], [3.75]] });
  });

  it('keeps integer sums exact past 2^53, where doubles would round', () => {
    const g = parseStatsGraph(JSON.stringify({ nodes: [{ id: 0, V: 9007199254740991 }, { id: 1, V: 2 }, { id: 2, V: 5 }], links: [] }), ['V']);
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
    expect(() => parseStatsGraph(graph([{ id: 0, P: 1 }, { id: 1, P: '12' }]), ['P'])).toThrow(/attribute "P" is not a number \("12"\) on node 1/);
  });

  it('refuses an edge end that is no node id, naming where it is listed', () => {
    expect(() => parseStatsGraph(graph([{ id: 0 }, { id: 1 }], [{ source: 0, target: 1 }, { source: 1, target: 7 }]), [])).toThrow(/links\[1\]\.target: 7 is no node's id/);
    expect(() => parseStatsGraph(JSON.stringify({ nodes: [{ id: 0 }], adjacency: [[{ id: 5 }]] }), [])).toThrow(/adjacency\[0\]\[0\]\.id/);
  });

  it('refuses JSON that is no graph', () => {
    expect(() => parseStatsGraph('{"nodes": 3}', [])).toThrow(/no "nodes" list/);
    expect(() => parseStatsGraph('[1,', [])).toThrow(/not valid JSON/);
    expect(() => parseStatsGraph(JSON.stringify({ nodes: [{ id: 0 }] }), [])).toThrow(/no "adjacency" or "links"/);
  });

  it('reads integer attributes as integers and others as floats', () => {
    const g = parseStatsGraph(graph([{ id: 0, I: 3, F: 0.5 }, { id: 1, I: -2, F: 1 }]), ['I', 'F']);
    expect(g.attributes.map((a) => a.kind)).toEqual(['int', 'float']);
  });
});
