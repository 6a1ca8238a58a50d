import * as l10n from '@vscode/l10n';
import type { GraphPanelData } from '../../src/core/views.js';
import { h, svg } from '../dom.js';
import { chartColor } from './colors.js';

/** Nodes at their positions (or on a circle), edges as lines; clicking a node can select it. */
export function renderGraph(data: GraphPanelData, select?: (id: string) => void): HTMLElement {
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
  const g = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'graph', role: 'img', 'aria-label': l10n.t('graph of {0} nodes and {1} edges', n, data.edges.length) });
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
    if (select) {
      c.setAttribute('tabindex', '0');
      c.setAttribute('role', 'button');
      c.setAttribute('aria-label', v.label);
      c.addEventListener('click', () => select(v.id));
      c.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') select(v.id);
      });
    }
    g.append(c);
  });
  return h('figure', { class: 'graph-panel' }, g);
}
