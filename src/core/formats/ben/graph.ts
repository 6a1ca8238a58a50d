import { FormatError } from '../../errors.js';

/** The dual graph as the views need it: node count, edges by node index, and positions when known. */
export interface DualGraph {
  readonly nodes: number;
  /** Pairs of node indices, flattened: [a0, b0, a1, b1, …]. */
  readonly edges: Uint32Array;
  /** Positions from the file (coordinates or centroids), or from the force layout. */
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly placed: 'coordinates' | 'layout';
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const X_KEYS = ['x', 'X', 'C_X', 'lon', 'longitude', 'INTPTLON20', 'INTPTLON10', 'INTPTLON'];
const Y_KEYS = ['y', 'Y', 'C_Y', 'lat', 'latitude', 'INTPTLAT20', 'INTPTLAT10', 'INTPTLAT'];

function num(v: Json | undefined): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

function position(attrs: { [k: string]: Json }): [number, number] | undefined {
  const c = attrs.centroid ?? attrs.pos;
  if (Array.isArray(c) && c.length >= 2) {
    const [x, y] = [num(c[0]), num(c[1])];
    if (x !== undefined && y !== undefined) return [x, y];
  }
  const x = X_KEYS.map((k) => num(attrs[k])).find((v) => v !== undefined);
  const y = Y_KEYS.map((k) => num(attrs[k])).find((v) => v !== undefined);
  return x !== undefined && y !== undefined ? [x, y] : undefined;
}

/** The JSON of a side file, or a FormatError that names the file. */
function parseJson(text: string, field: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    throw new FormatError('corrupt', 'not valid JSON', { field });
  }
}

/**
 * Reads graph.json in the shapes found in practice (spec §6): NetworkX adjacency data
 * (`nodes` + `adjacency`), node-link data (`nodes` + `links`/`edges` with source/target), or a
 * toy `{"nodes": N, "edges": [[a, b], …]}`. Node i is the i-th node listed (the stored graph is
 * already in the stream's node order). Positions come from x/y, census INTPTLON/INTPTLAT,
 * lon/lat or a centroid; without them for every node, the force layout places the graph.
 */
export function parseGraph(text: string, field = 'graph.json'): DualGraph {
  const g = parseJson(text, field);
  if (g === null || typeof g !== 'object' || Array.isArray(g)) throw new FormatError('corrupt', 'not a JSON object', { field });
  const edges: number[] = [];
  let n: number;
  const xs: number[] = [];
  const ys: number[] = [];
  let placed = true;
  if (typeof g.nodes === 'number') {
    n = g.nodes;
    placed = false;
  } else if (Array.isArray(g.nodes)) {
    n = g.nodes.length;
    const ids = new Map<string, number>();
    g.nodes.forEach((node, i) => {
      const attrs = node !== null && typeof node === 'object' && !Array.isArray(node) ? node : {};
      ids.set(JSON.stringify(attrs.id ?? i), i);
      const p = position(attrs);
      if (!p) placed = false;
      else (xs.push(p[0]), ys.push(p[1]));
    });
    const idOf = (v: Json | undefined) => ids.get(JSON.stringify(v ?? null)) ?? (typeof v === 'number' && v >= 0 && v < n ? v : undefined);
    if (Array.isArray(g.adjacency)) {
      g.adjacency.forEach((list, i) => {
        if (!Array.isArray(list)) return;
        for (const nb of list) {
          const j = idOf(nb !== null && typeof nb === 'object' && !Array.isArray(nb) ? nb.id : nb);
          if (j !== undefined && i < j) edges.push(i, j);
        }
      });
    }
    const links = Array.isArray(g.links) ? g.links : Array.isArray(g.edges) ? g.edges : [];
    for (const l of links) {
      const [s, t] = Array.isArray(l) ? [l[0], l[1]] : l !== null && typeof l === 'object' ? [l.source, l.target] : [undefined, undefined];
      const a = idOf(s);
      const b = idOf(t);
      if (a !== undefined && b !== undefined && a !== b) edges.push(a, b);
    }
  } else {
    throw new FormatError('corrupt', 'no "nodes" list or count', { field });
  }
  if (!Number.isInteger(n) || n < 0 || n > 1 << 26) throw new FormatError('corrupt', `node count ${n}`, { field });
  if (typeof g.nodes === 'number' && Array.isArray(g.edges)) {
    for (const e of g.edges) if (Array.isArray(e) && typeof e[0] === 'number' && typeof e[1] === 'number' && e[0] < n && e[1] < n) edges.push(e[0], e[1]);
  }
  const edgeArray = Uint32Array.from(edges);
  if (placed && n > 0) return { nodes: n, edges: edgeArray, x: Float64Array.from(xs), y: Float64Array.from(ys), placed: 'coordinates' };
  const { x, y } = forceLayout(n, edgeArray);
  return { nodes: n, edges: edgeArray, x, y, placed: 'layout' };
}

