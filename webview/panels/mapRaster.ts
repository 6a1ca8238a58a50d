import type { LevelIndex } from './levelIndex.js';

/**
 * The precinct map drawn into pixels by hand. Path2D fills and strokes cost ~6 µs a precinct in
 * Chromium's software canvas (10 000 precincts: 58 ms a frame), far from 30 frames a second at
 * 150 000. Here each precinct is scan-converted into a buffer of node ids (even-odd over all its
 * rings, so holes stay open), and a colour pass turns ids into pixels: a district boundary is any
 * pixel whose neighbour is in another district (or outside), so boundaries cost one comparison a
 * pixel, a hover is a lookup, and a new plan recolours only the boxes of the precincts that changed.
 */

/** Grid → device pixels: x = a·gx + bx, y = by − a·gy. */
export interface Transform {
  readonly a: number;
  readonly bx: number;
  readonly by: number;
}

/** One level of ring geometry in grid units (PlanMapLevel's arrays). */
export interface RingSet {
  readonly points: ArrayLike<number>;
  readonly rings: ArrayLike<number>;
}

/** Packed 0xAABBGGRR colours, as a little-endian Uint32Array over ImageData sees them. */
export interface Palette {
  /** A node's fill by its value. */
  fill(value: number): number;
  readonly background: number;
  readonly boundary: number;
  readonly outline: number;
  readonly selected: number;
}

