import * as l10n from '@vscode/l10n';
import type { PlanPanelData } from '../../src/protocol/protocol.js';
import { h } from '../dom.js';
import { renderChart } from './chart.js';
import { CHART_COLORS } from './colors.js';
import type { PanelContext } from './index.js';
import { planValues } from './planHeld.js';
import { shapesChooser } from './shapesChooser.js';
import { type Fill, renderPrecinctMap } from './precinctMap.js';

/** Six theme colours at three strengths tell 18 neighbouring districts apart. */
const ALPHAS = [1, 0.55, 0.3];

function themeColour(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

function districtStyle(colours: readonly string[], d: number): { colour: string; alpha: number } {
  return { colour: colours[d % colours.length]!, alpha: ALPHAS[Math.floor(d / colours.length) % ALPHAS.length]! };
}

/** Sets the fill for a node's value (a district, or a flip frequency in heat mode). */
type Paint = (g: CanvasRenderingContext2D, v: number) => void;

/** Panels whose play button is on, by step parameter: play survives the redraw each step causes. */
const playing = new Set<string>();
/** Plans a second Play steps at; 0: the next step as soon as a plan is drawn (frame-bound, ~56 a second at 150 000 precincts). */
const SPEEDS = [2, 5, 10, 30, 0] as const;
/** The chosen speed by step parameter, kept across redraws like `playing`. */
const speeds = new Map<string, number>();
let timer: ReturnType<typeof setTimeout> | undefined;

/** A plan: the map (nodes at their positions, coloured by district or flip frequency), the strip, district sizes; step and play. */
export function renderPlan(sent: PlanPanelData, ctx: PanelContext): HTMLElement {
  // A step's response may carry only the nodes that moved; without the plan they apply to, the whole is asked for.
  const data = planValues(sent, ctx);
  if (!data) return h('div', { class: 'plan-panel' }, h('p', { class: 'plan-caption', text: sent.caption }));
  const colours = CHART_COLORS.map((p) => themeColour(p, '#888'));
  const heat = themeColour('--vscode-charts-red', '#c33');
  const edgeColour = themeColour('--vscode-descriptionForeground', '#888');
  const paint: Paint = (g, v) => {
    if (data.mode === 'heat') {
      g.fillStyle = heat;
      g.globalAlpha = 0.08 + 0.92 * Math.max(0, Math.min(1, v));
    } else {
      const s = districtStyle(colours, v);
      g.fillStyle = s.colour;
      g.globalAlpha = s.alpha;
    }
  };
  const parts: HTMLElement[] = [];
  if (data.step) parts.push(stepper(data.step, ctx));
  parts.push(h('p', { class: 'plan-caption', text: data.caption }));
  const shapes = shapesChooser(data, ctx);
  if (shapes) parts.push(shapes);
  const n = data.values.length;
  // With the precincts' shapes, the map is drawn from them; the dots stay for graphs without.
  const precincts = (data.map || data.mapKey) && n > 0 ? renderPrecinctMap(data, ctx, fillOf(data.mode, colours, heat), mapColours(edgeColour)) : undefined;
  if (precincts) parts.push(precincts);
  else if (data.x && data.y && n > 0) parts.push(dotMap(data, data.x, data.y, paint, edgeColour));
  if (n > 0) parts.push(planStrip(data, paint));
  if (data.sizes && data.sizes.length) {
    parts.push(
      renderChart({
        kind: 'chart',
        chart: 'bar',
        xLabel: l10n.t('district'),
        yLabel: l10n.t('nodes'),
        series: [{ name: l10n.t('nodes per district'), points: data.sizes }],
      }),
    );
  }
  if (data.mode === 'district' && data.sizes) parts.push(districtLegend(data.sizes, colours));
  return h('div', { class: 'plan-panel' }, ...parts);
}

/** The graph's nodes as dots at their positions, over its edges: the map of a graph without shapes. */
function dotMap(data: PlanPanelData, xs: readonly number[], ys: readonly number[], paint: Paint, edgeColour: string): HTMLElement {
  const n = data.values.length;
  const W = 720;
  const H = 480;
  const canvas = h('canvas', { width: W, height: H, role: 'img', 'aria-label': l10n.t('map: {0}', data.caption) });
  canvas.style.width = '100%';
  canvas.style.maxWidth = `${W}px`;
  const g = canvas.getContext('2d');
  if (g) {
    let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
    for (let i = 0; i < n; i++) ((x0 = Math.min(x0, xs[i]!)), (x1 = Math.max(x1, xs[i]!)), (y0 = Math.min(y0, ys[i]!)), (y1 = Math.max(y1, ys[i]!)));
    const scale = Math.min((W - 20) / Math.max(1e-9, x1 - x0), (H - 20) / Math.max(1e-9, y1 - y0));
    // Geographic y grows north; screen y grows down.
    const px = (i: number) => 10 + (xs[i]! - x0) * scale;
    const py = (i: number) => H - 10 - (ys[i]! - y0) * scale;
    if (data.edges) {
      g.strokeStyle = edgeColour;
      g.globalAlpha = 0.35;
      g.beginPath();
      for (let e = 0; e < data.edges.length; e += 2) {
        g.moveTo(px(data.edges[e]!), py(data.edges[e]!));
        g.lineTo(px(data.edges[e + 1]!), py(data.edges[e + 1]!));
      }
      g.stroke();
    }
    const r = Math.max(1, Math.min(7, 260 / Math.sqrt(n)));
    for (let i = 0; i < n; i++) {
      paint(g, data.values[i]!);
      if (r <= 1.5) g.fillRect(px(i) - r, py(i) - r, 2 * r, 2 * r);
      else {
        g.beginPath();
        g.arc(px(i), py(i), r, 0, 2 * Math.PI);
        g.fill();
      }
    }
  }
  return h('figure', { class: 'plan-map' }, canvas);
}

/** The nodes in stream order as a strip of colour, one pixel column per share of the order. */
function planStrip(data: PlanPanelData, paint: Paint): HTMLElement {
  const strip = data.strip ?? data.values;
  const W = 720;
  const canvas = h('canvas', { width: W, height: 28, role: 'img', 'aria-label': l10n.t('{0}: {1} nodes', data.stripLabel, data.values.length) });
  canvas.style.width = '100%';
  canvas.style.maxWidth = `${W}px`;
  const g = canvas.getContext('2d');
  if (g) {
    // Each pixel column shows the node at its share of the order (every node when there are fewer than 720).
    const cols = Math.min(W, strip.length);
    const w = W / cols;
    for (let c = 0; c < cols; c++) {
      paint(g, strip[Math.floor((c * strip.length) / cols)]!);
      g.fillRect(c * w, 0, Math.ceil(w), 28);
    }
  }
  return h('figure', { class: 'plan-strip' }, h('figcaption', { text: data.stripLabel }), canvas);
}

function districtLegend(sizes: NonNullable<PlanPanelData['sizes']>, colours: readonly string[]): HTMLElement {
  const legend = h('ul', { class: 'legend', 'aria-label': l10n.t('district colours') });
  for (const [d] of sizes.slice(0, 36)) {
    const s = districtStyle(colours, d);
    const sw = h('span', { class: 'swatch', 'aria-hidden': 'true' });
    sw.style.background = s.colour;
    sw.style.opacity = String(s.alpha);
    legend.append(h('li', {}, sw, l10n.t('district {0}', d)));
  }
  return legend;
}

/** Heat is drawn in this many strengths, so a map needs at most as many fill paths. */
const HEAT_STEPS = 16;

function fillOf(mode: PlanPanelData['mode'], colours: readonly string[], heat: string): (v: number) => Fill {
  if (mode === 'heat') {
    return (v) => {
      const k = Math.round(Math.max(0, Math.min(1, v)) * (HEAT_STEPS - 1));
      return { key: k, colour: heat, alpha: 0.08 + (0.92 * k) / (HEAT_STEPS - 1) };
    };
  }
  const cycle = colours.length * ALPHAS.length;
  return (v) => ({ key: v % cycle, ...districtStyle(colours, v) });
}

function mapColours(outline: string): Parameters<typeof renderPrecinctMap>[3] {
  return {
    background: themeColour('--vscode-editor-background', '#fff'),
    boundary: themeColour('--vscode-editor-foreground', '#000'),
    outline,
    selected: themeColour('--vscode-focusBorder', '#07f'),
  };
}

function stepper(step: NonNullable<PlanPanelData['step']>, ctx: PanelContext): HTMLElement {
  const go = (v: number) => ctx.set(step.param, Math.max(step.min, step.max === undefined ? v : Math.min(step.max, v)));
  const key = step.param;
  const atEnd = step.max !== undefined && step.value >= step.max;
  if (atEnd) playing.delete(key);
  const prev = h('button', { type: 'button', text: l10n.t('◀ Previous'), disabled: step.value <= step.min });
  const play = h('button', { type: 'button', text: playing.has(key) ? l10n.t('⏸ Pause') : l10n.t('▶ Play'), 'aria-pressed': String(playing.has(key)) });
  const next = h('button', { type: 'button', text: l10n.t('Next ▶'), disabled: atEnd });
  prev.addEventListener('click', () => go(step.value - 1));
  next.addEventListener('click', () => go(step.value + 1));
  play.addEventListener('click', () => {
    if (playing.has(key)) playing.delete(key);
    else playing.add(key);
    if (timer) clearTimeout(timer);
    if (playing.has(key)) go(step.value + 1);
    else go(step.value);
  });
  const perSecond = speeds.get(key) ?? SPEEDS[0];
  const speed = h(
    'select',
    { 'aria-label': l10n.t('Play speed') },
    ...SPEEDS.map((s) => h('option', { value: String(s), text: s ? l10n.t('{0} plans/s', s) : l10n.t('as fast as drawn'), selected: s === perSecond })),
  );
  speed.addEventListener('change', () => speeds.set(key, Number(speed.value)));
  if (timer) clearTimeout(timer);
  if (playing.has(key)) timer = setTimeout(() => playing.has(key) && go(step.value + 1), perSecond ? 1000 / perSecond : 0);
  return h('div', { class: 'plan-steps', role: 'group', 'aria-label': l10n.t('step through the chain') }, prev, play, next, speed);
}
