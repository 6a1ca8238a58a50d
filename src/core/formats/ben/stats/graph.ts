import { FormatError } from '../../../errors.js';

/**
 * The dual graph as statistics need it: undirected edges once each, and the summed attributes
 * as numbers by node index. Stricter than the views' parseGraph (../graph.ts), which draws what it
 * can: a sum over a graph that lost a node or an edge would be a wrong number, not a worse picture.
 */
export interface StatsGraph {
  readonly nodes: number;
  /** Undirected edges as node index pairs, each once, no self-loops: [a0, b0, a1, b1, …]. */
  readonly edges: Uint32Array;
  readonly attributes: readonly NodeAttribute[];
}

export interface NodeAttribute {
  readonly name: string;
  readonly values: Float64Array;
  /**
   * 'int' when every value is an integer: sums print as integers. 'bigint' when they are, but a
   * sum could pass 2^53, so sums are kept exact as BigInt. 'float' otherwise.
   */
  readonly kind: 'int' | 'bigint' | 'float';
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const isObject = (v: Json | undefined): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);
const MAX_NODES = 1 << 26;

/**
 * Reads NetworkX JSON, adjacency form (`nodes` + `adjacency`, as GerryChain's Graph.to_json
 * writes) or node-link form (`nodes` + `links`/`edges` with source/target). Node i is the i-th
 * entry of `nodes`; ids in the edge lists are matched to the nodes' `id` values. Every error
 * names the field: a missing or non-numeric attribute (the first node lacking it), an edge end
 * that is no node's id.
 */
export function parseStatsGraph(text: string, attributes: readonly string[], field = 'graph'): StatsGraph {
  return statsGraphOf(parseGraphJson(text, field), attributes, field);
}

/** The parsed graph JSON, checked only for its `nodes` list: parsed once, read by several callers. */
export interface GraphJson {
  readonly json: JsonObject & { readonly nodes: Json[] };
}

export function parseGraphJson(text: string, field = 'graph'): GraphJson {
  let g: Json;
  try {
    g = JSON.parse(text) as Json;
  } catch (e) {
    throw new FormatError('corrupt', `not valid JSON (${e instanceof Error ? e.message : String(e)})`, { field });
  }
  if (!isObject(g) || !Array.isArray(g.nodes)) throw new FormatError('corrupt', 'not NetworkX graph JSON: no "nodes" list', { field });
  return { json: g as GraphJson['json'] };
}

/**
 * The attributes a user may sum: those that are a number on every node, in the order of the
 * first node's keys (the order the sampler wrote them). `id` is the node's name, not a measure.
 */
export function numericAttributes({ json }: GraphJson): string[] {
  const first = json.nodes[0];
  if (!isObject(first)) return [];
  return Object.keys(first).filter((k) => k !== 'id' && json.nodes.every((n) => isObject(n) && typeof n[k] === 'number'));
}

/** The statistics graph with these attributes, from an already parsed graph JSON. */
export function statsGraphOf({ json: g }: GraphJson, attributes: readonly string[], field = 'graph'): StatsGraph {
  const list = g.nodes;
  const n = list.length;
  if (n > MAX_NODES) throw new FormatError('limit', `${n} nodes, more than ${MAX_NODES}`, { field: `${field} nodes` });
  const index = new Map<IdKey, number>();
  list.forEach((node, i) => {
    if (!isObject(node)) throw new FormatError('corrupt', `node ${i} is not an object`, { field: `${field} nodes[${i}]` });
    const key = idKey(node.id ?? i);
    if (index.has(key))
      throw new FormatError('corrupt', `node ${i} repeats the id ${JSON.stringify(node.id)} of node ${index.get(key)}`, { field: `${field} nodes[${i}].id` });
    index.set(key, i);
  });
  return { nodes: n, edges: readEdges(g, index, field), attributes: attributes.map((a) => readAttribute(list as JsonObject[], a, field)) };
}

type IdKey = number | string | boolean | null;