export class MapRaster {
  /** Node id per pixel, −1 where no precinct is. */
  readonly node: Int32Array;
  readonly image: ImageData;
  private readonly px: Uint32Array;
  private xs: Float64Array = new Float64Array(64);

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.node = new Int32Array(width * height);
    this.image = new ImageData(width, height);
    this.px = new Uint32Array(this.image.data.buffer);
  }

  clear(): void {
    this.node.fill(-1);
  }

  /**
   * Writes node `n` (its rings in `index`, points in `set`) into the id buffer; returns false when it
   * is out of view. A precinct that covers no pixel centre still gets the pixel under its middle, so
   * no precinct vanishes when zoomed out.
   */
  scan(n: number, set: RingSet, index: LevelIndex, t: Transform): boolean {
    const { points, rings } = set;
    const { list: ringList, box } = index;
    const from = index.start[n]!;
    const to = index.start[n + 1]!;
    // The box scaled, not the points: a > 0 keeps min and max where they were, and most precincts need nothing more.
    const x0 = t.a * box[4 * n]! + t.bx;
    const x1 = t.a * box[4 * n + 2]! + t.bx;
    const y0 = t.by - t.a * box[4 * n + 3]!;
    const y1 = t.by - t.a * box[4 * n + 1]!;
    const W = this.width;
    const H = this.height;
    if (x1 < 0 || y1 < 0 || x0 >= W || y0 >= H) return false;
    let painted = false;
    const rowFrom = Math.max(0, Math.ceil(y0 - 0.5));
    const rowTo = Math.min(H - 1, Math.floor(y1 - 0.5));
    // A precinct within a pixel or two (most of them, zoomed out): its box is as good as its shape.
    const small = x1 - x0 < 2 && y1 - y0 < 2;
    for (let row = rowFrom; row <= rowTo && small; row++) {
      const c0 = Math.max(0, Math.ceil(x0 - 0.5));
      const c1 = Math.min(W - 1, Math.floor(x1 - 0.5));
      if (c1 >= c0) {
        this.node.fill(n, row * W + c0, row * W + c1 + 1);
        painted = true;
      }
    }
    for (let row = rowFrom; row <= rowTo && !small; row++) {
      const sy = row + 0.5;
      let m = 0;
      for (let k = from; k < to; k++) {
        const r = ringList[k]!;
        const a = rings[r]!;
        const b = rings[r + 1]!;
        if (b - a < 3) continue;
        let qx = t.a * points[2 * (b - 1)]! + t.bx;
        let qy = t.by - t.a * points[2 * (b - 1) + 1]!;
        for (let p = a; p < b; p++) {
          const px = t.a * points[2 * p]! + t.bx;
          const py = t.by - t.a * points[2 * p + 1]!;
          if (py <= sy !== qy <= sy) {
            if (m === this.xs.length) this.xs = grow(this.xs);
            this.xs[m++] = px + ((sy - py) * (qx - px)) / (qy - py);
          }
          qx = px;
          qy = py;
        }
      }
      if (m < 2) continue;
      const xs = this.xs.subarray(0, m).sort();
      for (let e = 0; e + 1 < m; e += 2) {
        const c0 = Math.max(0, Math.ceil(xs[e]! - 0.5));
        const c1 = Math.min(W - 1, Math.floor(xs[e + 1]! - 0.5));
        if (c1 >= c0) {
          this.node.fill(n, row * W + c0, row * W + c1 + 1);
          painted = true;
        }
      }
    }
    if (!painted) {
      const cx = Math.floor((x0 + x1) / 2);
      const cy = Math.floor((y0 + y1) / 2);
      if (cx >= 0 && cy >= 0 && cx < W && cy < H) this.node[cy * W + cx] = n;
    }
    return true;
  }

  /**
   * Moves what is drawn by (dx, dy) pixels (a pan): ids and colours both; the strips uncovered
   * are left without ids for the caller to scan and colour. Returns those strips.
   */
  shift(dx: number, dy: number): { x0: number; y0: number; x1: number; y1: number }[] {
    const { node, px, width: W, height: H } = this;
    const down = dy >= 0;
    for (let k = 0; k < H; k++) {
      const y = down ? H - 1 - k : k;
      const src = y - dy;
      const row = y * W;
      if (src < 0 || src >= H) {
        node.fill(-1, row, row + W);
        continue;
      }
      const from = src * W + Math.max(0, -dx);
      const to = src * W + Math.min(W, W - dx);
      node.copyWithin(row + Math.max(0, dx), from, to);
      px.copyWithin(row + Math.max(0, dx), from, to);
      if (dx > 0) node.fill(-1, row, row + dx);
      if (dx < 0) node.fill(-1, row + W + dx, row + W);
    }
    const strips: { x0: number; y0: number; x1: number; y1: number }[] = [];
    if (dy > 0) strips.push({ x0: 0, y0: 0, x1: W - 1, y1: dy - 1 });
    if (dy < 0) strips.push({ x0: 0, y0: H + dy, x1: W - 1, y1: H - 1 });
    if (dx > 0) strips.push({ x0: 0, y0: 0, x1: dx - 1, y1: H - 1 });
    if (dx < 0) strips.push({ x0: W + dx, y0: 0, x1: W - 1, y1: H - 1 });
    return strips;
  }

  /**
   * Colours the pixels of a box from the ids: the node's fill, or the boundary colour where a
   * neighbour (4-connected) lies in another district or outside (`districts`), the selected
   * colour where that boundary is the selected district's, and the outline colour between two
   * precincts of one district (`outlines`).
   */
  colour(
    values: ArrayLike<number>,
    palette: Palette,
    opts: { districts: boolean; outlines: boolean; selected?: number },
    box = { x0: 0, y0: 0, x1: this.width - 1, y1: this.height - 1 },
  ): void {
    const { node, px, width: W, height: H } = this;
    const sel = opts.selected;
    // The fill of the last value: neighbouring pixels are mostly one precinct, and fill() allocates.
    let lastV = NaN;
    let lastC = 0;
    let n0 = -1;
    let v0 = 0;
    const { districts, outlines } = opts;
    const kind = (m: number): number => {
      if (m === n0) return 0;
      if (m < 0) return sel === v0 ? 6 : 2;
      const w = values[m]!;
      if (districts && w !== v0) return sel !== undefined && (v0 === sel || w === sel) ? 6 : 2;
      return outlines ? 1 : 0;
    };
    for (let y = Math.max(0, box.y0); y <= Math.min(H - 1, box.y1); y++) {
      for (let x = Math.max(0, box.x0); x <= Math.min(W - 1, box.x1); x++) {
        const k = y * W + x;
        const n = node[k]!;
        if (n < 0) {
          px[k] = palette.background;
          continue;
        }
        const v = values[n]!;
        if (v !== lastV) {
          lastV = v;
          lastC = palette.fill(v);
        }
        // Past the canvas edge counts as the same precinct: the view cuts the map, no boundary there.
        n0 = n;
        v0 = v;
        const right = x + 1 < W ? node[k + 1]! : n;
        const left = x > 0 ? node[k - 1]! : n;
        const down = y + 1 < H ? node[k + W]! : n;
        const up = y > 0 ? node[k - W]! : n;
        if (right === n && left === n && down === n && up === n) {
          px[k] = lastC;
          continue;
        }
        // Bits: 1 an outline, 2 a district boundary, 4 the selected district's.
        const f = kind(right) | kind(left) | kind(down) | kind(up);
        px[k] = f & 4 ? palette.selected : f & 2 ? palette.boundary : f & 1 ? palette.outline : lastC;
      }
    }
  }
}

function grow(a: Float64Array): Float64Array {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
}

/** A CSS colour at `alpha` over `background`, packed; read through a 1×1 canvas so any CSS colour works. */
export function packColour(css: string, alpha = 1, background?: number): number {
  const c = document.createElement('canvas');
  c.width = 1;
  c.height = 1;
  const g = c.getContext('2d', { willReadFrequently: true });
  if (!g) return 0xff808080;
  g.fillStyle = css;
  g.fillRect(0, 0, 1, 1);
  const [r, gr, b] = g.getImageData(0, 0, 1, 1).data;
  if (background === undefined || alpha >= 1) return (0xff000000 | (b! << 16) | (gr! << 8) | r!) >>> 0;
  const mix = (fg: number, shift: number) => Math.round(alpha * fg + (1 - alpha) * ((background >>> shift) & 0xff));
  return (0xff000000 | (mix(b!, 16) << 16) | (mix(gr!, 8) << 8) | mix(r!, 0)) >>> 0;
}