/**
 * A Fruchterman–Reingold layout with grid-bucketed repulsion (only nearby nodes push), started
 * from a BFS spiral so connected nodes begin close. Deterministic; O(iterations · (n + edges)).
 */
export function forceLayout(n: number, edges: Uint32Array, iterations = n > 20000 ? 30 : n > 2000 ? 80 : 200): { x: Float64Array; y: Float64Array } {
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = Math.sqrt(i + 0.5);
    const a = i * 2.399963229728653; // golden angle: an even disc
    x[i] = r * Math.cos(a);
    y[i] = r * Math.sin(a);
  }
  if (n < 2) return { x, y };
  const area = n;
  const k = Math.sqrt(area / n);
  const dx = new Float64Array(n);
  const dy = new Float64Array(n);
  const cell = 2 * k;
  let temp = Math.sqrt(n) / 4;
  for (let it = 0; it < iterations; it++) {
    dx.fill(0);
    dy.fill(0);
    const grid = new Map<number, number[]>();
    const key = (cx: number, cy: number) => cx * 131071 + cy;
    for (let i = 0; i < n; i++) {
      const kk = key(Math.floor(x[i]! / cell), Math.floor(y[i]! / cell));
      let b = grid.get(kk);
      if (!b) grid.set(kk, (b = []));
      b.push(i);
    }
    for (let i = 0; i < n; i++) {
      const cx = Math.floor(x[i]! / cell);
      const cy = Math.floor(y[i]! / cell);
      for (let ox = -1; ox <= 1; ox++)
        for (let oy = -1; oy <= 1; oy++) {
          const b = grid.get(key(cx + ox, cy + oy));
          if (!b) continue;
          for (const j of b) {
            if (j === i) continue;
            const ddx = x[i]! - x[j]!;
            const ddy = y[i]! - y[j]!;
            const d2 = Math.max(ddx * ddx + ddy * ddy, 1e-6);
            const f = (k * k) / d2;
            dx[i]! += ddx * f;
            dy[i]! += ddy * f;
          }
        }
    }
    for (let e = 0; e < edges.length; e += 2) {
      const a = edges[e]!;
      const b = edges[e + 1]!;
      const ddx = x[a]! - x[b]!;
      const ddy = y[a]! - y[b]!;
      const d = Math.sqrt(ddx * ddx + ddy * ddy) || 1e-3;
      const f = d / k;
      dx[a]! -= ddx * f;
      dy[a]! -= ddy * f;
      dx[b]! += ddx * f;
      dy[b]! += ddy * f;
    }
    for (let i = 0; i < n; i++) {
      const d = Math.sqrt(dx[i]! * dx[i]! + dy[i]! * dy[i]!) || 1;
      const step = Math.min(d, temp);
      x[i]! += (dx[i]! / d) * step;
      y[i]! += (dy[i]! / d) * step;
    }
    temp = Math.max(temp * 0.95, 0.01);
  }
  return { x, y };
}

/**
 * A node permutation map (spec §7): `node_permutation_old_to_new` (or the older
 * `relabeling_old_to_new_nodes_map`) as old → new, checked to be a bijection over 0..N−1.
 */
export function parsePermutation(text: string, field = 'node_permutation_map.json'): Uint32Array {
  const j = parseJson(text, field);
  const map = j && typeof j === 'object' && !Array.isArray(j) ? (j.node_permutation_old_to_new ?? j.relabeling_old_to_new_nodes_map) : undefined;
  if (!map || typeof map !== 'object' || Array.isArray(map)) throw new FormatError('corrupt', 'no node_permutation_old_to_new object', { field });
  const entries = Object.entries(map);
  const n = entries.length;
  const out = new Uint32Array(n);
  const seenNew = new Uint8Array(n);
  const seenOld = new Uint8Array(n);
  for (const [k, v] of entries) {
    const old = Number(k);
    if (!Number.isInteger(old) || old < 0 || old >= n) throw new FormatError('corrupt', `old index ${k} is outside 0..${n - 1}`, { field });
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= n || seenNew[v])
      throw new FormatError('corrupt', `new index ${JSON.stringify(v)} is not a unique index 0..${n - 1}`, { field });
    if (seenOld[old]) throw new FormatError('corrupt', `old index ${k} appears twice`, { field });
    seenOld[old] = 1;
    seenNew[v] = 1;
    out[old] = v;
  }
  return out;
}