/**
 * Ids compare as JSON values, so the node id 3 and the id "3" stay different as in NetworkX. Scalars
 * are their own keys (a Map keeps 3 and "3" apart); a list id (a grid graph's [x, y]) is its JSON
 * text after a NUL, which no string id of a JSON file starts with in practice.
 */
function idKey(id: Json): IdKey {
  return id !== null && typeof id === 'object' ? `\0${JSON.stringify(id)}` : id;
}

function readEdges(g: JsonObject, index: Map<IdKey, number>, field: string): Uint32Array {
  const n = index.size;
  // Each edge as lo·n + hi (< 2^52: exact), sorted then deduplicated: an adjacency list names
  // every edge from both ends, and a multigraph may list one twice.
  let keys = new Float64Array(1024);
  let count = 0;
  const add = (a: number, b: number) => {
    if (a === b) return;
    if (count === keys.length) {
      const grown = new Float64Array(keys.length * 2);
      grown.set(keys);
      keys = grown;
    }
    keys[count++] = a < b ? a * n + b : b * n + a;
  };
  const node = (id: Json | undefined, where: string): number => {
    const i = id === undefined ? undefined : index.get(idKey(id));
    if (i === undefined) throw new FormatError('corrupt', `${JSON.stringify(id ?? null)} is no node's id`, { field: `${field} ${where}` });
    return i;
  };
  if (Array.isArray(g.adjacency)) {
    if (g.adjacency.length !== n) throw new FormatError('corrupt', `${g.adjacency.length} adjacency lists for ${n} nodes`, { field: `${field} adjacency` });
    g.adjacency.forEach((nbs, i) => {
      if (!Array.isArray(nbs)) throw new FormatError('corrupt', 'not a list', { field: `${field} adjacency[${i}]` });
      nbs.forEach((nb, k) => add(i, node(isObject(nb) ? nb.id : undefined, `adjacency[${i}][${k}].id`)));
    });
  } else {
    const key = Array.isArray(g.links) ? 'links' : Array.isArray(g.edges) ? 'edges' : undefined;
    if (!key) throw new FormatError('corrupt', 'no "adjacency" or "links" list', { field });
    (g[key] as Json[]).forEach((l, k) => {
      if (!isObject(l)) throw new FormatError('corrupt', 'not an object', { field: `${field} ${key}[${k}]` });
      add(node(l.source, `${key}[${k}].source`), node(l.target, `${key}[${k}].target`));
    });
  }
  const sorted = keys.subarray(0, count).sort();
  const edges = new Uint32Array(2 * count);
  let m = 0;
  for (let i = 0; i < count; i++) {
    const k = sorted[i]!;
    if (i > 0 && k === sorted[i - 1]) continue;
    const lo = Math.floor(k / n);
    edges[m++] = lo;
    edges[m++] = k - lo * n;
  }
  return edges.slice(0, m);
}

function readAttribute(nodes: readonly JsonObject[], name: string, field: string): NodeAttribute {
  const values = new Float64Array(nodes.length);
  let integers = true;
  let bound = 0;
  nodes.forEach((node, i) => {
    const v = node[name];
    if (typeof v !== 'number') {
      const what = v === undefined ? 'missing' : `not a number (${JSON.stringify(v).slice(0, 40)})`;
      throw new FormatError('corrupt', `attribute "${name}" is ${what} on node ${i} (id ${JSON.stringify(node.id ?? i)})`, {
        field: `${field} nodes[${i}].${name}`,
      });
    }
    values[i] = v;
    if (!Number.isInteger(v)) integers = false;
    bound += Math.abs(v);
  });
  // Every partial sum of a district is at most the sum of all |values|: below 2^53, doubles add
  // integers exactly (2^52 leaves room for the rounding of `bound` itself); above it, BigInt does.
  return { name, values, kind: !integers ? 'float' : bound <= 2 ** 52 ? 'int' : 'bigint' };
}
