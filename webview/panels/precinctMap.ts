import * as l10n from '@vscode/l10n';
import { PLAN_MAP_PARAM, type PlanPanelData } from '../../src/shared/protocol.js';
import { h } from '../dom.js';
import type { PanelContext } from './index.js';
import { type View, panZoom } from './panZoom.js';

type MapData = NonNullable<PlanPanelData['map']>;
type Level = MapData['levels'][number];

/** A precinct's fill: `key` groups precincts filled alike into one path. */
export interface Fill {
  readonly key: number;
  readonly colour: string;
  readonly alpha: number;
}

const W = 720;
const H = 480;
const PAD = 10;
/** Above this many visible precincts the thin precinct outlines are left out (they would grey the map). */
const OUTLINED = 4000;
/** A step that changes more than this share of precincts repaints the whole view. */
const PARTIAL = 0.2;

/** The map the host sent last: later responses name it by key only (PLAN_MAP_PARAM). */
let held: MapData | undefined;
/** The map on screen, kept across the panel's redraws so a step repaints only the changed precincts. */
let live: PrecinctMapView | undefined;

/**
 * The plan over its precincts, or undefined when the response names a map this page does not
 * hold (it then asks again without the key). The first response's map is kept and the panel
 * told, so the next steps carry only the plan.
 */
export function renderPrecinctMap(data: PlanPanelData, ctx: PanelContext, fill: (v: number) => Fill, colours: { background: string; boundary: string; outline: string; selected: string }): HTMLElement | undefined {
  if (data.map) {
    held = data.map;
    const key = data.map.key;
    // After this render: the request it causes answers with the key alone, and the view stays.
    queueMicrotask(() => ctx.set(PLAN_MAP_PARAM, key));
  }
  const map = held && held.key === data.mapKey ? held : undefined;
  if (!map) {
    if (data.mapKey) queueMicrotask(() => ctx.set(PLAN_MAP_PARAM, ''));
    return undefined;
  }
  if (live && live.map === map && live.mode === data.mode) live.update(data.values, fill);
  else live = new PrecinctMapView(map, data.mode, data.values, fill, colours, data.caption);
  return live.element;
}

/** Per level, what drawing and hit tests look up: ring boxes, a node's rings and its boundary segments. */
interface LevelIndex {
  readonly box: Float32Array;
  readonly nodeRings: { readonly start: Uint32Array; readonly list: Uint32Array };
  readonly nodeSegs: { readonly start: Uint32Array; readonly list: Uint32Array };
}

function csr(nodes: number, count: number, each: (emit: (node: number, item: number) => void) => void): { start: Uint32Array; list: Uint32Array } {
  const start = new Uint32Array(nodes + 1);
  each((n) => start[n + 1]!++);
  for (let i = 0; i < nodes; i++) start[i + 1]! += start[i]!;
  const fillAt = start.slice(0, nodes);
  const list = new Uint32Array(count);
  each((n, item) => (list[fillAt[n]!++] = item));
  return { start, list };
}

function indexLevel(l: Level, nodes: number): LevelIndex {
  const R = l.rings.length - 1;
  const box = new Float32Array(4 * R);
  for (let r = 0; r < R; r++) {
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let p = l.rings[r]!; p < l.rings[r + 1]!; p++) {
      const x = l.points[2 * p]!;
      const y = l.points[2 * p + 1]!;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
    box.set([x0, y0, x1 + (x1 === x0 ? 1 : 0), y1 + (y1 === y0 ? 1 : 0)], 4 * r);
  }
  const S = l.segments.length / 4;
  return {
    box,
    nodeRings: csr(nodes, R, (emit) => {
      for (let r = 0; r < R; r++) emit(l.ringNode[r]!, r);
    }),
    nodeSegs: csr(nodes, S * 2 - countOutside(l), (emit) => {
      for (let s = 0; s < S; s++) {
        emit(l.segments[4 * s + 2]!, s);
        if (l.segments[4 * s + 3]! >= 0) emit(l.segments[4 * s + 3]!, s);
      }
    }),
  };
}

