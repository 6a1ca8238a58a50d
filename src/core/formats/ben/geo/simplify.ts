import type { Precincts } from './geometry.js';

/**
 * One zoom level of the map: rings snapped to a square grid `cells` wide over the map's extent.
 * Snapping, unlike Douglas-Peucker per ring, moves a shared vertex the same way in both
 * precincts, so neighbours never open slivers between them. Consecutive points that land on one
 * cell merge; an exterior left with fewer than 3 points is a precinct smaller than a cell and
 * stays as one point (drawn as a cell), a hole so small is dropped.
 */
export interface MapLevel {
  readonly cells: number;
  /** Integer grid coordinates, x then y; y grows north. */
  readonly points: Int32Array;
  /** Ring r is points rings[r] ≤ p < rings[r + 1]. */
  readonly rings: Uint32Array;
  readonly ringNode: Uint32Array;
}

export interface MapExtent {
  readonly x0: number;
  readonly y0: number;
  /** The larger of width and height: cells are square. */
  readonly size: number;
  readonly width: number;
  readonly height: number;
}

export function extentOf(xy: Float64Array): MapExtent {
  let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
  for (let i = 0; i < xy.length; i += 2) {
    x0 = Math.min(x0, xy[i]!);
    x1 = Math.max(x1, xy[i]!);
    y0 = Math.min(y0, xy[i + 1]!);
    y1 = Math.max(y1, xy[i + 1]!);
  }
  if (!(x1 >= x0)) return { x0: 0, y0: 0, size: 1, width: 1, height: 1 };
  return { x0, y0, size: Math.max(x1 - x0, y1 - y0, 1e-12), width: x1 - x0, height: y1 - y0 };
}

/** Grid widths tried, coarse to fine: each 4× the last, so some level is within 2× of any zoom's pixel. */
export const LEVEL_CELLS = [256, 1024, 4096, 16384] as const;

/**
 * The levels, coarse to fine. A finer level is left out once a coarser one kept nine points in
 * ten (snapping finer would send the same shapes again).
 */
export function mapLevels(p: Precincts, xy: Float64Array, extent = extentOf(xy)): MapLevel[] {
  const out: MapLevel[] = [];
  const total = xy.length / 2;
  for (const cells of LEVEL_CELLS) {
    const level = snapLevel(p, xy, extent, cells);
    out.push(level);
    if (level.points.length / 2 >= 0.9 * total) break;
  }
  return out;
}

export function snapLevel(p: Precincts, xy: Float64Array, e: MapExtent, cells: number): MapLevel {
  const k = cells / e.size;
  const points: number[] = [];
  const rings: number[] = [0];
  const ringNode: number[] = [];
  const R = p.ringNode.length;
  for (let r = 0; r < R; r++) {
    const a = p.ringStart[r]!;
    const b = p.ringStart[r + 1]!;
    const first = points.length;
    let lx = NaN;
    let ly = NaN;
    for (let i = a; i < b; i++) {
      const x = Math.round((xy[2 * i]! - e.x0) * k);
      const y = Math.round((xy[2 * i + 1]! - e.y0) * k);
      if (x === lx && y === ly) continue;
      points.push(x, y);
      lx = x;
      ly = y;
    }
    // The ring closes on itself: a last point on the first one's cell merges with it.
    if (points.length - first >= 4 && points[first] === lx && points[first + 1] === ly) points.length -= 2;
    if ((points.length - first) / 2 < 3) {
      if (p.ringHole[r]) {
        points.length = first;
        continue;
      }
      points.length = first + 2;
    }
    rings.push(points.length / 2);
    ringNode.push(p.ringNode[r]!);
  }
  return {
    cells,
    points: Int32Array.from(points),
    rings: Uint32Array.from(rings),
    ringNode: Uint32Array.from(ringNode),
  };
}
