import * as l10n from '@vscode/l10n';
import { ENSEMBLE_PARAMS, type EnsemblePanelData, type ExportKind } from '../../src/protocol/protocol.js';
import { h, svg } from '../dom.js';
import type { PanelContext } from './index.js';
import { pngBase64, standaloneSvg } from './svgExport.js';

type Histogram = EnsemblePanelData['histograms'][number];
type Boxes = EnsemblePanelData['boxes'][number];
type Mark = { readonly value: number; readonly percentile: number | null };

const W = 560;
const H = 240;
const M = { left: 56, right: 16, top: 28, bottom: 44 };

/** A value as the plots print it: fractions as percentages, counts as numbers (seats may be halves). */
function show(v: number | null | undefined, unit: 'count' | 'fraction'): string {
  if (v === null || v === undefined) return '—';
  return unit === 'fraction' ? `${(v * 100).toFixed(2)} %` : Number.isInteger(v) ? v.toLocaleString('en-US') : String(Number(v.toPrecision(4)));
}

const percentile = (m: Mark) => (m.percentile === null ? '—' : l10n.t('percentile {0}', m.percentile.toFixed(1)));

/**
 * The ensemble of plans: a button that runs the pass (the app shows its progress and a cancel),
 * then the reference-plan choice, exports of the statistics, and one figure per statistic: a
 * histogram per plan-level figure and marginal box plots per election, each an SVG with a title
 * and a text summary (role img, labelled by both), a table of its numbers for screen readers, and
 * SVG and PNG exports. Colours come from --vscode-* variables only (style.css).
 */
export function renderEnsemble(data: EnsemblePanelData, ctx: PanelContext): HTMLElement {
  const parts: (HTMLElement | null)[] = [h('p', { class: 'plan-caption', text: data.caption })];
  if (data.missing) parts.push(h('p', { class: 'districts-missing', role: 'status', text: data.missing }));
  if (data.pickGraph && ctx.pickGraph) {
    const pick = button(
      data.missing ? l10n.t('Choose graph…') : l10n.t('Choose another graph…'),
      () => void ctx.pickGraph!().then((picked) => picked && ctx.set(ENSEMBLE_PARAMS.run, 0)),
    );
    pick.classList.add('districts-pick');
    parts.push(pick);
  }
  if (!data.missing && data.state === 'ready') {
    parts.push(
      h(
        'p',
        {},
        button(l10n.t('Measure every plan'), () => ctx.set(ENSEMBLE_PARAMS.run, 1), 'ensemble-run'),
      ),
    );
  }
  if (data.state === 'done') {
    parts.push(referenceChooser(data, ctx), exportsBar(data, ctx));
    const figures = h('div', { class: 'ensemble-plots' });
    data.histograms.forEach((p) => figures.append(figure(p.id, p.title, histogramSvg(p), histogramSummary(p), histogramTable(p), ctx)));
    data.boxes.forEach((p) => figures.append(figure(p.id, p.title, boxesSvg(p), boxesSummary(p), boxesTable(p), ctx)));
    parts.push(figures);
  }
  return h('div', { class: 'ensemble-panel' }, ...parts);
}

function button(text: string, onClick: () => void, cls?: string, label?: string): HTMLButtonElement {
  const b = h('button', { type: 'button', text, class: cls, 'aria-label': label });
  b.addEventListener('click', onClick);
  return b;
}

