import { FormatError } from '../../../errors.js';
import type { GraphJson } from '../stats/graph.js';

/**
 * Each node's precinct as flat rings: what the map, the simplification and Polsby-Popper read.
 * Ring r is points ringStart[r] ≤ p < ringStart[r + 1], point p at (xy[2p], xy[2p + 1]); the
 * closing point GeoJSON repeats is dropped. A polygon's first ring is its exterior, the others
 * its holes (ringHole 1), as GeoJSON orders them: winding is not trusted, older files get it wrong.
 */
export interface Precincts {
  readonly nodes: number;
  readonly xy: Float64Array;
  readonly ringStart: Uint32Array;
  readonly ringNode: Uint32Array;
  readonly ringHole: Uint8Array;
  /** Nodes without a geometry (null, or no feature matched them): drawn as nothing, measured as nothing. */
  readonly missing: number;
  /** Where the shapes came from, for captions. */
  readonly source: string;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

/** Caps that keep a hostile file from allocating without bound: 2^24 points is 256 MB of doubles. */
export const GEO_LIMITS = { points: 1 << 24, ringsPerNode: 1 << 16, nodes: 1 << 26 } as const;

const isObject = (v: Json | undefined): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);
const isGeometry = (v: Json | undefined): v is JsonObject => isObject(v) && (v.type === 'Polygon' || v.type === 'MultiPolygon');

/**
 * The node attribute holding GeoJSON geometries (GerryChain's include_geometries_as_geojson writes
 * `geometry`): the first key of the first node that has one whose value is a Polygon or MultiPolygon.
 */
export function geometryAttribute({ json }: GraphJson): string | undefined {
  const limit = Math.min(json.nodes.length, 64);
  for (let i = 0; i < limit; i++) {
    const n = json.nodes[i];
    if (!isObject(n)) continue;
    const key = 'geometry' in n && isGeometry(n.geometry) ? 'geometry' : Object.keys(n).find((k) => isGeometry(n[k]));
    if (key) return key;
  }
  return undefined;
}

/** Collects rings node by node; every limit and malformed coordinate is a FormatError naming the field. */
class RingBuilder {
  private xy = new Float64Array(1024);
  private points = 0;
  private readonly starts: number[] = [0];
  private readonly nodesOf: number[] = [];
  private readonly holes: number[] = [];
  missing = 0;

  constructor(readonly nodes: number) {}

  /** Adds a node's shape; returns the rings it added (0 for a null geometry). */
  geometry(node: number, g: Json | undefined, field: string): number {
    if (g === null || g === undefined) return 0;
    if (!isGeometry(g)) throw new FormatError('corrupt', 'not a GeoJSON Polygon or MultiPolygon', { field });
    const polys = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
    if (!Array.isArray(polys)) throw new FormatError('corrupt', 'coordinates is not a list', { field: `${field}.coordinates` });
    const before = this.nodesOf.length;
    polys.forEach((rings, p) => {
      const where = g.type === 'Polygon' ? `${field}.coordinates` : `${field}.coordinates[${p}]`;
      if (!Array.isArray(rings)) throw new FormatError('corrupt', 'a polygon is not a list of rings', { field: where });
      rings.forEach((ring, r) => this.ring(node, ring, r > 0, `${where}[${r}]`));
      if (this.nodesOf.length - before > GEO_LIMITS.ringsPerNode) throw new FormatError('limit', `more than ${GEO_LIMITS.ringsPerNode} rings`, { field });
    });
    return this.nodesOf.length - before;
  }

  private ring(node: number, ring: Json, hole: boolean, field: string): void {
    if (!Array.isArray(ring)) throw new FormatError('corrupt', 'a ring is not a list of positions', { field });
    let n = ring.length;
    if (n > 1 && samePosition(ring[0]!, ring[n - 1]!)) n--;
    if (n < 3) throw new FormatError('corrupt', `a ring of ${n} distinct positions (at least 3)`, { field });
    if (this.points + n > GEO_LIMITS.points) throw new FormatError('limit', `more than ${GEO_LIMITS.points} points in all`, { field });
    this.reserve(this.points + n);
    for (let i = 0; i < n; i++) {
      const p = ring[i]!;
      if (!Array.isArray(p) || p.length < 2 || typeof p[0] !== 'number' || typeof p[1] !== 'number' || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) {
        throw new FormatError('corrupt', 'a position is not [x, y] numbers', { field: `${field}[${i}]` });
      }
      this.xy[2 * this.points] = p[0];
      this.xy[2 * this.points + 1] = p[1];
      this.points++;
    }
    this.starts.push(this.points);
    this.nodesOf.push(node);
    this.holes.push(hole ? 1 : 0);
  }

