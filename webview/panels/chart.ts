import * as l10n from '@vscode/l10n';
import type { ChartPanelData } from '../../src/protocol/protocol.js';
import { h, svg } from '../dom.js';
import { chartColor } from './colors.js';

/** Tick labels along the x axis at most: more would overlap in the 640-unit chart. */
const MAX_TICKS = 16;

/**
 * The x layout of a bar chart: each x value owns a slot as wide as the smallest step between
 * values, and the axis spans exactly the slots, so the first bar starts at the axis and the last
 * ends at its end (bars used to start at their x over a domain from 0, so the last ran past the
 * axis and a leading gap looked like a missing bar).
 */
export function barSlots(xs: readonly number[]): { from: number; to: number; step: number; values: number[] } {
  const values = [...new Set(xs)].sort((a, b) => a - b);
  let step = Infinity;
  for (let i = 1; i < values.length; i++) step = Math.min(step, values[i]! - values[i - 1]!);
  if (!Number.isFinite(step)) step = 1;
  return { from: (values[0] ?? 0) - step / 2, to: (values.at(-1) ?? 0) + step / 2, step, values };
}

/** A tick label: integers as they are, others to 3 significant digits. */
function tickText(x: number): string {
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(3)));
}

/** Bars or lines on two axes, coloured by series from the theme's chart palette. */
export function renderChart(data: ChartPanelData): HTMLElement {
  const W = 640;
  const H = 240;
  const M = 40;
  const points = data.series.flatMap((s) => s.points);
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const bars = data.chart === 'bar' ? barSlots(xs) : undefined;
  const [x0, x1] = bars ? [bars.from, bars.to] : [Math.min(...xs, 0), Math.max(...xs, 1)];
  const y1 = Math.max(...ys, 1);
  const sx = (x: number) => M + ((x - x0) / Math.max(1e-9, x1 - x0)) * (W - 2 * M);
  const sy = (y: number) => H - M - (y / y1) * (H - 2 * M);
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': l10n.t('{0} by {1}', data.yLabel, data.xLabel) });
  chart.append(svg('line', { x1: M, y1: H - M, x2: W - M, y2: H - M, class: 'axis' }), svg('line', { x1: M, y1: M, x2: M, y2: H - M, class: 'axis' }));
  chart.append(
    svg('text', { x: W / 2, y: H - 8, class: 'axis-label', 'text-anchor': 'middle', text: data.xLabel }),
    svg('text', { x: 12, y: M - 12, class: 'axis-label', text: l10n.t('{0} (max {1})', data.yLabel, y1) }),
  );
  // Series side by side within a slot, a gap of a tenth of the slot between neighbours.
  const slot = bars ? sx(x0 + bars.step) - sx(x0) : 0;
  const barWidth = Math.max(1, (slot * 0.9) / Math.max(1, data.series.length));
  const ticks = bars ? bars.values : [x0, x1];
  const every = Math.ceil(ticks.length / MAX_TICKS);
  ticks.forEach((x, k) => {
    if (k % every === 0) chart.append(svg('text', { x: sx(x), y: H - M + 14, class: 'tick', 'text-anchor': 'middle', text: tickText(x) }));
  });
  data.series.forEach((s, i) => {
    if (bars) {
      for (const [x, y] of s.points) {
        const rect = svg('rect', { x: sx(x) - (slot * 0.9) / 2 + i * barWidth, y: sy(y), width: barWidth, height: H - M - sy(y) });
        rect.style.fill = chartColor(i);
        rect.append(svg('title', { text: `${s.name}: ${x} → ${y}` }));
        chart.append(rect);
      }
    } else {
      const line = svg('polyline', { points: s.points.map(([x, y]) => `${sx(x)},${sy(y)}`).join(' '), class: 'series' });
      line.style.stroke = chartColor(i);
      chart.append(line);
    }
  });
  const legend = h(
    'ul',
    { class: 'legend' },
    ...data.series.map((s, i) => {
      const swatch = h('span', { class: 'swatch', 'aria-hidden': 'true' });
      swatch.style.background = chartColor(i);
      return h('li', {}, swatch, s.name);
    }),
  );
  return h('figure', { class: 'chart-panel' }, chart, legend);
}
