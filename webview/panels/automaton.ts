import * as l10n from '@vscode/l10n';
import type { AutomatonPanelData } from '../../src/protocol/protocol.js';
import { h, svg } from '../dom.js';
import { panZoom } from './panZoom.js';

/**
 * A state machine left to right in columns (the layout comes with the data): circles for
 * states (double for final ones), curved labelled edges, the key's path and the selected
 * state highlighted. Drag or arrow keys pan, the wheel or +/− zoom, 0 fits. States are
 * buttons: Tab reaches them, Enter or a click selects one and shows its details below.
 * Colours come only from the theme's variables.
 */
const COL = 150;
const ROW = 56;
const R = 14;
const PAD = 40;

export function renderAutomaton(data: AutomatonPanelData, select: (id: string) => void): HTMLElement {
  const pos = new Map<string, { x: number; y: number }>();
  for (const s of data.states) pos.set(s.id, { x: PAD + s.layer * COL, y: PAD + s.row * ROW });
  const width = PAD * 2 + Math.max(0, ...data.states.map((s) => s.layer)) * COL;
  const height = PAD * 2 + Math.max(0, ...data.states.map((s) => s.row)) * ROW;

  const canvas = svg('svg', {
    class: 'automaton',
    role: 'group',
    'aria-label': l10n.t('automaton: {0} states, {1} transitions. Arrow keys pan, plus and minus zoom, 0 fits.', data.states.length, data.edges.length),
    tabindex: 0,
  });
  const world = svg('g');
  canvas.append(world);

  const defs = svg('defs');
  const marker = svg('marker', {
    id: 'automaton-arrow',
    viewBox: '0 0 10 10',
    refX: 10,
    refY: 5,
    markerWidth: 7,
    markerHeight: 7,
    orient: 'auto-start-reverse',
  });
  const tip = svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'automaton-arrow' });
  marker.append(tip);
  defs.append(marker);
  canvas.append(defs);

  drawEdges(world, data, pos);
  drawStates(world, data, pos, select);

  canvas.setAttribute('preserveAspectRatio', 'xMinYMin meet');
  const view = panZoom(canvas, { width, height });

  const tool = (text: string, label: string, fn: () => void) => {
    const b = h('button', { type: 'button', 'aria-label': label, title: label, text });
    b.addEventListener('click', fn);
    return b;
  };
  const tools = h(
    'div',
    { class: 'automaton-tools', role: 'toolbar', 'aria-label': l10n.t('Zoom') },
    tool('+', l10n.t('Zoom in'), () => view.zoom(1 / 1.2)),
    tool('−', l10n.t('Zoom out'), () => view.zoom(1.2)),
    tool(l10n.t('Fit'), l10n.t('Fit the whole automaton'), view.fit),
    data.note ? h('span', { class: 'note', text: ` ${data.note}` }) : null,
  );
  const details = data.details
    ? h(
        'div',
        { class: 'fields-panel', 'aria-live': 'polite' },
        ...data.details.map((g) =>
          h(
            'section',
            {},
            h('h3', { text: g.title }),
            h('dl', { class: 'fields' }, ...g.fields.flatMap((f) => [h('dt', { text: f.name }), h('dd', { text: f.value })])),
          ),
        ),
      )
    : null;
  return h('div', { class: 'automaton-panel' }, tools, canvas, details);
}

/** Curved, labelled transitions; those on the key's path bold. */
function drawEdges(world: SVGElement, data: AutomatonPanelData, pos: ReadonlyMap<string, { x: number; y: number }>): void {
  for (const e of data.edges) {
    const a = pos.get(e.from);
    const b = pos.get(e.to);
    if (!a || !b) continue;
    const x1 = a.x + R;
    const x2 = b.x - R;
    const mid = (x1 + x2) / 2;
    const path = svg('path', {
      d: `M ${x1} ${a.y} C ${mid} ${a.y}, ${mid} ${b.y}, ${x2} ${b.y}`,
      'marker-end': 'url(#automaton-arrow)',
      class: `edge${e.path ? ' on-path' : ''}`,
    });
    const label = svg('text', { x: mid, y: (a.y + b.y) / 2 - 4, 'text-anchor': 'middle', class: 'edge-label', text: e.label });
    world.append(path, label);
  }
}

/** States as buttons: circles (double for final ones), labelled, selectable by click or Enter. */
function drawStates(world: SVGElement, data: AutomatonPanelData, pos: ReadonlyMap<string, { x: number; y: number }>, select: (id: string) => void): void {
  for (const s of data.states) {
    const p = pos.get(s.id)!;
    let name = l10n.t('state {0}', s.label);
    if (s.final) name = l10n.t('{0}, final', name);
    if (s.mark === 'selected') name = l10n.t('{0}, selected', name);
    if (s.hidden) name = l10n.t('{0}, {1} transitions not drawn', name, s.hidden);
    const g = svg('g', {
      class: `state${s.mark === 'selected' ? ' selected' : ''}${s.mark === 'path' ? ' on-path' : ''}`,
      tabindex: 0,
      role: 'button',
      'aria-label': name,
      'aria-pressed': s.mark === 'selected' ? 'true' : 'false',
    });
    const circle = svg('circle', { cx: p.x, cy: p.y, r: R, class: 'ring' });
    g.append(circle);
    if (s.final) g.append(svg('circle', { cx: p.x, cy: p.y, r: R - 4, class: 'final-ring' }));
    const text = svg('text', {
      x: p.x,
      y: p.y + R + 12,
      'text-anchor': 'middle',
      class: 'state-label',
      text: s.hidden ? `${s.label} (+${s.hidden})` : s.label,
    });
    g.append(svg('title', { text: s.final ? l10n.t('state @{0} (final)', s.label) : l10n.t('state @{0}', s.label) }), text);
    g.addEventListener('click', (ev) => {
      ev.stopPropagation();
      select(s.id);
    });
    g.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        select(s.id);
      }
    });
    world.append(g);
  }
}
