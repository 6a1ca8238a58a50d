import { describe, expect, it } from 'vitest';
import { indexLevel, nodesIn } from './levelIndex.js';

/** Random rectangles (some long and thin, some a point, some without rings, some of two parts) on a 1024 grid. */
function randomLevel(nodes: number, seed: number) {
  let s = seed;
  const rand = (k: number) => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) % k;
  const points: number[] = [];
  const rings = [0];
  const ringNode: number[] = [];
  for (let n = 0; n < nodes; n++) {
    if (rand(10) === 0) continue;
    // A node's parts lie near each other, as a MultiPolygon's islands do.
    const [nx, ny] = [rand(980), rand(980)];
    for (let part = 0; part <= rand(2); part++) {
      const x = nx + rand(20);
      const y = ny + rand(20);
      const w = rand(5) === 0 ? rand(600) : rand(12);
      const h = rand(5) === 0 ? rand(600) : rand(12);
      points.push(x, y, x + w, y, x + w, y + h, x, y + h);
      rings.push(points.length / 2);
      ringNode.push(n);
    }
  }
  return { cells: 1024, points, rings, ringNode };
}

describe('indexLevel and nodesIn', () => {
  it('finds exactly the nodes a test of every box finds, ascending and once, for any set of query boxes, big boxes among small ones', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const nodes = 3000;
      const level = randomLevel(nodes, seed);
      const i = indexLevel(level, nodes);
      // Both kinds are searched: the bucketed and the big (a fifth of the sides are up to 600 units)
      expect(i.big.length).toBeGreaterThan(0);
      expect(i.bucketNodes.length).toBeGreaterThan(0);
      let s = seed * 7;
      const rand = (k: number) => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) % k;
      const boxes = Array.from({ length: 1 + rand(2) }, () => {
        const x0 = rand(1100) - 50 + rand(100) / 100;
        const y0 = rand(1100) - 50 + rand(100) / 100;
        return { x0, y0, x1: x0 + rand(300), y1: y0 + rand(300) };
      });
      const expected: number[] = [];
      for (let n = 0; n < nodes; n++) {
        const b = i.box.subarray(4 * n, 4 * n + 4);
        if (boxes.some((q) => b[2]! >= q.x0 && b[0]! <= q.x1 && b[3]! >= q.y0 && b[1]! <= q.y1)) expected.push(n);
      }
      expect(Array.from(nodesIn(i, level.cells, boxes))).toEqual(expected);
    }
  });

  it('keeps each node’s rings and box: two rings of node 1, none of node 0', () => {
    const level = { cells: 16, points: [1, 1, 3, 1, 3, 4, 5, 5, 6, 5, 6, 9], rings: [0, 3, 6], ringNode: [1, 1] };
    const i = indexLevel(level, 2);
    expect(Array.from(i.start)).toEqual([0, 0, 2]);
    expect(Array.from(i.list)).toEqual([0, 1]);
    expect(Array.from(i.box.subarray(4, 8))).toEqual([1, 1, 6, 9]);
    expect(Number.isNaN(i.box[0])).toBe(true);
    expect(Array.from(nodesIn(i, 16, [{ x0: 0, y0: 0, x1: 16, y1: 16 }]))).toEqual([1]);
  });
});