  private reserve(points: number): void {
    if (2 * points <= this.xy.length) return;
    const grown = new Float64Array(Math.max(2 * points, this.xy.length * 2));
    grown.set(this.xy.subarray(0, 2 * this.points));
    this.xy = grown;
  }

  done(source: string): Precincts {
    return {
      nodes: this.nodes,
      xy: this.xy.slice(0, 2 * this.points),
      ringStart: Uint32Array.from(this.starts),
      ringNode: Uint32Array.from(this.nodesOf),
      ringHole: Uint8Array.from(this.holes),
      missing: this.missing,
      source,
    };
  }
}

function samePosition(a: Json, b: Json): boolean {
  return Array.isArray(a) && Array.isArray(b) && a[0] === b[0] && a[1] === b[1];
}

/** The graph's precincts when its nodes carry GeoJSON geometries; undefined when none do. */
export function graphPrecincts(g: GraphJson, field = 'graph'): Precincts | undefined {
  const attr = geometryAttribute(g);
  return attr === undefined ? undefined : precinctsFromNodes(g, attr, field);
}

/** The precincts from a node attribute of the graph (node i's shape is nodes[i][attribute]). */
export function precinctsFromNodes({ json }: GraphJson, attribute: string, field = 'graph'): Precincts {
  const nodes = json.nodes;
  if (nodes.length > GEO_LIMITS.nodes) throw new FormatError('limit', `${nodes.length} nodes, more than ${GEO_LIMITS.nodes}`, { field: `${field} nodes` });
  const b = new RingBuilder(nodes.length);
  nodes.forEach((n, i) => {
    if (b.geometry(i, isObject(n) ? n[attribute] : undefined, `${field} nodes[${i}].${attribute}`) === 0) b.missing++;
  });
  return b.done(`the nodes' "${attribute}" attribute`);
}

/**
 * The precincts from a GeoJSON FeatureCollection beside the graph. With `idProperty`, feature f
 * belongs to the node whose attribute of that name (or, lacking it, whose `id`) equals
 * f.properties[idProperty]; without it, feature i is node i, and the counts must agree.
 */
export function precinctsFromFeatures(text: string, graph: GraphJson, idProperty: string | undefined, field = 'geojson'): Precincts {
  let fc: Json;
  try {
    fc = JSON.parse(text) as Json;
  } catch (e) {
    throw new FormatError('corrupt', `not valid JSON (${e instanceof Error ? e.message : String(e)})`, { field });
  }
  if (!isObject(fc) || fc.type !== 'FeatureCollection' || !Array.isArray(fc.features))
    throw new FormatError('corrupt', 'not a GeoJSON FeatureCollection', { field });
  const features = fc.features;
  const nodes = graph.json.nodes;
  const owner = new Int32Array(features.length).fill(-1);
  if (idProperty === undefined) {
    if (features.length !== nodes.length)
      throw new FormatError('bad-input', `${features.length} features for ${nodes.length} nodes: name the id property to match them`, {
        field: `${field} features`,
      });
    owner.forEach((_, i) => (owner[i] = i));
  } else {
    const byId = new Map<string, number>();
    nodes.forEach((n, i) => {
      if (!isObject(n)) return;
      const v = n[idProperty] ?? n.id;
      if (v !== undefined) byId.set(JSON.stringify(v), i);
    });
    features.forEach((f, k) => {
      const v = isObject(f) && isObject(f.properties) ? f.properties[idProperty] : undefined;
      if (v === undefined) throw new FormatError('bad-input', `no property "${idProperty}"`, { field: `${field} features[${k}].properties` });
      owner[k] = byId.get(JSON.stringify(v)) ?? -1;
    });
  }
  // Rings are gathered per node in node order, so a node's rings stay together whatever the feature order.
  const byNode = new Map<number, number[]>();
  owner.forEach((n, k) => n >= 0 && (byNode.get(n) ?? byNode.set(n, []).get(n)!).push(k));
  const b = new RingBuilder(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    let rings = 0;
    for (const k of byNode.get(i) ?? []) {
      const f = features[k];
      rings += b.geometry(i, isObject(f) ? f.geometry : undefined, `${field} features[${k}].geometry`);
    }
    if (rings === 0) b.missing++;
  }
  return b.done(idProperty === undefined ? 'the GeoJSON features, in node order' : `the GeoJSON features matched by "${idProperty}"`);
}
