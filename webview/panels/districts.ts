import * as l10n from '@vscode/l10n';
import { DISTRICTS_PARAMS, type DistrictsPanelData } from '../../src/protocol/protocol.js';
import { h } from '../dom.js';
import type { PanelContext } from './index.js';

type Choice = { population?: string; elections: string[][] };

/**
 * The districts of one plan: which attributes are population and elections (native selects and
 * buttons, so keyboard and screen readers work unaided), the plan-level figures, and a real
 * <table> with column and row headers. Any change of the choice goes back as one JSON parameter.
 */
export function renderDistricts(data: DistrictsPanelData, ctx: PanelContext): HTMLElement {
  const parts: HTMLElement[] = [h('p', { class: 'plan-caption', text: data.caption })];
  if (data.missing) parts.push(h('p', { class: 'districts-missing', role: 'status', text: data.missing }));
  if (data.pickGraph && ctx.pickGraph) {
    const pick = h('button', { type: 'button', class: 'districts-pick', text: data.missing ? l10n.t('Choose graph…') : l10n.t('Choose another graph…') });
    // A new graph has attributes of its own: the old choice is dropped so the host offers the new graph's.
    pick.addEventListener('click', () => void ctx.pickGraph!().then((picked) => picked && ctx.set(DISTRICTS_PARAMS.choice, '')));
    parts.push(pick);
  }
  if (!data.missing) parts.push(chooser(data, ctx), figures(data), table(data));
  return h('div', { class: 'districts-panel' }, ...parts);
}

function chooser(data: DistrictsPanelData, ctx: PanelContext): HTMLElement {
  const choice: Choice = { population: data.choice.population, elections: data.choice.elections.map((e) => [...e]) };
  const send = () => ctx.set(DISTRICTS_PARAMS.choice, JSON.stringify(choice));
  const taken = () => [choice.population ?? '', ...choice.elections.flat()];
  const select = (value: string | undefined, label: string, onChange: (v: string) => void, none?: string) => {
    const s = h(
      'select',
      { 'aria-label': label },
      ...(none !== undefined ? [h('option', { value: '', text: none, selected: value === undefined })] : []),
      ...data.attributes.map((a) => h('option', { value: a, text: a, selected: a === value })),
    );
    s.addEventListener('change', () => onChange(s.value));
    return s;
  };
  const button = (text: string, label: string, onClick: () => void) => {
    const b = h('button', { type: 'button', text, 'aria-label': label });
    b.addEventListener('click', onClick);
    return b;
  };
  const population = h(
    'label',
    {},
    `${l10n.t('Population')} `,
    select(choice.population, l10n.t('Population attribute'), (v) => ((choice.population = v || undefined), send()), l10n.t('(none)')),
  );
  const elections = choice.elections.map((e, i) => {
    const n = i + 1;
    return h(
      'div',
      { class: 'districts-election', role: 'group', 'aria-label': l10n.t('Election {0}', n) },
      h('span', { text: l10n.t('Election {0}:', n) }),
      ...e.map((attr, p) => select(attr, l10n.t('Election {0}, party {1} votes', n, p + 1), (v) => ((e[p] = v), send()))),
      button('+', l10n.t('Add a party to election {0}', n), () => (e.push(unused(data.attributes, taken(), e)), send())),
      e.length > 2 ? button('−', l10n.t('Remove the last party of election {0}', n), () => (e.pop(), send())) : null,
      button(l10n.t('Remove'), l10n.t('Remove election {0}', n), () => (choice.elections.splice(i, 1), send())),
    );
  });
  const add = button(l10n.t('Add election'), l10n.t('Add election'), () => {
    const first = unused(data.attributes, taken(), []);
    choice.elections.push([first, unused(data.attributes, taken(), [first])]);
    send();
  });
  const note = data.guessed ? h('p', { class: 'districts-note', text: l10n.t('Guessed from the attribute names; change them here.') }) : null;
  return h(
    'fieldset',
    { class: 'districts-choice' },
    h('legend', { text: l10n.t('Attributes') }),
    population,
    ...elections,
    data.attributes.length >= 2 ? add : null,
    note,
  );
}

/**
 * A column for a new party: the first attribute nothing reads yet, else the first this election
 * lacks, so a new party or election starts on a column of its own where there is one.
 */
function unused(attributes: readonly string[], taken: readonly string[], own: readonly string[]): string {
  return attributes.find((a) => !taken.includes(a) && !own.includes(a)) ?? attributes.find((a) => !own.includes(a)) ?? attributes[0] ?? '';
}

function figures(data: DistrictsPanelData): HTMLElement {
  return h(
    'dl',
    { class: 'fields districts-figures', 'aria-label': l10n.t('Plan figures') },
    ...data.figures.flatMap((f) => [
      h('dt', { text: f.name }),
      h('dd', { title: f.detail, text: f.value }, f.detail ? h('span', { class: 'districts-detail', text: ` (${f.detail})` }) : null),
    ]),
  );
}

function table(data: DistrictsPanelData): HTMLElement {
  const head = h('tr', {}, ...data.columns.map((c) => h('th', { scope: 'col', class: c.numeric ? 'num' : undefined, text: c.title })));
  const body = data.rows.map((r) =>
    h(
      'tr',
      {},
      ...r.map((cell, i) => (i === 0 ? h('th', { scope: 'row', text: cell }) : h('td', { class: data.columns[i]?.numeric ? 'num' : undefined, text: cell }))),
    ),
  );
  const t = h(
    'table',
    { class: 'districts-table' },
    h('caption', { text: l10n.t('{0} districts', data.rows.length) }),
    h('thead', {}, head),
    h('tbody', {}, ...body),
  );
  // Focusable, so a keyboard can scroll a table wider or taller than the panel.
  return h('div', { class: 'districts-scroll', tabindex: 0, role: 'region', 'aria-label': l10n.t('District table') }, t);
}
