/**
 * District statistics computed the slow, obvious way, independently of src/core/formats/ben/stats:
 * for each plan every pair of nodes is checked against the graph's edge list, and each district's
 * sums are plain loops. Tests compare `binlens stats` with this.
 */
export interface NaiveGraph {
  readonly nodes: readonly Record<string, unknown>[];
  /** Edges as [index, index] pairs, as listed (either direction, maybe twice). */
  readonly edges: readonly (readonly [number, number])[];
}

/** A NetworkX node-link graph (`links` with source/target ids) as index pairs. */
export function naiveGraph(json: { nodes: Record<string, unknown>[]; links: { source: unknown; target: unknown }[] }): NaiveGraph {
  const indexOf = (id: unknown) => json.nodes.findIndex((n) => n.id === id);
  return { nodes: json.nodes, edges: json.links.map((l) => [indexOf(l.source), indexOf(l.target)] as const) };
}

export interface NaiveLine {
  sample: number;
  cut_edges: number;
  districts: Record<string, Record<string, number>>;
}

export function naiveLine(g: NaiveGraph, sample: number, assignment: readonly number[], attributes: readonly string[]): NaiveLine {
  const adjacent = (i: number, j: number) => g.edges.some(([a, b]) => (a === i && b === j) || (a === j && b === i));
  let cut = 0;
  for (let i = 0; i < assignment.length; i++) for (let j = i + 1; j < assignment.length; j++) if (adjacent(i, j) && assignment[i] !== assignment[j]) cut++;
  const districts: Record<string, Record<string, number>> = {};
  for (const d of [...new Set(assignment)].sort((x, y) => x - y)) {
    districts[String(d)] = {};
    for (const attr of attributes) {
      let sum = 0;
      for (let i = 0; i < assignment.length; i++) if (assignment[i] === d) sum += g.nodes[i]![attr] as number;
      districts[String(d)]![attr] = sum;
    }
  }
  return { sample, cut_edges: cut, districts };
}

/** The lines of a ground-truth JSONL (`{"assignment":[…],"sample":k}`) as naive statistics. */
export function naiveLines(g: NaiveGraph, jsonl: string, attributes: readonly string[]): NaiveLine[] {
  return jsonl
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { assignment: number[]; sample: number })
    .map((s) => naiveLine(g, s.sample, s.assignment, attributes));
}

/** Nearest-rank quantile of a list: the ⌈q·n⌉-th smallest value. */
export function naiveQuantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1]!;
}