/** The reference plan: none, a sample by number, a node attribute, or a file the host asks for. */
function referenceChooser(data: EnsemblePanelData, ctx: PanelContext): HTMLElement {
  const kind = h(
    'select',
    { 'aria-label': l10n.t('Reference plan') },
    h('option', { value: '', text: l10n.t('(none)') }),
    h('option', { value: 'sample', text: l10n.t('a sample') }),
    data.attributes.length ? h('option', { value: 'attribute', text: l10n.t('a node attribute') }) : null,
    ctx.pickReference ? h('option', { value: 'file', text: l10n.t('a file…') }) : null,
  );
  const sample = h('input', { type: 'number', min: 1, max: data.samples, value: 1, 'aria-label': l10n.t('Reference sample number') });
  const attribute = h('select', { 'aria-label': l10n.t('Reference attribute') }, ...data.attributes.map((a) => h('option', { value: a, text: a })));
  const now = data.reference?.name ?? '';
  if (now.startsWith('sample ')) ((kind.value = 'sample'), (sample.value = now.slice(7)));
  else if (now.startsWith('attribute ')) ((kind.value = 'attribute'), (attribute.value = now.slice(10)));
  else if (now) kind.value = 'file';
  const sync = () => {
    sample.hidden = kind.value !== 'sample';
    attribute.hidden = kind.value !== 'attribute';
  };
  sync();
  const apply = () => {
    if (kind.value === 'file') void ctx.pickReference!().then((picked) => picked && ctx.set(ENSEMBLE_PARAMS.reference, 'file'));
    else
      ctx.set(
        ENSEMBLE_PARAMS.reference,
        kind.value === 'sample'
          ? `sample:${Math.max(1, Math.floor(Number(sample.value) || 1))}`
          : kind.value === 'attribute'
            ? `attribute:${attribute.value}`
            : '',
      );
  };
  kind.addEventListener('change', sync);
  const form = h(
    'form',
    { class: 'ensemble-reference', 'aria-label': l10n.t('Reference plan') },
    h('label', {}, `${l10n.t('Reference plan')} `, kind),
    sample,
    attribute,
    h('button', { type: 'submit', text: l10n.t('Mark') }),
  );
  form.addEventListener('submit', (e) => (e.preventDefault(), apply()));
  const note = data.reference?.problem
    ? h('p', {
        class: 'districts-missing',
        role: 'status',
        text: l10n.t('The reference plan {0} cannot be used: {1}', data.reference.name, data.reference.problem),
      })
    : data.reference
      ? h('p', { class: 'ensemble-reference-note', role: 'status', text: l10n.t('Marked on every plot: {0}', data.reference.name) })
      : null;
  return h('div', {}, form, note);
}

function exportsBar(data: EnsemblePanelData, ctx: PanelContext): HTMLElement | null {
  const files = data.exports;
  if (!files || !ctx.save) return null;
  const save = (kind: ExportKind, text: string) => () => void ctx.save!(kind, 'ensemble-statistics', text);
  return h(
    'p',
    { class: 'ensemble-exports' },
    `${l10n.t('Statistics')}: `,
    button(l10n.t('CSV…'), save('csv', files.csv), undefined, l10n.t('Export the statistics as CSV')),
    ' ',
    button(l10n.t('JSONL…'), save('jsonl', files.jsonl), undefined, l10n.t('Export the statistics as JSONL')),
  );
}

/** One plot: title, the SVG (an image named by title and summary), the summary, its table, and exports. */
function figure(id: string, title: string, picture: SVGSVGElement, summary: string, table: HTMLElement, ctx: PanelContext): HTMLElement {
  const key = id.replace(/[^\w-]/g, '-');
  const titleId = `ensemble-title-${key}`;
  const summaryId = `ensemble-summary-${key}`;
  picture.setAttribute('role', 'img');
  picture.setAttribute('aria-labelledby', `${titleId} ${summaryId}`);
  picture.prepend(svg('title', { text: title }));
  const name = `ensemble-${key}`;
  const exports = ctx.save
    ? h(
        'span',
        { class: 'ensemble-plot-exports' },
        button(l10n.t('SVG…'), () => void ctx.save!('svg', name, standaloneSvg(picture)), undefined, l10n.t('Export {0} as SVG', title)),
        ' ',
        button(l10n.t('PNG…'), () => void pngBase64(picture).then((b64) => ctx.save!('png', name, b64)), undefined, l10n.t('Export {0} as PNG', title)),
      )
    : null;
  return h(
    'figure',
    { class: 'ensemble-plot', 'data-plot': id },
    h('figcaption', { id: titleId, text: title }),
    picture,
    h('p', { id: summaryId, class: 'ensemble-summary', text: summary }),
    h('details', {}, h('summary', { text: l10n.t('Table') }), table),
    exports,
  );
}

function frame(yMax: string, xLabel: string, yMin = '0'): SVGSVGElement {
  const s = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart ensemble-chart' });
  s.append(
    svg('line', { x1: M.left, y1: H - M.bottom, x2: W - M.right, y2: H - M.bottom, class: 'axis' }),
    svg('line', { x1: M.left, y1: M.top, x2: M.left, y2: H - M.bottom, class: 'axis' }),
    svg('text', { x: (M.left + W - M.right) / 2, y: H - 6, class: 'axis-label', 'text-anchor': 'middle', text: xLabel }),
    svg('text', { x: M.left - 6, y: M.top + 4, class: 'tick', 'text-anchor': 'end', text: yMax }),
    svg('text', { x: M.left - 6, y: H - M.bottom, class: 'tick', 'text-anchor': 'end', text: yMin }),
  );
  return s;
}

