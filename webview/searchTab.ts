import * as l10n from '@vscode/l10n';
import type { RangeDTO, RevealDTO, RowDTO, SearchDTO } from '../src/protocol/protocol.js';
import { button, h } from './dom.js';
import { optionInputs, type Values } from './options.js';
import { host } from './rpc.js';
import { VirtualTable } from './virtualTable.js';

export type SearchPreset = Extract<RevealDTO, { kind: 'search' }>;

/**
 * The Search tab: a kind, its parameters, and the results streamed into a table as they come.
 * A preset (a reveal at an fst key) chooses the kind and values and runs at once.
 */
export function renderSearch(
  searches: readonly SearchDTO[],
  preset: SearchPreset | undefined,
  select: (range: RangeDTO | undefined, label: string) => void,
): HTMLElement {
  const kind = h('select', { 'aria-label': l10n.t('Search kind') }, ...searches.map((s) => h('option', { value: s.id, text: s.label })));
  const params = h('div', { class: 'search-params' });
  const results = h('div', { class: 'search-results' });
  const count = h('span', { class: 'row-count', role: 'status', 'aria-live': 'polite' });
  let running: AbortController | undefined;
  let values: Values = {};
  const renderParams = (preset: Values = {}) => {
    values = { ...preset };
    params.replaceChildren(...optionInputs(searches.find((s) => s.id === kind.value)!.params, values, () => undefined));
  };
  kind.addEventListener('change', () => renderParams());
  if (preset && searches.some((s) => s.id === preset.search)) kind.value = preset.search;
  renderParams(preset?.search === kind.value ? preset.params : {});
  const run = async () => {
    running?.abort();
    const controller = new AbortController();
    running = controller;
    const spec = searches.find((s) => s.id === kind.value)!;
    const rows: RowDTO[] = [];
    const table = new VirtualTable(
      { columns: spec.columns, rowCount: () => ({ known: rows.length, complete: true }), page: (from, n) => Promise.resolve(rows.slice(from, from + n)) },
      {
        label: l10n.t({
          message: '{0} results',
          args: [spec.label],
          comment: ['{0} is the name of a search, e.g. "prefix": the label of its results table'],
        }),
        onSelect: (row, i) => select(row.range, l10n.t('result {0}', i)),
      },
    );
    results.replaceChildren(table.el);
    count.textContent = l10n.t('searching…');
    try {
      const report = await host.call(
        'search',
        { search: spec.id, params: values },
        { signal: controller.signal, onEvent: (batch) => (rows.push(...batch), table.refresh(), (count.textContent = l10n.t('{0} so far…', rows.length))) },
      );
      count.textContent = report.note ? l10n.t('{0} results ({1})', report.count, report.note) : l10n.t('{0} results', report.count);
    } catch (e) {
      count.textContent = controller.signal.aborted ? l10n.t('cancelled after {0} results', rows.length) : (e as Error).message;
    }
  };
  const form = h(
    'form',
    { class: 'search-form', role: 'search' },
    kind,
    params,
    h('button', { type: 'submit', text: l10n.t('Search') }),
    button(l10n.t('Cancel'), () => running?.abort()),
    count,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void run();
  });
  if (preset?.search === kind.value) void run();
  return h('div', { class: 'search-view' }, form, results);
}
