import * as l10n from '@vscode/l10n';
import type {
  CheckDTO,
  DocDTO,
  ExportKind,
  FieldDTO,
  NodeDTO,
  RangeDTO,
  RevealDTO,
  RowDTO,
  SearchDTO,
  TableDTO,
  TopDTO,
  UnrecognisedDTO,
  ViewOps,
} from '../src/protocol/protocol.js';
import { BytesPane, dump } from './bytesPane.js';
import { h, hexOffset } from './dom.js';
import { formatCount } from './l10n.js';
import { optionInputs, type Values } from './options.js';
import { renderPanel } from './panels/index.js';
import { host, loadState, notify, saveState } from './rpc.js';
import { StructureTree } from './tree.js';
import { VirtualTable } from './virtualTable.js';

interface Tab {
  readonly id: string;
  readonly title: string;
  render(): HTMLElement;
  dispose?(): void;
}

function formatSize(n: number): string {
  if (n < 1024) return l10n.t('{0} B', n);
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < 3) ((v /= 1024), i++);
  const value = v.toFixed(v < 10 ? 2 : 1);
  // Unit symbols are strings too: French writes octets (Kio, Mio).
  return [l10n.t('{0} KiB', value), l10n.t('{0} MiB', value), l10n.t('{0} GiB', value), l10n.t('{0} TiB', value)][i]!;
}

function button(text: string, onClick: () => void, attrs: Record<string, string> = {}): HTMLButtonElement {
  const b = h('button', { type: 'button', ...attrs, text });
  b.addEventListener('click', onClick);
  return b;
}

