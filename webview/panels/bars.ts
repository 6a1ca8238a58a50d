import * as l10n from '@vscode/l10n';
import type { BarsPanelData } from '../../src/protocol/protocol.js';
import { h, svg } from '../dom.js';
import { chartColor } from './colors.js';

/**
 * One bar per item coloured by category, an inner bar for a part of it and a line on a right
 * axis. The drawing is one focusable image: arrow keys, Home and End step through the bars and a
 * live line reads the current one, so a keyboard or screen-reader user gets every value.
 */
export function renderBars(data: BarsPanelData): HTMLElement {
  const W = 720;
  const H = 260;
  const [L, R, T, B] = [56, data.lineLabel ? 48 : 16, 16, 32];
  const n = data.bars.length;
  const plotW = W - L - R;
  const plotH = H - T - B;
  const maxValue = Math.max(1, ...data.bars.map((b) => b.value));
  const maxLine = Math.max(1e-9, ...data.bars.map((b) => b.line ?? 0));
  const step = plotW / Math.max(1, n);
  const width = Math.max(0.5, step * (n > 64 ? 1 : 0.8));
  const y = (v: number) => T + plotH - (v / maxValue) * plotH;
  const chart = svg('svg', {
    viewBox: `0 0 ${W} ${H}`,
    class: 'chart',
    role: 'img',
    tabindex: 0,
    'aria-label': l10n.t('{0} bars: {1} by {2}; arrow keys step through them', n, data.yLabel, data.xLabel),
  });
  chart.append(
    svg('line', { x1: L, y1: T + plotH, x2: W - R, y2: T + plotH, class: 'axis' }),
    svg('line', { x1: L, y1: T, x2: L, y2: T + plotH, class: 'axis' }),
    svg('text', { x: W / 2, y: H - 8, class: 'axis-label', 'text-anchor': 'middle', text: `${data.xLabel} (0–${Math.max(0, n - 1)})` }),
    svg('text', { x: 4, y: T + 4, class: 'axis-label', text: `${maxValue}` }),
    svg('text', { x: 4, y: T + 18, class: 'axis-label', text: data.yLabel }),
  );
  const marks: SVGRectElement[] = [];
  data.bars.forEach((b, i) => {
    const x = L + i * step + (step - width) / 2;
    const g = svg('g', {});
    const outer = svg('rect', { x, y: y(b.value), width, height: T + plotH - y(b.value) });
    outer.style.fill = chartColor(b.category);
    if (b.inner !== undefined) outer.classList.add('has-inner');
    g.append(outer);
    if (b.inner !== undefined) {
      const inner = svg('rect', { x, y: y(Math.min(b.inner, maxValue)), width, height: T + plotH - y(Math.min(b.inner, maxValue)) });
      inner.style.fill = chartColor(b.category);
      g.append(inner);
    }
    g.append(svg('title', { text: b.label }));
    g.addEventListener('click', () => select(i));
    marks.push(outer);
    chart.append(g);
  });
  if (data.lineLabel && data.bars.some((b) => b.line !== undefined)) {
    const ly = (v: number) => T + plotH - (v / maxLine) * plotH;
    const points = data.bars.flatMap((b, i) => (b.line === undefined ? [] : [`${L + i * step + step / 2},${ly(b.line)}`]));
    const line = svg('polyline', { points: points.join(' '), class: 'series bars-line' });
    chart.append(
      line,
      svg('line', { x1: W - R, y1: T, x2: W - R, y2: T + plotH, class: 'axis' }),
      svg('text', { x: W - R + 4, y: T + 4, class: 'axis-label', text: `${Math.round(maxLine * 100) / 100}` }),
      svg('text', { x: W - R + 4, y: T + 18, class: 'axis-label', text: data.lineLabel }),
    );
  }
  const readout = h('p', {
    class: 'bars-readout',
    'aria-live': 'polite',
    text: n ? l10n.t('Select a bar (click, or focus the chart and use the arrow keys).') : l10n.t('No bars.'),
  });
  let current = -1;
  const select = (i: number) => {
    if (n === 0) return;
    const next = Math.max(0, Math.min(n - 1, i));
    if (current >= 0) marks[current]!.classList.remove('selected');
    current = next;
    marks[next]!.classList.add('selected');
    readout.textContent = data.bars[next]!.label;
  };
  chart.addEventListener('keydown', (e) => {
    const to = e.key === 'ArrowRight' ? current + 1 : e.key === 'ArrowLeft' ? current - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : undefined;
    if (to === undefined) return;
    e.preventDefault();
    select(to);
  });
  return h('figure', { class: 'chart-panel bars-panel' }, chart, barsLegend(data), readout);
}

/** A swatch per category present, then what the inner bar and the line stand for. */
function barsLegend(data: BarsPanelData): HTMLElement {
  const present = [...new Set(data.bars.map((b) => b.category))].sort((a, b) => a - b);
  return h(
    'ul',
    { class: 'legend' },
    ...present.map((c) => {
      const swatch = h('span', { class: 'swatch', 'aria-hidden': 'true' });
      swatch.style.background = chartColor(c);
      return h('li', {}, swatch, data.categories[c] ?? String(c));
    }),
    data.innerLabel ? h('li', { text: l10n.t('pale bar: {0}, solid part: {1}', data.yLabel, data.innerLabel) }) : null,
    data.lineLabel ? h('li', { text: l10n.t('line: {0} (right axis)', data.lineLabel) }) : null,
  );
}