function countOutside(l: Level): number {
  let n = 0;
  for (let s = 3; s < l.segments.length; s += 4) if (l.segments[s]! < 0) n++;
  return n;
}

/**
 * A canvas of filled precincts with district boundaries drawn bold. Each view draws the coarsest
 * level whose grid cell is at most a pixel, only the precincts whose box is in view, one path per
 * fill. Pan and zoom come from panZoom (drag, wheel, arrows, + − 0); hover names the precinct in a
 * tooltip and the status line; a click (or Enter, for the precinct in the centre) selects its district.
 */
class PrecinctMapView {
  readonly element: HTMLElement;
  private readonly g: CanvasRenderingContext2D | null;
  private readonly index = new Map<number, LevelIndex>();
  private readonly tooltip: HTMLElement;
  private readonly status: HTMLElement;
  private readonly fit: { s: number; ox: number; oy: number };
  private view: View = { x: 0, y: 0, w: W, h: H };
  private frame = 0;
  private selected: number | undefined;
  private hovered = -1;
  /** Whether the last full view showed few enough precincts to outline each. */
  private outlined = false;
  private readonly canvas: HTMLCanvasElement;
  private readonly frames = { full: 0, partial: 0, fullMs: 0, partialMs: 0 };

  constructor(
    readonly map: MapData,
    readonly mode: PlanPanelData['mode'],
    private values: readonly number[],
    private fill: (v: number) => Fill,
    private readonly colours: { background: string; boundary: string; outline: string; selected: string },
    caption: string,
  ) {
    const dpr = Math.min(2, globalThis.devicePixelRatio || 1);
    const canvas = h('canvas', { width: Math.round(W * dpr), height: Math.round(H * dpr), tabindex: 0, role: 'img', class: 'precinct-map', 'aria-label': l10n.t('precinct map: {0}. Arrow keys pan, + and − zoom, 0 fits, Enter selects the district in the centre', caption) });
    canvas.style.width = '100%';
    canvas.style.maxWidth = `${W}px`;
    this.canvas = canvas;
    this.g = canvas.getContext('2d');
    this.g?.setTransform(dpr, 0, 0, dpr, 0, 0);
    const s = Math.min((W - 2 * PAD) / map.width, (H - 2 * PAD) / map.height);
    this.fit = { s, ox: (W - map.width * s) / 2, oy: (H - map.height * s) / 2 };
    this.tooltip = h('div', { class: 'map-tooltip', hidden: true, 'aria-hidden': 'true' });
    this.status = h('p', { class: 'map-status', role: 'status', 'aria-live': 'polite' });
    this.element = h('figure', { class: 'plan-map precinct-map-figure' }, canvas, this.tooltip, this.status);
    // Zoom in until a precinct of the finest level spans many pixels: 1/4 of a cell of the finest grid per view width.
    const finest = map.levels.at(-1)?.cells ?? 256;
    panZoom(canvas, { width: W, height: H }, { start: { w: W, h: H }, minWidth: Math.max(1e-3, (W * 4) / finest), onView: (v) => ((this.view = v), this.schedule()) });
    this.pointer(canvas);
    this.draw();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** Screen = a·(grid x) + bx, by − a·(grid y) for the level of `cells`. */
  private transform(cells: number): { a: number; bx: number; by: number } {
    const k = W / this.view.w;
    const a = (this.fit.s * k) / cells;
    return { a, bx: (this.fit.ox - this.view.x) * k, by: (this.fit.oy + this.map.height * this.fit.s - this.view.y) * k };
  }

  /** The coarsest level whose cell is at most a pixel (else the finest). */
  private level(): { l: Level; i: LevelIndex } {
    const px = (this.fit.s * W) / this.view.w;
    let at = this.map.levels.findIndex((l) => l.cells >= px);
    if (at < 0) at = this.map.levels.length - 1;
    let i = this.index.get(at);
    if (!i) this.index.set(at, (i = indexLevel(this.map.levels[at]!, this.map.ids.length)));
    return { l: this.map.levels[at]!, i };
  }

  /** Rings in view (those listed, or all when `rings` is a count), added to one path per fill; returns how many. */
  private fillRings(rings: readonly number[] | number, l: Level, i: LevelIndex, t: { a: number; bx: number; by: number }, paths: Map<number, { f: Fill; p: Path2D }>, clear?: Path2D): number {
    const [vx0, vx1] = [(0 - t.bx) / t.a, (W - t.bx) / t.a];
    const [vy0, vy1] = [(t.by - H) / t.a, t.by / t.a];
    const cell = Math.max(1, t.a);
    let drawn = 0;
    const count = typeof rings === 'number' ? rings : rings.length;
    for (let k = 0; k < count; k++) {
      const r = typeof rings === 'number' ? k : rings[k]!;
      if (i.box[4 * r + 2]! < vx0 || i.box[4 * r]! > vx1 || i.box[4 * r + 3]! < vy0 || i.box[4 * r + 1]! > vy1) continue;
      const f = this.fill(this.values[l.ringNode[r]!] ?? 0);
      let e = paths.get(f.key);
      if (!e) paths.set(f.key, (e = { f, p: new Path2D() }));
      const a = l.rings[r]!;
      const b = l.rings[r + 1]!;
      for (const p of clear ? [e.p, clear] : [e.p]) {
        if (b - a === 1) p.rect(t.bx + l.points[2 * a]! * t.a, t.by - l.points[2 * a + 1]! * t.a - cell, cell, cell);
        else {
          p.moveTo(t.bx + l.points[2 * a]! * t.a, t.by - l.points[2 * a + 1]! * t.a);
          for (let q = a + 1; q < b; q++) p.lineTo(t.bx + l.points[2 * q]! * t.a, t.by - l.points[2 * q + 1]! * t.a);
          p.closePath();
        }
      }
      drawn++;
    }
    return drawn;
  }

  private paintFills(g: CanvasRenderingContext2D, paths: Map<number, { f: Fill; p: Path2D }>): void {
    for (const { f, p } of paths.values()) {
      g.fillStyle = f.colour;
      g.globalAlpha = f.alpha;
      g.fill(p, 'evenodd');
    }
    g.globalAlpha = 1;
  }

  /** Boundary segments among `segs`: district boundaries bold, and (when few precincts show) every precinct's outline thin. */
  private strokeSegments(g: CanvasRenderingContext2D, segs: readonly number[] | number, l: Level, t: { a: number; bx: number; by: number }, outlines: boolean): void {
    const bold = new Path2D();
    const thin = new Path2D();
    const sel = new Path2D();
    const v = this.values;
    const count = typeof segs === 'number' ? segs : segs.length;
    for (let k = 0; k < count; k++) {
      const s = typeof segs === 'number' ? k : segs[k]!;
      const [p, q, a, b] = [l.segments[4 * s]!, l.segments[4 * s + 1]!, l.segments[4 * s + 2]!, l.segments[4 * s + 3]!];
      const x1 = t.bx + l.points[2 * p]! * t.a;
      const y1 = t.by - l.points[2 * p + 1]! * t.a;
      const x2 = t.bx + l.points[2 * q]! * t.a;
      const y2 = t.by - l.points[2 * q + 1]! * t.a;
      if ((x1 < 0 && x2 < 0) || (x1 > W && x2 > W) || (y1 < 0 && y2 < 0) || (y1 > H && y2 > H)) continue;
      const da = v[a];
      const db = b < 0 ? undefined : v[b];
      const path = da !== db ? bold : outlines ? thin : undefined;
      path?.moveTo(x1, y1);
      path?.lineTo(x2, y2);
      if (this.selected !== undefined && da !== db && (da === this.selected || db === this.selected)) {
        sel.moveTo(x1, y1);
        sel.lineTo(x2, y2);
      }
    }
    g.lineJoin = 'round';
    if (outlines) {
      g.strokeStyle = this.colours.outline;
      g.globalAlpha = 0.5;
      g.lineWidth = 0.5;
      g.stroke(thin);
      g.globalAlpha = 1;
    }
    g.strokeStyle = this.colours.boundary;
    g.lineWidth = 2;
    g.stroke(bold);
    if (this.selected !== undefined) {
      g.strokeStyle = this.colours.selected;
      g.lineWidth = 3.5;
      g.stroke(sel);
    }
  }

  /** The whole view. */
  draw(): void {
    const g = this.g;
    if (!g) return;
    const t0 = performance.now();
    const { l, i } = this.level();
    const t = this.transform(l.cells);
    g.globalAlpha = 1;
    g.fillStyle = this.colours.background;
    g.fillRect(0, 0, W, H);
    const paths = new Map<number, { f: Fill; p: Path2D }>();
    const R = l.rings.length - 1;
    this.outlined = this.fillRings(R, l, i, t, paths) <= OUTLINED;
    this.paintFills(g, paths);
    this.strokeSegments(g, l.segments.length / 4, l, t, this.outlined);
    this.count('full', t0);
  }

  /** Frame counts and times on the canvas (data-frames), where the webview bench reads them. */
  private count(kind: 'full' | 'partial', t0: number): void {
    this.frames[kind]++;
    this.frames[`${kind}Ms`] += performance.now() - t0;
    this.canvas.dataset.frames = JSON.stringify(this.frames);
  }

  /** A new plan: repaints the changed precincts and their neighbours (their shared boundaries may have appeared or gone). */
  update(values: readonly number[], fill: (v: number) => Fill): void {
    const before = this.values;
    this.values = values;
    this.fill = fill;
    const changed: number[] = [];
    for (let n = 0; n < values.length; n++) if (values[n] !== before[n]) changed.push(n);
    if (changed.length === 0) return;
    const g = this.g;
    if (!g || changed.length > PARTIAL * values.length || this.selected !== undefined) {
      this.draw();
      return;
    }
    const t0 = performance.now();
    const { l, i } = this.level();
    const t = this.transform(l.cells);
    const nodes = new Set<number>(changed);
    for (const n of changed) {
      for (let k = i.nodeSegs.start[n]!; k < i.nodeSegs.start[n + 1]!; k++) {
        const s = i.nodeSegs.list[k]!;
        nodes.add(l.segments[4 * s + 2]!);
        if (l.segments[4 * s + 3]! >= 0) nodes.add(l.segments[4 * s + 3]!);
      }
    }
    const rings: number[] = [];
    const segs = new Set<number>();
    for (const n of nodes) {
      for (let k = i.nodeRings.start[n]!; k < i.nodeRings.start[n + 1]!; k++) rings.push(i.nodeRings.list[k]!);
      for (let k = i.nodeSegs.start[n]!; k < i.nodeSegs.start[n + 1]!; k++) segs.add(i.nodeSegs.list[k]!);
    }
    // The old colours are painted over opaque first: fills with alpha would blend with them.
    const clear = new Path2D();
    const paths = new Map<number, { f: Fill; p: Path2D }>();
    this.fillRings(rings, l, i, t, paths, clear);
    g.fillStyle = this.colours.background;
    g.fill(clear, 'evenodd');
    this.paintFills(g, paths);
    this.strokeSegments(g, [...segs], l, t, this.outlined);
    this.count('partial', t0);
  }

  /** The node under a canvas point (CSS pixels), or −1: its rings' crossings counted even-odd, holes included. */
  nodeAt(x: number, y: number): number {
    const { l, i } = this.level();
    const t = this.transform(l.cells);
    const gx = (x - t.bx) / t.a;
    const gy = (t.by - y) / t.a;
    const inside = new Map<number, number>();
    const R = l.rings.length - 1;
    for (let r = 0; r < R; r++) {
      if (gx < i.box[4 * r]! || gx > i.box[4 * r + 2]! || gy < i.box[4 * r + 1]! || gy > i.box[4 * r + 3]!) continue;
      const a = l.rings[r]!;
      const b = l.rings[r + 1]!;
      let odd = b - a === 1;
      for (let p = a, q = b - 1; p < b; q = p++) {
        const [px, py, qx, qy] = [l.points[2 * p]!, l.points[2 * p + 1]!, l.points[2 * q]!, l.points[2 * q + 1]!];
        if (py > gy !== qy > gy && gx < ((qx - px) * (gy - py)) / (qy - py) + px) odd = !odd;
      }
      const n = l.ringNode[r]!;
      if (odd) inside.set(n, (inside.get(n) ?? 0) ^ 1);
    }
    let hit = -1;
    for (const [n, o] of inside) if (o) hit = n;
    return hit;
  }

  private describe(n: number): string {
    const attrs = this.map.columns.map((c) => `${c.name} ${c.values[n]!.toLocaleString()}`).join(', ');
    const what = this.mode === 'heat' ? l10n.t('flip share {0}', this.values[n]!.toFixed(2)) : l10n.t('district {0}', this.values[n]!);
    return `${l10n.t('node {0}', this.map.ids[n]!)}: ${what}${attrs ? `; ${attrs}` : ''}`;
  }

  private select(n: number): void {
    if (n < 0 || this.mode !== 'district') return;
    const d = this.values[n]!;
    this.selected = this.selected === d ? undefined : d;
    let count = 0;
    for (const v of this.values) if (v === d) count++;
    this.status.textContent = this.selected === undefined ? l10n.t('no district selected') : l10n.t('district {0} selected: {1} precincts', d, count);
    this.draw();
  }

  private pointer(canvas: HTMLCanvasElement): void {
    const local = (ev: MouseEvent) => {
      const box = canvas.getBoundingClientRect();
      return [((ev.clientX - box.left) / Math.max(1, box.width)) * W, ((ev.clientY - box.top) / Math.max(1, box.height)) * H] as const;
    };
    let down: { x: number; y: number } | undefined;
    canvas.addEventListener('pointerdown', (ev) => (down = { x: ev.clientX, y: ev.clientY }));
    canvas.addEventListener('pointermove', (ev) => {
      if (ev.buttons) return (this.tooltip.hidden = true);
      const [x, y] = local(ev);
      const n = this.nodeAt(x, y);
      if (n === this.hovered) return;
      this.hovered = n;
      this.tooltip.hidden = n < 0;
      if (n < 0) return;
      const text = this.describe(n);
      this.tooltip.textContent = text;
      this.tooltip.style.left = `${ev.clientX - canvas.getBoundingClientRect().left + 12}px`;
      this.tooltip.style.top = `${ev.clientY - canvas.getBoundingClientRect().top + 12}px`;
      this.status.textContent = text;
    });
    canvas.addEventListener('pointerleave', () => {
      this.tooltip.hidden = true;
      this.hovered = -1;
    });
    canvas.addEventListener('click', (ev) => {
      // A drag that panned is not a click on a precinct.
      if (down && Math.hypot(ev.clientX - down.x, ev.clientY - down.y) > 4) return;
      const [x, y] = local(ev);
      this.select(this.nodeAt(x, y));
    });
    canvas.addEventListener('keydown', (ev) => {
      if (ev.key !== 'Enter' && ev.key !== ' ') return;
      ev.preventDefault();
      const n = this.nodeAt(W / 2, H / 2);
      if (n < 0) this.status.textContent = l10n.t('no precinct in the centre of the view');
      else {
        this.status.textContent = this.describe(n);
        this.select(n);
      }
    });
  }
}

