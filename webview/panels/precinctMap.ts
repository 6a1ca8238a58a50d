import * as l10n from '@vscode/l10n';
import { PLAN_MAP_PARAM, type PlanPanelData } from '../../src/protocol/protocol.js';
import { h } from '../dom.js';
import type { PanelContext } from './index.js';
import { type LevelIndex, indexLevel, nodesIn } from './levelIndex.js';
import { MapRaster, type Palette, type Transform, packColour } from './mapRaster.js';
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
/** A step that changes more than this share of precincts recolours the whole view. */
const PARTIAL = 0.05;

/** The map the host sent last: later responses name it by key only (PLAN_MAP_PARAM). */
let held: MapData | undefined;
/** The map on screen, kept across the panel's redraws so a step repaints only the changed precincts. */
let live: PrecinctMapView | undefined;

/**
 * The plan over its precincts, or undefined when the response names a map this page does not
 * hold (it then asks again without the key). The first response's map is kept and the panel
 * told, so the next steps carry only the plan.
 */
export function renderPrecinctMap(
  data: PlanPanelData,
  ctx: PanelContext,
  fill: (v: number) => Fill,
  colours: { background: string; boundary: string; outline: string; selected: string },
): HTMLElement | undefined {
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

/**
 * The precinct map on a canvas (mapRaster.ts draws it). Each view scans the coarsest level whose
 * grid cell is at most a pixel, only the precincts whose box is in view. Pan and zoom come from
 * panZoom (drag, wheel, arrows, + − 0); hover names the precinct in a tooltip and the status line;
 * a click (or Enter, for the precinct in the centre) selects its district.
 */
class PrecinctMapView {
  readonly element: HTMLElement;
  private readonly g: CanvasRenderingContext2D | null;
  private readonly canvas: HTMLCanvasElement;
  private readonly raster: MapRaster;
  private readonly dpr: number;
  private readonly index = new Map<number, LevelIndex>();
  private readonly tooltip: HTMLElement;
  private readonly status: HTMLElement;
  private readonly fit: { s: number; ox: number; oy: number };
  private palette: Palette;
  private view: View = { x: 0, y: 0, w: W, h: H };
  private frame = 0;
  private selected: number | undefined;
  private hovered = -1;
  /** Whether the last view showed few enough precincts to outline each. */
  private outlined = false;
  /** The level and transform of the last scan, for partial recolouring. */
  private drawn: { i: LevelIndex; t: Transform } | undefined;
  private readonly frames = { full: 0, partial: 0, fullMs: 0, partialMs: 0, scanMs: 0 };

  constructor(
    readonly map: MapData,
    readonly mode: PlanPanelData['mode'],
    private values: readonly number[],
    fill: (v: number) => Fill,
    private readonly colours: { background: string; boundary: string; outline: string; selected: string },
    caption: string,
  ) {
    this.dpr = Math.min(2, globalThis.devicePixelRatio || 1);
    const canvas = h('canvas', {
      width: Math.round(W * this.dpr),
      height: Math.round(H * this.dpr),
      tabindex: 0,
      role: 'img',
      class: 'precinct-map',
      'aria-label': l10n.t('precinct map: {0}. Arrow keys pan, + and − zoom, 0 fits, Enter selects the district in the centre', caption),
    });
    canvas.style.width = '100%';
    canvas.style.maxWidth = `${W}px`;
    this.canvas = canvas;
    this.g = canvas.getContext('2d');
    this.raster = new MapRaster(canvas.width, canvas.height);
    this.palette = this.paletteOf(fill);
    const s = Math.min((W - 2 * PAD) / map.width, (H - 2 * PAD) / map.height);
    this.fit = { s, ox: (W - map.width * s) / 2, oy: (H - map.height * s) / 2 };
    this.tooltip = h('div', { class: 'map-tooltip', hidden: true, 'aria-hidden': 'true' });
    this.status = h('p', { class: 'map-status', role: 'status', 'aria-live': 'polite' });
    this.element = h('figure', { class: 'plan-map precinct-map-figure' }, canvas, this.tooltip, this.status);
    // Zoom in until a cell of the finest grid spans a quarter of the view.
    const finest = map.levels.at(-1)?.cells ?? 256;
    panZoom(
      canvas,
      { width: W, height: H },
      { start: { w: W, h: H }, minWidth: Math.max(1e-3, (W * 4) / finest), onView: (v) => ((this.view = v), this.schedule()) },
    );
    this.pointer(canvas);
    this.draw();
  }

  private paletteOf(fill: (v: number) => Fill): Palette {
    const background = packColour(this.colours.background);
    const byKey = new Map<number, number>();
    return {
      background,
      boundary: packColour(this.colours.boundary),
      outline: packColour(this.colours.outline, 0.45, background),
      selected: packColour(this.colours.selected),
      fill: (v) => {
        const f = fill(v);
        let c = byKey.get(f.key);
        if (c === undefined) byKey.set(f.key, (c = packColour(f.colour, f.alpha, background)));
        return c;
      },
    };
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** The coarsest level whose cell is at most a pixel (else the finest), with its index. */
  private level(): { l: Level; i: LevelIndex } {
    const px = (this.fit.s * W * this.dpr) / this.view.w;
    let at = this.map.levels.findIndex((l) => l.cells >= px);
    if (at < 0) at = this.map.levels.length - 1;
    let i = this.index.get(at);
    if (!i) this.index.set(at, (i = indexLevel(this.map.levels[at]!, this.map.ids.length)));
    return { l: this.map.levels[at]!, i };
  }

  /** Grid units of the level of `cells` → device pixels. */
  private transform(cells: number): Transform {
    const k = (W / this.view.w) * this.dpr;
    const a = (this.fit.s * k) / cells;
    return { a, bx: (this.fit.ox - this.view.x) * k, by: (this.fit.oy + this.map.height * this.fit.s - this.view.y) * k };
  }

  private options(): { districts: boolean; outlines: boolean; selected?: number } {
    return { districts: this.mode === 'district', outlines: this.outlined, selected: this.selected };
  }

  /** The view: a pan at the same zoom shifts what is drawn and scans only the uncovered strips; else everything. */
  draw(): void {
    const g = this.g;
    if (!g) return;
    const t0 = performance.now();
    const { l, i } = this.level();
    let t = this.transform(l.cells);
    const r = this.raster;
    const before = this.drawn;
    const dx = before ? Math.round(t.bx - before.t.bx) : 0;
    const dy = before ? Math.round(t.by - before.t.by) : 0;
    if (before && before.i === i && before.t.a === t.a && Math.abs(dx) < r.width / 2 && Math.abs(dy) < r.height / 2) {
      // The buffer keeps its own transform, moved by whole pixels: within half a pixel of the view's.
      t = { a: t.a, bx: before.t.bx + dx, by: before.t.by + dy };
      const strips = r.shift(dx, dy);
      this.scanIn(l, i, t, strips);
      this.frames.scanMs += performance.now() - t0;
      // Only the strips (a pixel wider: boundaries there) are coloured anew; shift moved the rest of the image.
      // One put of the whole image: drawing the canvas onto itself and putting the strips took 5× longer in Chromium.
      for (const s of strips) r.colour(this.values, this.palette, this.options(), { x0: s.x0 - 1, y0: s.y0 - 1, x1: s.x1 + 1, y1: s.y1 + 1 });
      g.putImageData(r.image, 0, 0);
    } else {
      r.clear();
      this.outlined = this.scanIn(l, i, t, [{ x0: 0, y0: 0, x1: r.width - 1, y1: r.height - 1 }]) <= OUTLINED;
      this.frames.scanMs += performance.now() - t0;
      r.colour(this.values, this.palette, this.options());
      g.putImageData(r.image, 0, 0);
    }
    this.drawn = { i, t };
    this.count('full', t0);
  }

  /** Scans the precincts whose box meets any of the pixel boxes; returns how many. */
  private scanIn(l: Level, i: LevelIndex, t: Transform, boxes: readonly { x0: number; y0: number; x1: number; y1: number }[]): number {
    const grid = boxes.map((s) => ({ x0: (s.x0 - t.bx) / t.a, x1: (s.x1 + 1 - t.bx) / t.a, y0: (t.by - s.y1 - 1) / t.a, y1: (t.by - s.y0) / t.a }));
    let shown = 0;
    for (const n of nodesIn(i, l.cells, grid)) if (this.raster.scan(n, l, i, t)) shown++;
    return shown;
  }

  /** Frame counts and times on the canvas (data-frames), where the webview bench reads them. */
  private count(kind: 'full' | 'partial', t0: number): void {
    this.frames[kind]++;
    this.frames[`${kind}Ms`] += performance.now() - t0;
    this.canvas.dataset.frames = JSON.stringify(this.frames);
  }

  /** Recolours the whole canvas from the ids already scanned (a new plan, a selection). */
  private recolour(): void {
    if (!this.g) return;
    this.raster.colour(this.values, this.palette, this.options());
    this.g.putImageData(this.raster.image, 0, 0);
  }

  /** A new plan: recolours only the boxes of the precincts that changed (a boundary moves only there). */
  update(values: readonly number[], fill: (v: number) => Fill): void {
    const before = this.values;
    this.values = values;
    this.palette = this.paletteOf(fill);
    const changed: number[] = [];
    for (let n = 0; n < values.length; n++) if (values[n] !== before[n]) changed.push(n);
    const g = this.g;
    if (changed.length === 0 || !g || !this.drawn) return;
    const t0 = performance.now();
    if (changed.length > PARTIAL * values.length) this.recolour();
    else {
      const { i, t } = this.drawn;
      const r = this.raster;
      for (const n of changed) {
        const b = 4 * n;
        if (Number.isNaN(i.box[b])) continue;
        // The node's box in device pixels, one pixel wider: its neighbours' boundary pixels change too.
        const box = {
          x0: Math.floor(t.a * i.box[b]! + t.bx) - 2,
          x1: Math.ceil(t.a * i.box[b + 2]! + t.bx) + 2,
          y0: Math.floor(t.by - t.a * i.box[b + 3]!) - 2,
          y1: Math.ceil(t.by - t.a * i.box[b + 1]!) + 2,
        };
        if (box.x1 < 0 || box.y1 < 0 || box.x0 >= r.width || box.y0 >= r.height) continue;
        r.colour(values, this.palette, this.options(), box);
        const x = Math.max(0, box.x0);
        const y = Math.max(0, box.y0);
        g.putImageData(r.image, 0, 0, x, y, Math.min(r.width - 1, box.x1) - x + 1, Math.min(r.height - 1, box.y1) - y + 1);
      }
    }
    this.count('partial', t0);
  }

  /** The node drawn under a canvas point (CSS pixels), or −1. */
  nodeAt(x: number, y: number): number {
    const px = Math.floor(x * this.dpr);
    const py = Math.floor(y * this.dpr);
    if (px < 0 || py < 0 || px >= this.raster.width || py >= this.raster.height) return -1;
    return this.raster.node[py * this.raster.width + px]!;
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
    this.recolour();
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
