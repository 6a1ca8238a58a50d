import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseGraphJson } from '../stats/graph.js';
import { graphPrecincts } from './geometry.js';
import { districtShapes, precinctBoundaries } from './polsbyPopper.js';
import { countyGeoGraph, gridGeoGraph } from './testing.js';

const precincts = (g: object) => graphPrecincts(parseGraphJson(JSON.stringify(g)))!;
const shapes = (g: object, plan: number[]) => {
  const p = precincts(g);
  return districtShapes(precinctBoundaries(p, p.xy), plan);
};

/**
 * The grid's perimeter counted another way: a unit cell's side is district boundary when the cell
 * across it is outside the grid or in another district (no segments, no cancelling).
 */
function gridDirect(w: number, h: number, plan: number[]): Map<number, { area: number; perimeter: number }> {
  const out = new Map<number, { area: number; perimeter: number }>();
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= w || y >= h ? -1 : plan[x + w * y]!);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const d = at(x, y);
      const o = out.get(d) ?? { area: 0, perimeter: 0 };
      o.area++;
      for (const [dx, dy] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ] as const)
        if (at(x + dx, y + dy) !== d) o.perimeter++;
      out.set(d, o);
    }
  }
  return out;
}

describe('Polsby-Popper from precinct polygons', () => {
  it('a k×k block of unit squares scores π/4, whatever k, as a square does', () => {
    for (const k of [1, 2, 5]) {
      // Two k×k districts side by side on a 2k × k grid.
      const plan = Array.from({ length: 2 * k * k }, (_, i) => (i % (2 * k) < k ? 1 : 2));
      const s = shapes(gridGeoGraph(2 * k, k), plan);
      for (const d of [1, 2]) {
        expect(s.get(d)!.area).toBe(k * k);
        expect(s.get(d)!.perimeter).toBe(4 * k);
        expect(s.get(d)!.polsbyPopper).toBeCloseTo(Math.PI / 4, 12);
      }
    }
  });

  it('a 1×3 strip of squares scores 4π·3/8² (area 3, perimeter 8)', () => {
    const s = shapes(gridGeoGraph(3, 2), [1, 1, 1, 2, 2, 2]);
    expect(s.get(1)).toEqual({ area: 3, perimeter: 8, polsbyPopper: (12 * Math.PI) / 64 });
  });

  it('random plans on a grid: area and perimeter equal the cell-by-cell count', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 7 })
          .chain((w) => fc.tuple(fc.constant(w), fc.integer({ min: 1, max: 7 })))
          .chain(([w, h]) => fc.tuple(fc.constant(w), fc.constant(h), fc.array(fc.integer({ min: 0, max: 3 }), { minLength: w * h, maxLength: w * h }))),
        ([w, h, plan]) => {
          const got = shapes(gridGeoGraph(w, h), plan);
          const want = gridDirect(w, h, plan);
          expect([...got.keys()].sort((x, y) => x - y)).toEqual([...want.keys()].sort((x, y) => x - y));
          for (const [d, o] of want) {
            expect(got.get(d)!.area).toBe(o.area);
            expect(got.get(d)!.perimeter).toBe(o.perimeter);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the county: holes subtract, an island inside another district adds its ring, a MultiPolygon adds its parts (hand-computed)', () => {
    const county = countyGeoGraph();
    // A and B together fill the 4×4 square; C is 2×4 plus a unit island; D the 6×1 strip on top.
    const x = shapes(county, [1, 1, 2, 3]);
    expect(x.get(1)).toMatchObject({ area: 16, perimeter: 16 });
    expect(x.get(1)!.polsbyPopper).toBeCloseTo(Math.PI / 4, 12);
    expect(x.get(2)).toMatchObject({ area: 9, perimeter: 16 });
    expect(x.get(2)!.polsbyPopper).toBeCloseTo((9 * Math.PI) / 64, 12);
    expect(x.get(3)).toMatchObject({ area: 6, perimeter: 14 });
    // A with D: the outline (0,0)(4,0)(4,4)(6,4)(6,5)(0,5) is 22 long, and the hole's 8 borders B in district 2.
    const y = shapes(county, [1, 2, 2, 1]);
    expect(y.get(1)).toMatchObject({ area: 18, perimeter: 30 });
    expect(y.get(1)!.polsbyPopper).toBeCloseTo((2 * Math.PI) / 25, 12);
    expect(y.get(2)).toMatchObject({ area: 13, perimeter: 24 });
    expect(y.get(2)!.polsbyPopper).toBeCloseTo((13 * Math.PI) / 144, 12);
  });
});
