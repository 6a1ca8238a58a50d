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

/** Per-label running totals of an integer attribute: exact under + and − (graph.ts bounds them). */
type Totals = { readonly kind: 'int'; readonly t: Float64Array } | { readonly kind: 'bigint'; readonly t: bigint[] } | undefined;

/**
 * Measures plans against one graph, in memory the size of the graph whatever the number of plans.
 * A chain moves few nodes from one plan to the next, so after the first plan only the nodes
 * whose district changed are looked at: the cut edges among their edges, the integer totals of
 * the districts they leave and join. (A plan that changes more than a quarter of the nodes, or
 * the first, is measured whole.) Float attributes are summed node by node for every plan, in node
 * order, so no rounding drifts along the chain.
 */
export class PlanMeasure {
  private readonly a: Uint16Array;
  /** A changed node's district in the plan before, where `stamp` holds the current plan's number. */
  private readonly old: Uint16Array;
  private readonly stamp: Uint32Array;
  private plan = 0;
  private started = false;
  private cut = 0;
  private readonly changed: number[] = [];
  /** Nodes per label, and the labels with any. */
  private readonly members = new Int32Array(LABELS);
  private readonly present = new Set<number>();
  private readonly totals: Totals[];
  /** Neighbours of node u: neighbours[offsets[u] .. offsets[u + 1]). */
  private readonly offsets: Uint32Array;
  private readonly neighbours: Uint32Array;
  /** Scratch for float sums by label; zero between uses. */
  private readonly byLabel = new Float64Array(LABELS);

  constructor(readonly graph: StatsGraph) {
    const n = graph.nodes;
    this.a = new Uint16Array(n);
    this.old = new Uint16Array(n);
    this.stamp = new Uint32Array(n);
    this.totals = graph.attributes.map(
      (attr): Totals =>
        attr.kind === 'int'
          ? { kind: 'int', t: new Float64Array(LABELS) }
          : attr.kind === 'bigint'
            ? { kind: 'bigint', t: new Array<bigint>(LABELS).fill(0n) }
            : undefined,
    );
    const e = graph.edges;
    this.offsets = new Uint32Array(n + 1);
    for (let i = 0; i < e.length; i++) this.offsets[e[i]! + 1]!++;
    for (let u = 0; u < n; u++) this.offsets[u + 1]! += this.offsets[u]!;
    this.neighbours = new Uint32Array(e.length);
    const fill = this.offsets.slice(0, n);
    for (let i = 0; i < e.length; i += 2) {
      this.neighbours[fill[e[i]!]!++] = e[i + 1]!;
      this.neighbours[fill[e[i + 1]!]!++] = e[i]!;
    }
  }

  measure(plan: Plan, what = 'the plan'): PlanStats {
    const { graph } = this;
    if (plan.nodes !== graph.nodes) {
      throw new StatsInputError('corrupt', `${what} assigns ${plan.nodes} nodes, the graph has ${graph.nodes}`, { field: 'graph nodes' });
    }
    this.plan = (this.plan + 1) >>> 0 || 1;
    if (this.started && this.update(plan)) this.moveChanged();
    else this.whole(plan);
    this.started = true;
    const labels = [...this.present].sort((x, y) => x - y);
    return { cutEdges: this.cut, labels, sums: this.sums(labels) };
  }

  /** Writes the plan over the previous one, noting each node that changes; false when too many do. */
  private update(plan: Plan): boolean {
    const { a, old, stamp, changed } = this;
    const p = this.plan;
    const limit = a.length >> 2;
    changed.length = 0;
    let at = 0;
    for (let r = 0; r < plan.runs; r++) {
      const v = plan.values[r]!;
      const end = at + plan.lengths[r]!;
      for (; at < end; at++) {
        if (a[at] === v) continue;
        if (changed.length === limit) return false;
        old[at] = a[at]!;
        stamp[at] = p;
        changed.push(at);
        a[at] = v;
      }
    }
    return true;
  }

  /** Moves the changed nodes between districts: members, integer totals, and cut edges. */
  private moveChanged(): void {
    const { a, old, stamp, members, present, offsets, neighbours } = this;
    const p = this.plan;
    const attrs = this.graph.attributes;
    for (const u of this.changed) {
      const from = old[u]!;
      const to = a[u]!;
      if (--members[from]! === 0) present.delete(from);
      if (members[to]!++ === 0) present.add(to);
      this.totals.forEach((tot, i) => {
        if (tot?.kind === 'int') {
          tot.t[from]! -= attrs[i]!.values[u]!;
          tot.t[to]! += attrs[i]!.values[u]!;
        } else if (tot) {
          const v = BigInt(attrs[i]!.values[u]!);
          tot.t[from]! -= v;
          tot.t[to]! += v;
        }
      });
      for (let k = offsets[u]!; k < offsets[u + 1]!; k++) {
        const w = neighbours[k]!;
        const moved = stamp[w] === p;
        if (moved && w < u) continue; // an edge between two changed nodes: counted from its larger end
        const before = from !== (moved ? old[w] : a[w]);
        const after = to !== a[w];
        this.cut += (after ? 1 : 0) - (before ? 1 : 0);
      }
    }
  }

  /** Measures the plan from scratch. */
  private whole(plan: Plan): void {
    const { a, members, present } = this;
    for (const v of present) {
      members[v] = 0;
      for (const tot of this.totals) if (tot) tot.t[v] = tot.kind === 'int' ? 0 : 0n;
    }
    present.clear();
    let at = 0;
    for (let r = 0; r < plan.runs; r++) {
      const v = plan.values[r]!;
      const end = at + plan.lengths[r]!;
      members[v]! += end - at;
      present.add(v);
      while (at < end) a[at++] = v;
    }
    this.graph.attributes.forEach((attr, i) => {
      const tot = this.totals[i];
      if (tot?.kind === 'int') for (let u = 0; u < a.length; u++) tot.t[a[u]!]! += attr.values[u]!;
      else if (tot) for (let u = 0; u < a.length; u++) tot.t[a[u]!]! += BigInt(attr.values[u]!);
    });
    this.cut = cutEdges(a, this.graph.edges);
  }

  private sums(labels: readonly number[]): Sum[][] {
    return this.graph.attributes.map((attr, i) => {
      const tot = this.totals[i];
      return tot ? labels.map((v) => tot.t[v]!) : floatSums(this.a, labels, attr.values, this.byLabel);
    });
  }
}

function cutEdges(a: Uint16Array, e: Uint32Array): number {
  let cut = 0;
  for (let i = 0; i < e.length; i += 2) if (a[e[i]!] !== a[e[i + 1]!]) cut++;
  return cut;
}

/** Node by node, in node order: the same additions in the same order for every plan. */
function floatSums(a: Uint16Array, labels: readonly number[], values: Float64Array, byLabel: Float64Array): number[] {
  for (let u = 0; u < a.length; u++) byLabel[a[u]!]! += values[u]!;
  return labels.map((v) => {
    const s = byLabel[v]!;
    byLabel[v] = 0;
    return s;
  });
}