/** The reference's line across a plot, labelled with its value and percentile. */
function markLine(s: SVGSVGElement, x: number, m: Mark, unit: 'count' | 'fraction'): void {
  s.append(
    svg('line', { x1: x, y1: M.top - 6, x2: x, y2: H - M.bottom, class: 'ensemble-mark' }),
    svg('text', {
      x: Math.min(W - M.right, Math.max(M.left, x)),
      y: M.top - 10,
      class: 'ensemble-mark-label',
      'text-anchor': x > W / 2 ? 'end' : 'start',
      text: `${show(m.value, unit)} · ${percentile(m)}`,
    }),
  );
}

function histogramSvg(p: Histogram): SVGSVGElement {
  const top = Math.max(1, ...p.bins.map((b) => b.count));
  const s = frame(top.toLocaleString('en-US'), p.label);
  const x0 = Math.min(p.bins[0]?.from ?? 0, p.mark?.value ?? Infinity);
  const x1 = Math.max(p.bins.at(-1)?.to ?? 1, p.mark?.value ?? -Infinity);
  const sx = (x: number) => M.left + ((x - x0) / (x1 - x0 || 1)) * (W - M.left - M.right);
  const sy = (c: number) => H - M.bottom - (c / top) * (H - M.top - M.bottom);
  for (const b of p.bins) {
    const rect = svg('rect', {
      x: sx(b.from) + 0.5,
      y: sy(b.count),
      width: Math.max(1, sx(b.to) - sx(b.from) - 1),
      height: H - M.bottom - sy(b.count),
      class: 'ensemble-bar',
    });
    rect.append(svg('title', { text: `${show(b.from, p.unit)} – ${show(b.to, p.unit)}: ${b.count}` }));
    s.append(rect);
  }
  // Integer bars (cut edges, seats) are named each under its bar while they fit; other axes at both ends and the middle.
  const integer = p.unit === 'count' && p.bins.every((b) => b.to - b.from === 1);
  const every = Math.ceil(p.bins.length / 12);
  const ticks = integer ? p.bins.filter((_, i) => i % every === 0).map((b) => b.from + 0.5) : [x0, (x0 + x1) / 2, x1];
  for (const t of ticks) s.append(svg('text', { x: sx(t), y: H - M.bottom + 14, class: 'tick', 'text-anchor': 'middle', text: show(t, p.unit) }));
  if (p.mark) markLine(s, sx(p.mark.value), p.mark, p.unit);
  return s;
}

function histogramSummary(p: Histogram): string {
  const base = l10n.t(
    '{0} plans: min {1}, median {2}, max {3}.',
    p.n.toLocaleString('en-US'),
    show(p.min, p.unit),
    show(p.median, p.unit),
    show(p.max, p.unit),
  );
  return p.mark ? `${base} ${l10n.t('Reference: {0}, {1}.', show(p.mark.value, p.unit), percentile(p.mark))}` : base;
}

function histogramTable(p: Histogram): HTMLElement {
  return h(
    'table',
    { class: 'districts-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col', text: l10n.t('From') }),
        h('th', { scope: 'col', text: l10n.t('To') }),
        h('th', { scope: 'col', class: 'num', text: l10n.t('Plans') }),
      ),
    ),
    h(
      'tbody',
      {},
      ...p.bins.map((b) =>
        h(
          'tr',
          {},
          h('td', { text: show(b.from, p.unit) }),
          h('td', { text: show(b.to, p.unit) }),
          h('td', { class: 'num', text: b.count.toLocaleString('en-US') }),
        ),
      ),
    ),
  );
}

