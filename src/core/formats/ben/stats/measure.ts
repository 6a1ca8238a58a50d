import { FormatError } from '../../../errors.js';
import type { Plan } from '../plan.js';
import type { StatsGraph } from './graph.js';

/** A district's sum: a number, or a BigInt where the attribute's sums may pass 2^53 (graph.ts). */
export type Sum = number | bigint;

/** One plan's statistics: districts by ascending label, and each attribute's sum per district. */
export interface PlanStats {
  readonly cutEdges: number;
  readonly labels: readonly number[];
  /** sums[a][k]: attribute a summed over the nodes of district labels[k]. */
  readonly sums: readonly (readonly Sum[])[];
}

/**
 * Input that does not fit together (a plan and a graph of different node counts): neither file
 * is damaged, so the CLI answers it as unusable input (exit 2), not as damage (exit 1).
 */
export class StatsInputError extends FormatError {}

const LABELS = 1 << 16; // plans store districts as u16 (plan.ts)

/**
 * Measures plans against one graph, reusing its buffers from plan to plan: memory is the graph's
 * size, whatever the number of plans.
 */
export class PlanMeasure {
  private readonly assignment: Uint16Array;
  /** label → district index in the current plan, -1 for labels it does not use. */
  private readonly slot = new Int32Array(LABELS).fill(-1);

  constructor(readonly graph: StatsGraph) {
    this.assignment = new Uint16Array(graph.nodes);
  }

  measure(plan: Plan, what = 'the plan'): PlanStats {
    const { graph, assignment: a, slot } = this;
    if (plan.nodes !== graph.nodes) {
      throw new StatsInputError('corrupt', `${what} assigns ${plan.nodes} nodes, the graph has ${graph.nodes}`, { field: 'graph nodes' });
    }
    const labels: number[] = [];
    let at = 0;
    for (let r = 0; r < plan.runs; r++) {
      const v = plan.values[r]!;
      const len = plan.lengths[r]!;
      a.fill(v, at, at + len);
      at += len;
      if (slot[v] === -1) {
        slot[v] = 0;
        labels.push(v);
      }
    }
    labels.sort((x, y) => x - y);
    labels.forEach((v, k) => (slot[v] = k));
    const sums = graph.attributes.map((attr) => (attr.kind === 'bigint' ? bigSums(a, slot, attr.values, labels.length) : numberSums(a, slot, attr.values, labels.length)));
    let cut = 0;
    const e = graph.edges;
    for (let i = 0; i < e.length; i += 2) if (a[e[i]!] !== a[e[i + 1]!]) cut++;
    for (const v of labels) slot[v] = -1;
    return { cutEdges: cut, labels, sums };
  }
}

function numberSums(a: Uint16Array, slot: Int32Array, values: Float64Array, k: number): number[] {
  const s = new Float64Array(k);
  for (let i = 0; i < a.length; i++) s[slot[a[i]!]!]! += values[i]!;
  return Array.from(s);
}

function bigSums(a: Uint16Array, slot: Int32Array, values: Float64Array, k: number): bigint[] {
  const s = new Array<bigint>(k).fill(0n);
  for (let i = 0; i < a.length; i++) s[slot[a[i]!]!]! += BigInt(values[i]!);
  return s;
}
