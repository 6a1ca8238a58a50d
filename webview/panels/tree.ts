import * as l10n from '@vscode/l10n';
import type { TreeDiagramNode, TreePanelData } from '../../src/protocol/protocol.js';
import { h, svg } from '../dom.js';

const BOX_W = 96;
const BOX_H = 34;
const GAP_X = 12;
const GAP_Y = 30;

interface Placed {
  readonly node: TreeDiagramNode;
  readonly x: number;
  readonly level: number;
  readonly children: Placed[];
}

/** Leaves in order along the bottom, each parent centred over its children; marked nodes use the error colours. */
export function renderTree(data: TreePanelData): HTMLElement {
  let leaves = 0;
  const place = (node: TreeDiagramNode): Placed => {
    if (!node.children?.length) return { node, x: leaves++ * (BOX_W + GAP_X), level: 0, children: [] };
    const children = node.children.map(place);
    return { node, x: (children[0]!.x + children[children.length - 1]!.x) / 2, level: 1 + Math.max(...children.map((c) => c.level)), children };
  };
  const root = place(data.root);
  const width = Math.max(1, leaves) * (BOX_W + GAP_X);
  const height = (root.level + 1) * (BOX_H + GAP_Y);
  const y = (p: Placed) => (root.level - p.level) * (BOX_H + GAP_Y) + 4;
  const drawing = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    class: 'tree-diagram',
    role: 'group',
    'aria-label': data.caption ?? l10n.t('tree'),
  });
  const draw = (p: Placed) => {
    for (const c of p.children) drawing.append(svg('line', { x1: p.x + BOX_W / 2, y1: y(p) + BOX_H, x2: c.x + BOX_W / 2, y2: y(c), class: 'edge' }));
    const name = `${p.node.label}${p.node.detail ? `: ${p.node.detail}` : ''}`;
    const g = svg('g', {
      class: `tree-node${p.node.mark ? ` mark-${p.node.mark}` : ''}`,
      tabindex: 0,
      role: 'img',
      'aria-label': p.node.mark === 'error' ? l10n.t('{0} (mismatch)', name) : name,
    });
    g.append(
      svg('rect', { x: p.x, y: y(p), width: BOX_W, height: BOX_H, rx: 3 }),
      svg('text', { x: p.x + BOX_W / 2, y: y(p) + 14, 'text-anchor': 'middle', text: clip(p.node.label, 14) }),
    );
    if (p.node.detail) g.append(svg('text', { x: p.x + BOX_W / 2, y: y(p) + 28, 'text-anchor': 'middle', class: 'detail', text: clip(p.node.detail, 14) }));
    g.append(svg('title', { text: `${p.node.label}${p.node.detail ? `\n${p.node.detail}` : ''}` }));
    drawing.append(g);
    p.children.forEach(draw);
  };
  draw(root);
  const scroller = h('div', { class: 'tree-scroll' }, drawing);
  // A tree wider than the panel opens with its root in view, not its first leaves: the root is
  // what a seal is about, and the overlay scrollbars of VS Code do not say there is more.
  requestAnimationFrame(() => (scroller.scrollLeft = Math.max(0, root.x + BOX_W / 2 - scroller.clientWidth / 2)));
  return h('figure', { class: 'tree-panel' }, data.caption ? h('figcaption', { text: data.caption }) : null, scroller);
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