/** The whole editor for one opened document. */
export class App {
  private readonly status: HTMLElement;
  private readonly bytes: BytesPane;
  private readonly tables = new Map<
    string,
    {
      dto: TableDTO;
      view?: VirtualTable;
      counter?: HTMLElement;
      shown?: TableDTO;
      values?: Values;
      counting?: Promise<void>;
      progress?: string;
      countButton?: HTMLElement;
    }
  >();
  private tabs: Tab[] = [];
  private current: Tab | undefined;
  private tree: StructureTree | undefined;
  /** Tables whose first page has been read: a read that runs the document's checks (fst CRC, BENDL CRC32Cs) once. */
  private readonly pagedTables = new Set<string>();
  /** The summary's fields: the document's, until a finished count gives final ones. */
  private summaryFields: readonly FieldDTO[];
  private readonly tabList: HTMLElement;
  private readonly tabPanel: HTMLElement;
  /** The search and values the search tab starts with and runs once (a reveal at an fst key). */
  private searchPreset: Extract<RevealDTO, { kind: 'search' }> | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly doc: DocDTO,
    hexEditor: boolean,
  ) {
    this.status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
    this.bytes = new BytesPane(
      { bytes: (offset, length) => host.call('bytes', { offset, length }) },
      hexEditor ? (offset) => notify({ topic: 'revealBytes', payload: { offset, length: 0 } }) : undefined,
    );
    for (const t of doc.tables) this.tables.set(t.id, { dto: t });
    this.tabList = h('div', { role: 'tablist', class: 'tabs', 'aria-label': l10n.t('Views') });
    this.tabPanel = h('div', { role: 'tabpanel', class: 'tabpanel', tabindex: 0 });
    this.summaryFields = doc.summary;
    this.build();
  }

  private build(): void {
    const d = this.doc;
    const tree = new StructureTree(
      { children: (node, from, count) => host.call('children', { node, from, count }) },
      (n) => this.select(n.range, n.label),
      l10n.t('Structure'),
    );
    this.tree = tree;
    const header = h(
      'header',
      { class: 'topbar' },
      h('span', { class: 'badge', text: d.format }),
      h('h1', { text: d.title }),
      h('span', { class: 'file', text: `${d.fileName} · ${formatSize(d.size)}` }),
      h(
        'div',
        { class: 'actions' },
        button(l10n.t('Verify'), () => notify({ topic: 'command', payload: { command: 'verify' } }), {
          title: l10n.t('Check every checksum and structure rule of this file'),
        }),
        button(l10n.t('Convert…'), () => notify({ topic: 'command', payload: { command: 'convert' } })),
        // Offered beside Convert once a check has failed; the editor title offers it always.
        d.warnings.some((w) => w.status === 'fail') &&
          button(l10n.t('Save Intact Part…'), () => notify({ topic: 'command', payload: { command: 'saveIntact' } }), {
            title: l10n.t('Save every intact part of this file and list the damaged parts left out'),
          }),
        button(l10n.t('Open as Text'), () => notify({ topic: 'command', payload: { command: 'openAsText' } }), {
          title: l10n.t('The annotated structure in a text editor, for diffs'),
        }),
      ),
    );
    const structure = h('nav', { class: 'structure', 'aria-label': l10n.t('Structure') }, h('h2', { class: 'pane-title', text: l10n.t('Structure') }), tree.el);
    const content = h('section', { class: 'content', 'aria-label': l10n.t('Content') }, this.tabList, this.tabPanel);
    this.root.replaceChildren(header, this.warnings(d.warnings), h('div', { class: 'main' }, structure, content), this.bytes.el, this.status);
    tree.setRoot(d.root);

    this.tabs = [
      { id: 'summary', title: l10n.t('Summary'), render: () => this.summary(this.summaryFields) },
      ...d.tables.map(
        (t): Tab => ({ id: `table:${t.id}`, title: t.title, render: () => this.tableView(t.id), dispose: () => this.tables.get(t.id)?.view?.dispose() }),
      ),
      ...d.panels.map((p): Tab => ({ id: `panel:${p.id}`, title: p.title, render: () => this.panelView(p.id) })),
      ...(d.searches.length ? [{ id: 'search', title: l10n.t('Search'), render: () => this.searchView(d.searches) }] : []),
    ];
    this.tabList.replaceChildren(...this.tabs.map((t) => this.tabButton(t)));
    this.tabList.addEventListener('keydown', (e) => this.onTabKey(e));
    const saved = loadState().tab;
    const first = this.tabs.find((t) => t.id === saved) ?? this.tabs.find((t) => t.id.startsWith('table:')) ?? this.tabs[0]!;
    this.show(first);
    this.announce(`${d.formatLabel}: ${d.title}`);
  }

  private warnings(list: readonly CheckDTO[]): HTMLElement {
    if (list.length === 0) return h('div', { hidden: true });
    return h(
      'section',
      { class: 'warnings', 'aria-label': l10n.t('Problems found while opening') },
      h(
        'ul',
        {},
        ...list.map((w) => {
          const li = h(
            'li',
            { class: `mark-${w.status === 'fail' ? 'error' : 'warn'}` },
            h('strong', { text: `${w.status === 'fail' ? '✖' : '⚠'} ${w.name}: ` }),
            w.detail,
          );
          if (w.offset !== undefined) {
            const at = button(`@${hexOffset(w.offset)}`, () => this.select({ offset: w.offset!, length: 16 }, w.name), { class: 'link' });
            li.append(' ', at);
          }
          return li;
        }),
      ),
    );
  }

  private tabButton(t: Tab): HTMLElement {
    const b = h('button', { type: 'button', role: 'tab', id: `tab-${t.id}`, 'aria-selected': 'false', tabindex: -1, text: t.title });
    b.addEventListener('click', () => this.show(t));
    return b;
  }

  private onTabKey(e: KeyboardEvent): void {
    const i = this.tabs.indexOf(this.current!);
    const next = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? this.tabs.length - 1 : undefined;
    if (next === undefined) return;
    e.preventDefault();
    const t = this.tabs[(next + this.tabs.length) % this.tabs.length]!;
    this.show(t);
    document.getElementById(`tab-${t.id}`)?.focus();
  }

  private show(t: Tab): void {
    this.current?.dispose?.();
    this.current = t;
    for (const b of this.tabList.children) {
      const selected = b.id === `tab-${t.id}`;
      b.setAttribute('aria-selected', String(selected));
      (b as HTMLElement).tabIndex = selected ? 0 : -1;
    }
    this.tabPanel.setAttribute('aria-labelledby', `tab-${t.id}`);
    this.tabPanel.replaceChildren(t.render());
    saveState({ tab: t.id });
  }

  select(range: RangeDTO | undefined, label: string): void {
    this.bytes.show(range, label);
  }

  announce(text: string): void {
    this.status.textContent = text;
  }

  /**
   * Shows a place the host asks for (a diff row clicked in a compare view): a table's row, made
   * the active one through the saved position the table view restores, or a search run.
   */
  reveal(at: RevealDTO): void {
    const id = at.kind === 'row' ? `table:${at.table}` : 'search';
    const tab = this.tabs.find((t) => t.id === id);
    if (!tab) return;
    if (at.kind === 'row') {
      saveState({ rows: { ...loadState().rows, [at.table]: at.row } });
      this.announce(l10n.t('{0} row {1}', tab.title, at.row));
    } else this.searchPreset = at;
    this.show(tab);
    document.getElementById(`tab-${tab.id}`)?.focus();
  }

  private summary(fields: readonly FieldDTO[]): HTMLElement {
    const dl = h('dl', { class: 'fields summary' });
    for (const f of fields) {
      const dd = h('dd', { class: f.mark ? `mark-${f.mark}` : undefined }, f.value, f.note ? h('span', { class: 'note', text: `  (${f.note})` }) : null);
      const dt = h(
        'dt',
        {},
        f.range
          ? button(f.name, () => this.select(f.range, f.name), { class: 'link', title: l10n.t('bytes {0}+{1}', f.range.offset, f.range.length) })
          : f.name,
      );
      dl.append(dt, dd);
    }
    return h('div', { class: 'summary-view' }, dl);
  }

  private tableView(id: string): HTMLElement {
    const entry = this.tables.get(id)!;
    const counter = h('span', { class: 'row-count' });
    entry.counter = counter;
    // A table with parameters shows the table made for their values (another reading, an expanded column).
    const mount = (dto: TableDTO) => {
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
          onSelect: (row, index) => this.select(row.range, l10n.t('{0} row {1}', dto.title, index)),
          onActive: (index) => saveState({ rows: { ...loadState().rows, [id]: index } }),
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
    };
    const view = mount(entry.shown ?? entry.dto);
    const goto = h('input', { type: 'number', min: 0, class: 'goto', 'aria-label': l10n.t('Go to row'), placeholder: l10n.t('row #') });
    goto.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') entry.view?.goTo(Number(goto.value) || 0);
    });
    const tools = h('div', { class: 'table-tools' }, counter, h('label', {}, `${l10n.t('Go to row')} `, goto));
    if (entry.dto.params?.length) {
      const values = (entry.values ??= {});
      const apply = () =>
        host.call('table', { table: id, params: values }).then(
          (dto) => {
            const at = entry.view?.activeRow ?? 0;
            mount(dto).goTo(at, false);
            this.announce(l10n.t('{0}: {1} columns', dto.title, dto.columns.length));
          },
          (e: Error) => this.announce(e.message),
        );
      const form = h('form', { class: 'table-params' }, ...optionInputs(entry.dto.params, values, () => void apply()));
      form.addEventListener('submit', (e) => e.preventDefault());
      tools.append(form);
    }
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

  /**
   * A table's first page may have run a check whose failure the tree marks (a CRC over the whole
   * file): once per table, the fresh top rows, the same ones a finished count returns.
   */
  private afterFirstPage(table: string): void {
    if (this.pagedTables.has(table)) return;
    this.pagedTables.add(table);
    host.call('top', {}).then(
      (top) => top && this.showTop(top),
      () => undefined,
    );
  }

  /** Fresh top rows (a count, a table's first page, or a Verify run in this document): the tree updates them in place. */
  showTop(top: TopDTO): void {
    this.tree?.showValues(top.root, top.children);
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
      if (result.top) this.showTop(result.top);
      if (result.summary) {
        this.summaryFields = result.summary;
        if (this.current?.id === 'summary') this.tabPanel.replaceChildren(this.summary(result.summary));
      }
    } catch (e) {
      entry.progress = undefined;
      this.updateCount(id);
      if (entry.countButton) entry.countButton.hidden = false;
      this.announce(l10n.t('Counting {0} stopped: {1}', entry.dto.title, (e as Error).message));
    }
  }

  setRowCount(id: string, known: number, complete: boolean): void {
    const entry = this.tables.get(id);
    if (!entry) return;
    entry.dto = { ...entry.dto, rowCount: { known, complete }, countable: entry.dto.countable && !complete };
    this.updateCount(id);
    entry.view?.refresh();
    if (complete) this.announce(l10n.t('{0}: {1} rows', entry.dto.title, known));
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

  private panelView(id: string): HTMLElement {
    const spec = this.doc.panels.find((p) => p.id === id)!;
    const values: Values = {};
    const holder = h('div', { class: 'panel-body', 'aria-live': 'polite' });
    let request = 0;
    let running: AbortController | undefined;
    // A long panel (the ensemble pass) reports progress here, with a cancel that undoes the change that started it.
    const progress = h('p', { class: 'panel-progress', role: 'status' });
    let undo: (() => void) | undefined;
    const pickGraph = () => host.call('pickGraph', {}).then((r) => r.picked);
    const pickShapes = () => host.call('pickShapes', {}).then((r) => r.picked);
    const pickReference = () => host.call('pickReference', {}).then((r) => r.picked);
    const save = (kind: ExportKind, name: string, data: string) => host.call('saveExport', { kind, name, data }).then((r) => r.saved);
    const set = (key: string, value: string | number | boolean, redraw = true) => {
      if (!redraw) return void (values[key] = value);
      const before = values[key];
      undo = () => (before === undefined ? delete values[key] : (values[key] = before));
      values[key] = value;
      showValue(key, value);
      draw();
    };
    const draw = () => {
      const mine = ++request;
      // A request this one supersedes is cancelled in the engine too (a pass no longer wanted).
      running?.abort();
      const stop = (running = new AbortController());
      holder.setAttribute('aria-busy', 'true');
      const onEvent = (p: ViewOps['panel']['event']) => {
        if (mine !== request) return;
        const done = p.total ? l10n.t('{0} of {1}', formatCount(p.done), formatCount(p.total)) : (p.message ?? formatCount(p.done));
        const cancel = h('button', { type: 'button', text: l10n.t('Cancel') });
        // At once, not when the engine's cancel comes back: the answer to this request is ignored from here.
        cancel.addEventListener('click', () => {
          stop.abort();
          undo?.();
          undo = undefined;
          draw();
        });
        progress.replaceChildren(l10n.t('Working: {0}', done), ' ', cancel);
      };
      host.call('panel', { panel: id, params: values }, { signal: stop.signal, onEvent }).then(
        (data) => {
          if (mine !== request) return;
          holder.removeAttribute('aria-busy');
          progress.replaceChildren();
          holder.replaceChildren(renderPanel(data, { set, pickGraph, pickShapes, pickReference, save }));
        },
        (e: Error) => {
          if (mine !== request) return;
          progress.replaceChildren();
          holder.replaceChildren(h('p', { class: 'mark-error', text: e.message }));
        },
      );
    };
    const controls = spec.params.length ? h('form', { class: 'panel-params' }, ...optionInputs(spec.params, values, draw)) : null;
    const showValue = (key: string, value: string | number | boolean) => {
      const input = controls?.querySelector<HTMLInputElement>(`input[name="${CSS.escape(key)}"]`);
      if (input && input.type !== 'checkbox') input.value = String(value);
    };
    controls?.addEventListener('submit', (e) => e.preventDefault());
    draw();
    return h('div', { class: 'panel-view' }, controls, progress, holder);
  }

  private searchView(searches: readonly SearchDTO[]): HTMLElement {
    const select = h('select', { 'aria-label': l10n.t('Search kind') }, ...searches.map((s) => h('option', { value: s.id, text: s.label })));
    const params = h('div', { class: 'search-params' });
    const results = h('div', { class: 'search-results' });
    const count = h('span', { class: 'row-count', role: 'status', 'aria-live': 'polite' });
    let running: AbortController | undefined;
    let values: Values = {};
    const renderParams = (preset: Values = {}) => {
      values = { ...preset };
      params.replaceChildren(...optionInputs(searches.find((s) => s.id === select.value)!.params, values, () => undefined));
    };
    select.addEventListener('change', () => renderParams());
    const preset = this.searchPreset;
    this.searchPreset = undefined;
    if (preset && searches.some((s) => s.id === preset.search)) select.value = preset.search;
    renderParams(preset?.search === select.value ? preset.params : {});
    const run = async () => {
      running?.abort();
      const controller = new AbortController();
      running = controller;
      const spec = searches.find((s) => s.id === select.value)!;
      const rows: RowDTO[] = [];
      const table = new VirtualTable(
        { columns: spec.columns, rowCount: () => ({ known: rows.length, complete: true }), page: (from, n) => Promise.resolve(rows.slice(from, from + n)) },
        {
          label: l10n.t({
            message: '{0} results',
            args: [spec.label],
            comment: ['{0} is the name of a search, e.g. "prefix": the label of its results table'],
          }),
          onSelect: (row, i) => this.select(row.range, l10n.t('result {0}', i)),
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
      select,
      params,
      h('button', { type: 'submit', text: l10n.t('Search') }),
      button(l10n.t('Cancel'), () => running?.abort()),
      count,
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void run();
    });
    if (preset?.search === select.value) void run();
    return h('div', { class: 'search-view' }, form, results);
  }
}

/** What the editor shows when no reader recognises the file. */
export function renderUnrecognised(root: HTMLElement, u: UnrecognisedDTO, hexEditor: boolean): void {
  const actions = h(
    'div',
    { class: 'actions' },
    button(l10n.t('Reopen with Text Editor'), () => notify({ topic: 'command', payload: { command: 'reopenAsText' } })),
    hexEditor ? button(l10n.t('Reopen with Hex Editor'), () => notify({ topic: 'command', payload: { command: 'reopenAsHex' } })) : null,
  );
  root.replaceChildren(
    h(
      'section',
      { class: 'unrecognised', role: 'alert' },
      h('h1', { text: l10n.t('Not a Binlens format') }),
      h('p', { text: `${u.fileName} (${formatSize(u.size)}): ${u.reason}` }),
      actions,
      h('h2', { text: l10n.t('First bytes') }),
      h('pre', { class: 'bytes', tabindex: 0, role: 'region', 'aria-label': l10n.t('first bytes of the file'), text: dump(0, u.head) }),
    ),
  );
}

export type { NodeDTO };
