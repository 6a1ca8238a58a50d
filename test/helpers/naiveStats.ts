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

/** A plan's figures the slow way: node-by-node district totals, then the textbook formulas. */
export interface NaiveFigures {
  readonly labels: number[];
  readonly population: number[];
  readonly deviation: number[];
  readonly maxDeviation: number;
  readonly dem: number[];
  readonly rep: number[];
  /** D's seats; a tied district is half a seat. */
  readonly seatsD: number;
  /** (wasted R − wasted D) / votes; a tie wastes half of each side's votes. */
  readonly gap: number;
  /** median − mean of D's two-party share by district. */
  readonly meanMedian: number;
  readonly cut: number;
}

export function naiveFigures(g: NaiveGraph, assignment: readonly number[], pop: string, d: string, r: string): NaiveFigures {
  const labels = [...new Set(assignment)].sort((x, y) => x - y);
  const sum = (district: number, key: string) => assignment.reduce((s, a, i) => s + (a === district ? (g.nodes[i]![key] as number) : 0), 0);
  const population = labels.map((l) => sum(l, pop));
  const ideal = population.reduce((s, p) => s + p, 0) / labels.length;
  const dem = labels.map((l) => sum(l, d));
  const rep = labels.map((l) => sum(l, r));
  let wastedD = 0;
  let wastedR = 0;
  let seatsD = 0;
  labels.forEach((_, k) => {
    const need = (dem[k]! + rep[k]!) / 2;
    if (dem[k]! > rep[k]!) (seatsD++, (wastedD += dem[k]! - need), (wastedR += rep[k]!));
    else if (rep[k]! > dem[k]!) ((wastedR += rep[k]! - need), (wastedD += dem[k]!));
    else ((seatsD += 0.5), (wastedD += dem[k]! / 2), (wastedR += rep[k]! / 2));
  });
  const votes = dem.reduce((s, v) => s + v, 0) + rep.reduce((s, v) => s + v, 0);
  const shares = labels.map((_, k) => dem[k]! / (dem[k]! + rep[k]!)).sort((x, y) => x - y);
  const n = shares.length;
  const median = n % 2 ? shares[(n - 1) / 2]! : (shares[n / 2 - 1]! + shares[n / 2]!) / 2;
  let cut = 0;
  for (let i = 0; i < assignment.length; i++)
    for (let j = i + 1; j < assignment.length; j++)
      if (assignment[i] !== assignment[j] && g.edges.some(([a, b]) => (a === i && b === j) || (a === j && b === i))) cut++;
  const deviation = population.map((p) => (p - ideal) / ideal);
  return {
    labels,
    population,
    deviation,
    maxDeviation: Math.max(...deviation.map(Math.abs)),
    dem,
    rep,
    seatsD,
    gap: (wastedR - wastedD) / votes,
    meanMedian: median - shares.reduce((s, x) => s + x, 0) / n,
    cut,
  };
}
