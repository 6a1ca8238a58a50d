import * as l10n from '@vscode/l10n';
import type { FieldDTO, RangeDTO, TableDTO, TopDTO } from '../src/protocol/protocol.js';
import { button, h } from './dom.js';
import { markFirstScreen } from './firstScreen.js';
import { formatCount } from './l10n.js';
import { optionInputs, type Values } from './options.js';
import { host, loadState, saveState } from './rpc.js';
import { VirtualTable } from './virtualTable.js';

/** What a table tab tells the rest of the editor. */
export interface TableEvents {
  select(range: RangeDTO | undefined, label: string): void;
  announce(text: string): void;
  /** Fresh top rows for the tree. */
  showTop(top: TopDTO): void;
  /** Final summary fields from a finished count. */
  showSummary(fields: readonly FieldDTO[]): void;
}

interface Entry {
  dto: TableDTO;
  view?: VirtualTable;
  counter?: HTMLElement;
  shown?: TableDTO;
  values?: Values;
  counting?: Promise<void>;
  progress?: string;
  countButton?: HTMLElement;
}

/** The document's tables: each one's tab, its row count (counted in the background where it needs a scan) and parameters. */
export class TableTabs {
  private readonly tables = new Map<string, Entry>();
  /** Tables whose first page has been read: a read that runs the document's checks (fst CRC, BENDL CRC32Cs) once. */
  private readonly pagedTables = new Set<string>();

  constructor(
    tables: readonly TableDTO[],
    private readonly events: TableEvents,
  ) {
    for (const t of tables) this.tables.set(t.id, { dto: t });
  }

  dispose(id: string): void {
    this.tables.get(id)?.view?.dispose();
  }

