import * as l10n from '@vscode/l10n';
import type { LayersPanelData } from '../../src/protocol/protocol.js';
import { h, svg } from '../dom.js';
import { chartColor } from './colors.js';

/**
 * A layered tree, root on top: the bottom row is spread evenly and every parent sits above the
 * middle of its children. Each node is focusable and carries its full description.
 */
export function renderLayers(data: LayersPanelData): HTMLElement {
  const rows = data.rows;
  const bottom = rows[rows.length - 1]?.nodes ?? [];
  const spacing = Math.max(30, Math.min(90, 900 / Math.max(1, bottom.length)));
  const left = 90;
  const W = left + spacing * Math.max(1, bottom.length) + 20;
  const rowH = 70;
  const H = rows.length * rowH + 10;
  const x = new Map<string, number>();
  bottom.forEach((node, i) => x.set(node.id, left + spacing * (i + 0.5)));
  for (let r = rows.length - 2; r >= 0; r--) {
    const below = rows[r + 1]!.nodes;
    rows[r]!.nodes.forEach((node, i) => {
      const kids = below.filter((k) => k.parent === node.id).map((k) => x.get(k.id)!);
      x.set(node.id, kids.length ? kids.reduce((s, v) => s + v, 0) / kids.length : left + spacing * (i + 0.5));
    });
  }
  const yOf = (r: number) => 20 + r * rowH;
  const boxW = Math.min(76, spacing - 6);
  const tree = svg('svg', {
    viewBox: `0 0 ${W} ${H}`,
    width: W,
    height: H,
    class: 'graph layers',
    role: 'group',
    'aria-label': l10n.t('tree of {0} rows', rows.length),
  });
  rows.forEach((row, r) => {
    tree.append(svg('text', { x: 4, y: yOf(r) + 15, class: 'axis-label', text: row.title }));
    if (r === 0) return;
    for (const node of row.nodes) {
      if (!node.parent || !x.has(node.parent)) continue;
      tree.append(svg('line', { x1: x.get(node.id)!, y1: yOf(r), x2: x.get(node.parent)!, y2: yOf(r - 1) + 22, class: 'edge' }));
    }
  });
  rows.forEach((row, r) => {
    for (const node of row.nodes) {
      const cx = x.get(node.id)!;
      const g = svg('g', { tabindex: 0, role: 'img', 'aria-label': node.detail });
      const box = svg('rect', { x: cx - boxW / 2, y: yOf(r), width: boxW, height: 22, rx: 3 });
      // Colours follow the node's group, so they are the only styles set here (style.css has the rest).
      box.style.fill = chartColor(node.group ?? 0);
      box.style.stroke = node.mark === 'error' ? 'var(--vscode-errorForeground)' : chartColor(node.group ?? 0);
      const label = svg('text', {
        x: cx,
        y: yOf(r) + 15,
        'text-anchor': 'middle',
        class: `axis-label layer-label${boxW < 50 ? ' narrow' : ''}`,
        text: node.label,
      });
      g.append(box, label, svg('title', { text: node.detail }));
      tree.append(g);
    }
  });
  const scroller = h('div', { class: 'layers-scroll' }, tree);
  return h('figure', { class: 'graph-panel' }, scroller, data.note ? h('figcaption', { text: data.note }) : null);
}
