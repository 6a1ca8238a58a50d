/**
 * One map level indexed for drawing: each node's rings and box, and the nodes bucketed on a coarse
 * grid by their box's lower corner, so a pan's strips visit the few thousand precincts near them
 * instead of testing all 150 000 boxes each frame.
 */
import type { RingSet } from './mapRaster.js';

/** A level's rings, their nodes and its grid's width (PlanMapLevel). */
export interface LevelRings extends RingSet {
  readonly cells: number;
  readonly ringNode: ArrayLike<number>;
}

export interface LevelIndex {
  /** Node n's rings are `list[start[n]..start[n + 1])`. */
  readonly start: Uint32Array;
  readonly list: Uint32Array;
  /** Node n's box in grid units at 4n: x0, y0, x1, y1 (NaN for a node without rings at this level). */
  readonly box: Float32Array;
  /** Bucket k's nodes are `bucketNodes[bucketStart[k]..bucketStart[k + 1])`, ascending. */
  readonly bucketStart: Uint32Array;
  readonly bucketNodes: Uint32Array;
  /** The widest and tallest bucketed box: how far before a box's bucket a node may still reach into it (a unit more is searched, for rounding). */
  readonly reach: { readonly x: number; readonly y: number };
  /** Nodes wider or taller than BIG buckets (a rural precinct among city blocks): tested on every query, so they do not widen `reach`. */
  readonly big: Uint32Array;
}

/** Buckets per side: 16 384 in all, a few precincts each at 150 000. */
const BUCKETS = 128;
/** A box more than this many buckets across is kept out of the buckets (LevelIndex.big). */
const BIG = 4;

export function indexLevel(l: LevelRings, nodes: number): LevelIndex {
  const R = l.rings.length - 1;
  const start = new Uint32Array(nodes + 1);
  for (let r = 0; r < R; r++) start[l.ringNode[r]! + 1]!++;
  for (let n = 0; n < nodes; n++) start[n + 1]! += start[n]!;
  const at = start.slice(0, nodes);
  const list = new Uint32Array(R);
  for (let r = 0; r < R; r++) list[at[l.ringNode[r]!]!++] = r;
  const box = new Float32Array(4 * nodes).fill(NaN);
  for (let r = 0; r < R; r++) {
    const b = 4 * l.ringNode[r]!;
    for (let p = l.rings[r]!; p < l.rings[r + 1]!; p++) {
      const x = l.points[2 * p]!;
      const y = l.points[2 * p + 1]!;
      if (!(box[b]! <= x)) box[b] = x;
      if (!(box[b + 1]! <= y)) box[b + 1] = y;
      if (!(box[b + 2]! >= x)) box[b + 2] = x;
      if (!(box[b + 3]! >= y)) box[b + 3] = y;
    }
  }
  return { start, list, box, ...buckets(box, nodes, l.cells) };
}

function bucketOf(v: number, cells: number): number {
  return Math.min(BUCKETS - 1, Math.max(0, Math.floor((v * BUCKETS) / cells)));
}

function buckets(box: Float32Array, nodes: number, cells: number): Pick<LevelIndex, 'bucketStart' | 'bucketNodes' | 'reach' | 'big'> {
  const key = new Int32Array(nodes).fill(-1);
  const bucketStart = new Uint32Array(BUCKETS * BUCKETS + 1);
  const limit = (BIG * cells) / BUCKETS;
  const big: number[] = [];
  let x = 0;
  let y = 0;
  for (let n = 0; n < nodes; n++) {
    const b = 4 * n;
    if (Number.isNaN(box[b])) continue;
    if (box[b + 2]! - box[b]! > limit || box[b + 3]! - box[b + 1]! > limit) {
      big.push(n);
      continue;
    }
    key[n] = bucketOf(box[b + 1]!, cells) * BUCKETS + bucketOf(box[b]!, cells);
    bucketStart[key[n]! + 1]!++;
    x = Math.max(x, box[b + 2]! - box[b]!);
    y = Math.max(y, box[b + 3]! - box[b + 1]!);
  }
  for (let k = 0; k < BUCKETS * BUCKETS; k++) bucketStart[k + 1]! += bucketStart[k]!;
  const at = bucketStart.slice(0, BUCKETS * BUCKETS);
  const bucketNodes = new Uint32Array(bucketStart[BUCKETS * BUCKETS]!);
  for (let n = 0; n < nodes; n++) if (key[n]! >= 0) bucketNodes[at[key[n]!]!++] = n;
  return { bucketStart, bucketNodes, reach: { x, y }, big: Uint32Array.from(big) };
}

/**
 * The nodes whose box meets any of `boxes` (grid units, x0 ≤ x1, y0 ≤ y1), ascending and each once:
 * drawn in node order, as a scan of every node would, so where two precincts share a pixel the
 * same one wins.
 */
export function nodesIn(i: LevelIndex, cells: number, boxes: readonly { x0: number; y0: number; x1: number; y1: number }[]): Uint32Array {
  const { box, bucketStart, bucketNodes, reach, big } = i;
  let out = new Uint32Array(1024);
  let m = 0;
  const take = (n: number, q: { x0: number; y0: number; x1: number; y1: number }) => {
    const b = 4 * n;
    if (!(box[b + 2]! >= q.x0 && box[b]! <= q.x1 && box[b + 3]! >= q.y0 && box[b + 1]! <= q.y1)) return;
    if (m === out.length) {
      const grown = new Uint32Array(2 * m);
      grown.set(out);
      out = grown;
    }
    out[m++] = n;
  };
  for (const q of boxes) {
    const bx1 = bucketOf(q.x1, cells);
    const by1 = bucketOf(q.y1, cells);
    for (let by = bucketOf(q.y0 - reach.y - 1, cells); by <= by1; by++) {
      for (let bx = bucketOf(q.x0 - reach.x - 1, cells); bx <= bx1; bx++) {
        const k = by * BUCKETS + bx;
        for (let j = bucketStart[k]!; j < bucketStart[k + 1]!; j++) take(bucketNodes[j]!, q);
      }
    }
    for (const n of big) take(n, q);
  }
  const sorted = out.subarray(0, m).sort();
  // A node in two boxes (a pan's row and column strips) is drawn once.
  let u = 0;
  for (let j = 0; j < m; j++) if (u === 0 || sorted[j] !== sorted[u - 1]) sorted[u++] = sorted[j]!;
  return sorted.subarray(0, u);
}
