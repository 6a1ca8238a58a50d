import * as l10n from '@vscode/l10n';
import type { ChartPanelData } from '../../src/shared/protocol.js';
import { h, svg } from '../dom.js';
import { chartColor } from './colors.js';

/** Bars or lines on two axes, coloured by series from the theme's chart palette. */
export function renderChart(data: ChartPanelData): HTMLElement {
  const W = 640;
  const H = 240;
  const M = 40;
  const points = data.series.flatMap((s) => s.points);
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const [x0, x1] = [Math.min(...xs, 0), Math.max(...xs, 1)];
  const y1 = Math.max(...ys, 1);
  const sx = (x: number) => M + ((x - x0) / Math.max(1e-9, x1 - x0)) * (W - 2 * M);
  const sy = (y: number) => H - M - (y / y1) * (H - 2 * M);
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': l10n.t('{0} by {1}', data.yLabel, data.xLabel) });
  chart.append(svg('line', { x1: M, y1: H - M, x2: W - M, y2: H - M, class: 'axis' }), svg('line', { x1: M, y1: M, x2: M, y2: H - M, class: 'axis' }));
  chart.append(svg('text', { x: W / 2, y: H - 8, class: 'axis-label', 'text-anchor': 'middle', text: data.xLabel }), svg('text', { x: 12, y: M - 12, class: 'axis-label', text: l10n.t('{0} (max {1})', data.yLabel, y1) }));
  const barWidth = Math.max(1, (W - 2 * M) / Math.max(1, xs.length / Math.max(1, data.series.length)) - 1);
  data.series.forEach((s, i) => {
    if (data.chart === 'bar') {
      for (const [x, y] of s.points) {
        const rect = svg('rect', { x: sx(x), y: sy(y), width: barWidth, height: H - M - sy(y) });
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
  const legend = h('ul', { class: 'legend' }, ...data.series.map((s, i) => {
    const swatch = h('span', { class: 'swatch', 'aria-hidden': 'true' });
    swatch.style.background = chartColor(i);
    return h('li', {}, swatch, s.name);
  }));
  return h('figure', { class: 'chart-panel' }, chart, legend);
}