  render(id: string): HTMLElement {
    const entry = this.tables.get(id)!;
    const counter = h('span', { class: 'row-count' });
    entry.counter = counter;
    const view = this.mount(id, entry.shown ?? entry.dto);
    const goto = h('input', { type: 'number', min: 0, class: 'goto', 'aria-label': l10n.t('Go to row'), placeholder: l10n.t('row #') });
    goto.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') entry.view?.goTo(Number(goto.value) || 0);
    });
    const tools = h('div', { class: 'table-tools' }, counter, h('label', {}, `${l10n.t('Go to row')} `, goto));
    if (entry.dto.params?.length) tools.append(this.paramsForm(id));
    if (entry.dto.countable) {
      entry.countButton = button(l10n.t('Count all'), () => void this.count(id));
      entry.countButton.hidden = true;
      tools.append(entry.countButton);
      // A count that needs a scan (a stream without an index) runs in the background from the
      // first look; the table pages meanwhile. The button is there to retry one that failed.
      void this.count(id);
    }
    this.updateCount(id);
    const saved = loadState().rows?.[id];
    if (saved !== undefined) requestAnimationFrame(() => view.goTo(saved, false));
    return h('div', { class: 'table-view' }, tools, view.el);
  }

  /** Shows `dto` in the tab of table `id`, in place of the view there. */
  private mount(id: string, dto: TableDTO): VirtualTable {
    const entry = this.tables.get(id)!;
    const old = entry.view;
    old?.dispose();
    entry.shown = dto;
    const view = new VirtualTable(
      {
        columns: dto.columns,
        rowCount: () => (dto.id === entry.dto.id ? entry.dto.rowCount : dto.rowCount),
        page: (from, count, signal) => host.call('page', { table: dto.id, from, count }, { signal }).finally(() => this.afterFirstPage(dto.id)),
      },
      {
        label: dto.title,
        onSelect: (row, index) => this.events.select(row.range, l10n.t('{0} row {1}', dto.title, index)),
        onActive: (index) => saveState({ rows: { ...loadState().rows, [id]: index } }),
        onFilled: markFirstScreen,
        onGrow: (rows) => {
          if (dto.id !== entry.dto.id || entry.dto.rowCount.complete || rows <= entry.dto.rowCount.known) return;
          entry.dto = { ...entry.dto, rowCount: { known: rows, complete: false } };
          this.updateCount(id);
        },
      },
    );
    entry.view = view;
    old?.el.replaceWith(view.el);
    return view;
  }

  /** A table with parameters shows the table made for their values (another reading, an expanded column). */
  private paramsForm(id: string): HTMLElement {
    const entry = this.tables.get(id)!;
    const values = (entry.values ??= {});
    const apply = () =>
      host.call('table', { table: id, params: values }).then(
        (dto) => {
          const at = entry.view?.activeRow ?? 0;
          this.mount(id, dto).goTo(at, false);
          this.events.announce(l10n.t('{0}: {1} columns', dto.title, dto.columns.length));
        },
        (e: Error) => this.events.announce(e.message),
      );
    const form = h('form', { class: 'table-params' }, ...optionInputs(entry.dto.params!, values, () => void apply()));
    form.addEventListener('submit', (e) => e.preventDefault());
    return form;
  }

  /**
   * A table's first page may have run a check whose failure the tree marks (a CRC over the whole
   * file): once per table, the fresh top rows, the same ones a finished count returns.
   */
  private afterFirstPage(table: string): void {
    if (this.pagedTables.has(table)) return;
    this.pagedTables.add(table);
    host.call('top', {}).then(
      (top) => top && this.events.showTop(top),
      () => undefined,
    );
  }

  private count(id: string): Promise<void> {
    const entry = this.tables.get(id)!;
    entry.counting ??= this.runCount(id).finally(() => (entry.counting = undefined));
    return entry.counting;
  }

  private async runCount(id: string): Promise<void> {
    const entry = this.tables.get(id)!;
    if (entry.countButton) entry.countButton.hidden = true;
    entry.progress = entry.dto.rowCount.complete ? l10n.t('indexing…') : l10n.t('counting…');
    this.updateCount(id);
    try {
      const result = await host.call(
        'count',
        { table: id },
        {
          onEvent: (p) => {
            const percent = p.total ? Math.floor((100 * p.done) / p.total) : undefined;
            // A table whose count is known counts again only to index its rows for far pages.
            entry.progress = entry.dto.rowCount.complete
              ? l10n.t('indexing: {0} %', percent ?? 0)
              : percent === undefined
                ? l10n.t('counting: {0}', p.message ?? formatCount(p.done))
                : l10n.t('counting: {0} %', percent);
            this.updateCount(id);
          },
        },
      );
      entry.progress = undefined;
      this.setRowCount(id, result.known, result.complete);
      if (result.top) this.events.showTop(result.top);
      if (result.summary) this.events.showSummary(result.summary);
    } catch (e) {
      entry.progress = undefined;
      this.updateCount(id);
      if (entry.countButton) entry.countButton.hidden = false;
      this.events.announce(l10n.t('Counting {0} stopped: {1}', entry.dto.title, (e as Error).message));
    }
  }

  setRowCount(id: string, known: number, complete: boolean): void {
    const entry = this.tables.get(id);
    if (!entry) return;
    entry.dto = { ...entry.dto, rowCount: { known, complete }, countable: entry.dto.countable && !complete };
    this.updateCount(id);
    entry.view?.refresh();
    if (complete) this.events.announce(l10n.t('{0}: {1} rows', entry.dto.title, known));
  }

  private updateCount(id: string): void {
    const entry = this.tables.get(id)!;
    const rc = entry.dto.rowCount;
    const known = formatCount(rc.known);
    if (!entry.counter) return;
    entry.counter.textContent = rc.complete
      ? entry.progress
        ? l10n.t('{0} rows ({1})', known, entry.progress)
        : l10n.t('{0} rows', known)
      : entry.progress
        ? l10n.t('≥ {0} rows so far ({1})', known, entry.progress)
        : l10n.t('≥ {0} rows so far', known);
  }
}
