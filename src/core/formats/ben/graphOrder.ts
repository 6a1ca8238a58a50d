import { FormatError } from '../../errors.js';

/**
 * The dual graph's side of a node reordering (spec §7): the order a node attribute sorts the
 * nodes into, and the graph JSON rewritten in a new node order. Node i is the i-th entry of
 * `nodes` (NetworkX adjacency or node-link JSON, as stats/graph.ts reads it).
 */

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const isObject = (v: Json | undefined): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

function parse(text: string, field: string): JsonObject {
  let g: Json;
  try {
    g = JSON.parse(text) as Json;
  } catch (e) {
    throw new FormatError('bad-input', `not valid JSON (${e instanceof Error ? e.message : String(e)})`, { field });
  }
  if (!isObject(g)) throw new FormatError('bad-input', 'not a JSON object', { field });
  return g;
}

/**
 * The stable sort of the nodes by `attribute` (upstream's `key` ordering) as old index → new
 * index. Values must all be numbers or all strings (strings compare by UTF-16 code units, which
 * is byte order for the ASCII ids such attributes hold); equal values keep their order.
 */
export function orderByAttribute(text: string, attribute: string, field: string): Uint32Array {
  const g = parse(text, field);
  if (!Array.isArray(g.nodes)) throw new FormatError('bad-input', 'no "nodes" list to read node attributes from', { field });
  const nodes = g.nodes;
  const values: (number | string)[] = [];
  let kind: 'number' | 'string' | undefined;
  nodes.forEach((node, i) => {
    const at = `${field} nodes[${i}].${attribute}`;
    const v = isObject(node) ? node[attribute] : undefined;
    if (v === undefined) throw new FormatError('bad-input', `attribute "${attribute}" is missing on node ${i}`, { field: at });
    const t = typeof v === 'number' && Number.isFinite(v) ? 'number' : typeof v === 'string' ? 'string' : undefined;
    if (!t)
      throw new FormatError(
        'bad-input',
        `attribute "${attribute}" is ${JSON.stringify(v).slice(0, 40)} on node ${i}: neither a number nor a string, so it does not sort`,
        { field: at },
      );
    if (kind && t !== kind)
      throw new FormatError('bad-input', `attribute "${attribute}" is a ${t} on node ${i} but a ${kind} on node 0: the two do not compare`, { field: at });
    kind = t;
    values.push(v as number | string);
  });
  // Array.prototype.sort is stable (ES2019), so ties keep their node order.
  const order = Array.from(nodes, (_, i) => i).sort((a, b) => (values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : 0));
  const oldToNew = new Uint32Array(nodes.length);
  order.forEach((old, k) => (oldToNew[old] = k));
  return oldToNew;
}

/**
 * The graph JSON with its nodes in the new order: `nodes` and `adjacency` (whose i-th list belongs
 * to node i) move together; links and adjacency entries name nodes by id, so they stay as they are.
 * A node without an `id` is known by its index, so it gets its old index as its id, keeping every
 * reference to it. The toy `{"nodes": N, "edges": [[a, b], …]}` form names nodes by index: its
 * edges are renumbered.
 */
export function permuteGraph(text: string, oldToNew: Uint32Array, field: string): string {
  const g = parse(text, field);
  const n = oldToNew.length;
  const count = Array.isArray(g.nodes) ? g.nodes.length : g.nodes;
  if (count !== n) throw new FormatError('bad-input', `the graph has ${JSON.stringify(count)} nodes, the node order ${n}`, { field: `${field} nodes` });
  const move = <T>(list: readonly T[]): T[] => {
    const out = new Array<T>(n);
    list.forEach((x, i) => (out[oldToNew[i]!] = x));
    return out;
  };
  if (Array.isArray(g.nodes)) {
    g.nodes = move(g.nodes.map((node, i) => (isObject(node) && node.id === undefined ? { id: i, ...node } : node)));
    if (Array.isArray(g.adjacency)) {
      if (g.adjacency.length !== n) throw new FormatError('bad-input', `${g.adjacency.length} adjacency lists for ${n} nodes`, { field: `${field} adjacency` });
      g.adjacency = move(g.adjacency);
    }
  } else if (Array.isArray(g.edges)) {
    g.edges = g.edges.map((e) =>
      Array.isArray(e) ? e.map((end, k) => (k < 2 && typeof end === 'number' && Number.isInteger(end) && end >= 0 && end < n ? oldToNew[end]! : end)) : e,
    );
  }
  return JSON.stringify(g);
}
