import type { PanelData } from '../src/shared/protocol.js';
import { h, svg } from './dom.js';

/** Theme colours for series and groups, in order (VS Code's chart palette). */
const CHART_COLORS = ['--vscode-charts-blue', '--vscode-charts-orange', '--vscode-charts-green', '--vscode-charts-purple', '--vscode-charts-red', '--vscode-charts-yellow'];

export function chartColor(i: number): string {
  return `var(${CHART_COLORS[((i % CHART_COLORS.length) + CHART_COLORS.length) % CHART_COLORS.length]})`;
}

/** One renderer per panel kind; every text goes through textContent. */
export function renderPanel(data: PanelData): HTMLElement {
  switch (data.kind) {
    case 'fields':
      return h(
        'div',
        { class: 'fields-panel' },
        ...data.groups.map((g) =>
          h(
            'section',
            {},
            h('h3', { text: g.title }),
            h('dl', { class: 'fields' }, ...g.fields.flatMap((f) => [h('dt', { text: f.name }), h('dd', { class: f.mark ? `mark-${f.mark}` : undefined, text: f.value })])),
          ),
        ),
      );
    case 'text':
      return h('pre', { class: `text-panel lang-${data.language}`, tabindex: 0, text: data.text });
    case 'chart':
      return renderChart(data);
    case 'graph':
      return renderGraph(data);
  }
}

function renderChart(data: Extract<PanelData, { kind: 'chart' }>): HTMLElement {
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
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': `${data.yLabel} by ${data.xLabel}` });
  chart.append(svg('line', { x1: M, y1: H - M, x2: W - M, y2: H - M, class: 'axis' }), svg('line', { x1: M, y1: M, x2: M, y2: H - M, class: 'axis' }));
  chart.append(svg('text', { x: W / 2, y: H - 8, class: 'axis-label', 'text-anchor': 'middle', text: data.xLabel }), svg('text', { x: 12, y: M - 12, class: 'axis-label', text: `${data.yLabel} (max ${y1})` }));
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

function renderGraph(data: Extract<PanelData, { kind: 'graph' }>): HTMLElement {
  const W = 640;
  const H = 480;
  const n = data.nodes.length;
  const placed = data.nodes.every((v) => v.x !== undefined && v.y !== undefined);
  const xs = data.nodes.map((v, i) => (placed ? v.x! : Math.cos((2 * Math.PI * i) / Math.max(1, n))));
  const ys = data.nodes.map((v, i) => (placed ? v.y! : Math.sin((2 * Math.PI * i) / Math.max(1, n))));
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const px = (i: number) => 30 + ((xs[i]! - minX) / Math.max(1e-9, maxX - minX)) * (W - 60);
  const py = (i: number) => 30 + ((ys[i]! - minY) / Math.max(1e-9, maxY - minY)) * (H - 60);
  const index = new Map(data.nodes.map((v, i) => [v.id, i]));
  const g = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'graph', role: 'img', 'aria-label': `graph of ${n} nodes and ${data.edges.length} edges` });
  for (const e of data.edges) {
    const a = index.get(e.from);
    const b = index.get(e.to);
    if (a === undefined || b === undefined) continue;
    g.append(svg('line', { x1: px(a), y1: py(a), x2: px(b), y2: py(b), class: 'edge' }));
  }
  data.nodes.forEach((v, i) => {
    const c = svg('circle', { cx: px(i), cy: py(i), r: 6, class: `node${v.mark ? ` mark-${v.mark}` : ''}` });
    if (v.group !== undefined) c.style.fill = chartColor(v.group);
    c.append(svg('title', { text: v.label }));
    g.append(c);
  });
  return h('figure', { class: 'graph-panel' }, g);
}
