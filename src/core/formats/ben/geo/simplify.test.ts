import { describe, expect, it } from 'vitest';
import { parseGraphJson } from '../stats/graph.js';
import { graphPrecincts } from './geometry.js';
import { extentOf, mapLevels, snapLevel } from './simplify.js';
import { countyGeoGraph, gridGeoGraph } from './testing.js';

const precincts = (g: object) => graphPrecincts(parseGraphJson(JSON.stringify(g)))!;

/** Each ring of node `n` as its sorted "x,y" corners: a side two rings share moves the same way in both. */
function cornersOf(level: ReturnType<typeof snapLevel>, n: number): string[][] {
  const out: string[][] = [];
  for (let r = 0; r < level.ringNode.length; r++) {
    if (level.ringNode[r] !== n) continue;
    const ring: string[] = [];
    for (let p = level.rings[r]!; p < level.rings[r + 1]!; p++) ring.push(`${level.points[2 * p]},${level.points[2 * p + 1]}`);
    out.push(ring.sort());
  }
  return out;
}

describe('map levels (snapped to a grid)', () => {
  it('a 2×1 grid at 2 cells across keeps its squares; the shared side (1, 0)–(1, 1) is in both', () => {
    const p = precincts(gridGeoGraph(2, 1));
    const l = snapLevel(p, p.xy, extentOf(p.xy), 2);
    expect(Array.from(l.points)).toEqual([0, 0, 1, 0, 1, 1, 0, 1, 1, 0, 2, 0, 2, 1, 1, 1]);
    expect(Array.from(l.rings)).toEqual([0, 4, 8]);
  });

  it('squares smaller than a cell become one point each; one straddling the cell line stays a (cell-sized) square', () => {
    // 8 units over 1 cell: x = 0..2 and 4..7 round to one cell column, only the square at (3, 3) spans 0 → 1 both ways
    const p = precincts(gridGeoGraph(8, 8));
    const l = snapLevel(p, p.xy, extentOf(p.xy), 1);
    const sizes = Array.from({ length: 64 }, (_, r) => l.rings[r + 1]! - l.rings[r]!);
    expect(sizes.filter((s) => s === 1).length).toBe(63);
    expect(sizes[3 + 8 * 3]).toBe(4);
    expect(cornersOf(l, 27)).toEqual([['0,0', '0,1', '1,0', '1,1']]);
  });

  it('the county: the hole and the island inside it share their four sides', () => {
    const p = precincts(countyGeoGraph());
    const l = snapLevel(p, p.xy, extentOf(p.xy), 8);
    expect(cornersOf(l, 0)[1]).toEqual(['1,1', '1,3', '3,1', '3,3']);
    expect(cornersOf(l, 1)).toEqual([['1,1', '1,3', '3,1', '3,3']]);
    // A 1/8-wide grid cannot hold the 1×1 island exactly but keeps it a square
    expect(l.ringNode.filter((n) => n === 2).length).toBe(2);
  });

  it('stops at the first level that keeps nine points in ten', () => {
    const p = precincts(gridGeoGraph(20, 20));
    const levels = mapLevels(p, p.xy);
    // 20 squares across: at 256 cells each square spans ~13 cells, all 1600 points stay
    expect(levels.map((l) => l.cells)).toEqual([256]);
    const big = precincts(gridGeoGraph(600, 2));
    expect(mapLevels(big, big.xy).map((l) => l.cells)).toEqual([256, 1024]);
  });
});
