import { rethrowUnlessFormatError } from '../../../errors.js';
import type { GraphJson } from '../stats/graph.js';
import { type Precincts, graphPrecincts } from './geometry.js';
import { project } from './project.js';

/**
 * What Polsby-Popper needs of the precincts, computed once per geometry: each node's area, and
 * every boundary segment once with the nodes whose rings run along it. Per plan, a district's
 * perimeter is then one pass over the segments.
 */
export interface PrecinctBoundaries {
  /** Per node: exterior areas less hole areas (planar units²). */
  readonly area: Float64Array;
  /** Per distinct segment: its length. */
  readonly length: Float64Array;
  /** Segment s is drawn by the rings of nodes owner[start[s]] ≤ … < owner[start[s + 1]] (once per ring side). */
  readonly start: Uint32Array;
  readonly owner: Uint32Array;
}

/** Shoelace area of ring r, unsigned: the winding of the file is not trusted. */
export function ringArea(p: Precincts, xy: Float64Array, r: number): number {
  const a = p.ringStart[r]!;
  const b = p.ringStart[r + 1]!;
  let s = 0;
  for (let i = a; i < b; i++) {
    const j = i + 1 < b ? i + 1 : a;
    s += xy[2 * i]! * xy[2 * j + 1]! - xy[2 * j]! * xy[2 * i + 1]!;
  }
  return Math.abs(s) / 2;
}

/**
 * Areas and shared segments. A segment is identified by its two end points as the file wrote
 * them (exact coordinates, either direction): two precincts share a boundary when their rings
 * run through the same vertices, as topologically clean shapefiles do. `xy` is the projected
 * copy of p.xy (lengths in planar units); identity uses p.xy so projection rounding cannot split a vertex.
 */
export function precinctBoundaries(p: Precincts, xy: Float64Array): PrecinctBoundaries {
  const area = new Float64Array(p.nodes);
  const rings = p.ringNode.length;
  for (let r = 0; r < rings; r++) area[p.ringNode[r]!]! += (p.ringHole[r] ? -1 : 1) * ringArea(p, xy, r);
  // Vertex ids by exact coordinates, then segment ids by vertex pair (lo·V + hi < 2^48: exact).
  const vertex = new Map<string, number>();
  const points = p.xy.length / 2;
  const vid = new Uint32Array(points);
  for (let i = 0; i < points; i++) {
    const key = `${p.xy[2 * i]},${p.xy[2 * i + 1]}`;
    let v = vertex.get(key);
    if (v === undefined) vertex.set(key, (v = vertex.size));
    vid[i] = v;
  }
  const V = vertex.size;
  const segOf = new Map<number, number>();
  const occSeg = new Uint32Array(points);
  const occNode = new Uint32Array(points);
  const lengths: number[] = [];
  for (let r = 0; r < rings; r++) {
    const a = p.ringStart[r]!;
    const b = p.ringStart[r + 1]!;
    for (let i = a; i < b; i++) {
      const j = i + 1 < b ? i + 1 : a;
      const u = vid[i]!;
      const w = vid[j]!;
      const key = u < w ? u * V + w : w * V + u;
      let s = segOf.get(key);
      if (s === undefined) {
        segOf.set(key, (s = lengths.length));
        lengths.push(Math.hypot(xy[2 * j]! - xy[2 * i]!, xy[2 * j + 1]! - xy[2 * i + 1]!));
      }
      occSeg[i] = s;
      occNode[i] = p.ringNode[r]!;
    }
  }
  // Occurrences grouped by segment (counting sort).
  const S = lengths.length;
  const start = new Uint32Array(S + 1);
  for (let i = 0; i < points; i++) start[occSeg[i]! + 1]!++;
  for (let s = 0; s < S; s++) start[s + 1]! += start[s]!;
  const fill = start.slice(0, S);
  const owner = new Uint32Array(points);
  for (let i = 0; i < points; i++) owner[fill[occSeg[i]!]!++] = occNode[i]!;
  return { area, length: Float64Array.from(lengths), start, owner };
}

export interface DistrictShape {
  readonly area: number;
  readonly perimeter: number;
  /** 4πA / P²: 1 for a disc, π/4 for a square; 0 for a district without area. */
  readonly polsbyPopper: number;
}

/**
 * Each district's area (the sum of its precincts'), perimeter and Polsby-Popper score.
 * A segment counts toward district d's perimeter once per ring of d running along it, less two for
 * each pair of them: two precincts of d on either side cancel, so only the boundary between d
 * and other districts (or the outside) remains. `assignment[i]` is node i's district.
 */
export function districtShapes(b: PrecinctBoundaries, assignment: ArrayLike<number>): Map<number, DistrictShape> {
  const area = new Map<number, number>();
  const perimeter = new Map<number, number>();
  for (let i = 0; i < b.area.length; i++) {
    const d = assignment[i]!;
    area.set(d, (area.get(d) ?? 0) + b.area[i]!);
  }
  const add = (d: number, x: number) => perimeter.set(d, (perimeter.get(d) ?? 0) + x);
  const S = b.length.length;
  for (let s = 0; s < S; s++) {
    const a = b.start[s]!;
    const e = b.start[s + 1]!;
    const len = b.length[s]!;
    if (e - a === 1) add(assignment[b.owner[a]!]!, len);
    else if (e - a === 2) {
      const da = assignment[b.owner[a]!]!;
      const db = assignment[b.owner[a + 1]!]!;
      if (da !== db) (add(da, len), add(db, len));
    } else {
      // Three or more rings along one segment (overlapping shapes): each district keeps its odd one out.
      const odd = new Map<number, number>();
      for (let k = a; k < e; k++) odd.set(assignment[b.owner[k]!]!, (odd.get(assignment[b.owner[k]!]!) ?? 0) ^ 1);
      for (const [d, o] of odd) if (o) add(d, len);
    }
  }
  const out = new Map<number, DistrictShape>();
  for (const [d, A] of [...area.entries()].sort((x, y) => x[0] - y[0])) {
    const P = perimeter.get(d) ?? 0;
    out.set(d, { area: A, perimeter: P, polsbyPopper: P > 0 ? (4 * Math.PI * A) / (P * P) : 0 });
  }
  return out;
}

/**
 * The boundaries of a graph whose nodes carry shapes, projected (project.ts), for the Districts
 * tab; a reason instead when there are none, some nodes lack one, or a shape is malformed (the
 * table stays; only compactness is left out).
 */
export function graphBoundaries(g: GraphJson, field: string): { boundaries: PrecinctBoundaries } | { why: string } | undefined {
  let p: Precincts | undefined;
  try {
    p = graphPrecincts(g, field);
  } catch (e) {
    rethrowUnlessFormatError(e);
    return { why: `${e.field ? `${e.field}: ` : ''}${e.detail}` };
  }
  if (!p) return undefined;
  if (p.missing > 0) return { why: `${p.missing} of ${p.nodes} nodes have no shape` };
  return { boundaries: precinctBoundaries(p, project(p.xy).xy) };
}