/** Marginal box plots: a box per district rank (whiskers min–max, box the quartiles, a line at the median). */
function boxesSvg(p: Boxes): SVGSVGElement {
  // The axis spans the shares drawn (whole percents, a margin of 5 points): boxes of a close race stay readable.
  const lo = Math.max(0, Math.floor(Math.min(...p.ranks.map((r) => Math.min(r.min, r.mark?.value ?? Infinity))) * 20 - 1) / 20);
  const hi = Math.min(1, Math.ceil(Math.max(...p.ranks.map((r) => Math.max(r.max, r.mark?.value ?? -Infinity))) * 20 + 1) / 20);
  const s = frame(show(hi, 'fraction'), l10n.t('district rank (by {0}, smallest first)', p.label), show(lo, 'fraction'));
  const sy = (v: number) => H - M.bottom - ((v - lo) / (hi - lo || 1)) * (H - M.top - M.bottom);
  const slot = (W - M.left - M.right) / Math.max(1, p.ranks.length);
  // The 50 % line: where a district changes hands in a two-party election.
  if (lo < 0.5 && hi > 0.5) {
    s.append(
      svg('line', { x1: M.left, y1: sy(0.5), x2: W - M.right, y2: sy(0.5), class: 'ensemble-half' }),
      svg('text', { x: M.left - 6, y: sy(0.5) + 4, class: 'tick', 'text-anchor': 'end', text: show(0.5, 'fraction') }),
    );
  }
  p.ranks.forEach((r, k) => {
    const cx = M.left + slot * (k + 0.5);
    const half = Math.max(1, Math.min(14, slot * 0.3));
    const g = svg('g', { class: 'ensemble-box' });
    g.append(
      svg('title', {
        text: l10n.t(
          'Rank {0}: min {1}, q1 {2}, median {3}, q3 {4}, max {5}',
          r.rank,
          ...[r.min, r.q25, r.median, r.q75, r.max].map((v) => show(v, 'fraction')),
        ),
      }),
      svg('line', { x1: cx, y1: sy(r.min), x2: cx, y2: sy(r.max), class: 'ensemble-whisker' }),
      svg('rect', { x: cx - half, y: sy(r.q75), width: 2 * half, height: Math.max(1, sy(r.q25) - sy(r.q75)), class: 'ensemble-bar' }),
      svg('line', { x1: cx - half, y1: sy(r.median), x2: cx + half, y2: sy(r.median), class: 'ensemble-median' }),
    );
    if (r.mark) g.append(svg('circle', { cx, cy: sy(r.mark.value), r: 3.5, class: 'ensemble-mark-dot' }));
    s.append(g);
    if (p.ranks.length <= 20 || k % Math.ceil(p.ranks.length / 20) === 0)
      s.append(svg('text', { x: cx, y: H - M.bottom + 14, class: 'tick', 'text-anchor': 'middle', text: r.rank }));
  });
  const marked = p.ranks.filter((r) => r.mark).length;
  if (marked) {
    s.append(
      svg('circle', { cx: W - M.right - 104, cy: M.top - 14, r: 3.5, class: 'ensemble-mark-dot' }),
      svg('text', { x: W - M.right, y: M.top - 10, class: 'ensemble-mark-label', 'text-anchor': 'end', text: l10n.t('reference plan') }),
    );
  }
  return s;
}

function boxesSummary(p: Boxes): string {
  const first = p.ranks[0]!;
  const last = p.ranks.at(-1)!;
  const base = l10n.t(
    '{0} ranks; median {1} from {2} (rank 1) to {3} (rank {4}).',
    p.ranks.length,
    p.label,
    show(first.median, 'fraction'),
    show(last.median, 'fraction'),
    last.rank,
  );
  const marks = p.ranks.filter((r) => r.mark);
  if (!marks.length) return base;
  return `${base} ${l10n.t('Reference: {0}.', marks.map((r) => `${l10n.t('rank {0}', r.rank)} ${show(r.mark!.value, 'fraction')} (${percentile(r.mark!)})`).join('; '))}`;
}

function boxesTable(p: Boxes): HTMLElement {
  const cols = [l10n.t('Rank'), l10n.t('min'), l10n.t('q1'), l10n.t('median'), l10n.t('q3'), l10n.t('max'), l10n.t('Reference'), l10n.t('Percentile')];
  return h(
    'table',
    { class: 'districts-table' },
    h('thead', {}, h('tr', {}, ...cols.map((c, i) => h('th', { scope: 'col', class: i ? 'num' : undefined, text: c })))),
    h(
      'tbody',
      {},
      ...p.ranks.map((r) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row', text: String(r.rank) }),
          ...[r.min, r.q25, r.median, r.q75, r.max, r.mark?.value].map((v) => h('td', { class: 'num', text: show(v, 'fraction') })),
          h('td', { class: 'num', text: r.mark ? percentile(r.mark) : '—' }),
        ),
      ),
    ),
  );
}
