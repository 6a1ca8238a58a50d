import * as l10n from '@vscode/l10n';
import type { DocDTO, FieldDTO, RangeDTO, RevealDTO, TopDTO } from '../src/protocol/protocol.js';
import { BytesPane } from './bytesPane.js';
import { markFirstScreen } from './firstScreen.js';
import { button, h } from './dom.js';
import { renderTopBar, renderWarnings } from './header.js';
import { renderPanelTab } from './panelTab.js';
import { host, loadState, notify, saveState } from './rpc.js';
import { renderSearch, type SearchPreset } from './searchTab.js';
import { TableTabs } from './tableTab.js';
import { StructureTree } from './tree.js';

interface Tab {
  readonly id: string;
  readonly title: string;
  render(): HTMLElement;
  dispose?(): void;
}

/** The whole editor for one opened document: the top bar, the structure tree, the tabs and the bytes pane. */
export class App {
  private readonly status: HTMLElement;
  private readonly bytes: BytesPane;
  private readonly tables: TableTabs;
  private tabs: Tab[] = [];
  private current: Tab | undefined;
  private tree: StructureTree | undefined;
  /** The summary's fields: the document's, until a finished count gives final ones. */
  private summaryFields: readonly FieldDTO[];
  private readonly tabList: HTMLElement;
  private readonly tabPanel: HTMLElement;
  /** The search and values the search tab starts with and runs once (a reveal at an fst key). */
  private searchPreset: SearchPreset | undefined;

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
    this.tables = new TableTabs(doc.tables, {
      select: (range, label) => this.select(range, label),
      announce: (text) => this.announce(text),
      showTop: (top) => this.showTop(top),
      showSummary: (fields) => {
        this.summaryFields = fields;
        if (this.current?.id === 'summary') this.tabPanel.replaceChildren(this.summary(fields));
      },
    });
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
    const structure = h('nav', { class: 'structure', 'aria-label': l10n.t('Structure') }, h('h2', { class: 'pane-title', text: l10n.t('Structure') }), tree.el);
    const content = h('section', { class: 'content', 'aria-label': l10n.t('Content') }, this.tabList, this.tabPanel);
    const warnings = renderWarnings(d.warnings, (range, label) => this.select(range, label));
    this.root.replaceChildren(renderTopBar(d), warnings, h('div', { class: 'main' }, structure, content), this.bytes.el, this.status);
    tree.setRoot(d.root);

    this.tabs = [
      { id: 'summary', title: l10n.t('Summary'), render: () => this.summary(this.summaryFields) },
      ...d.tables.map((t): Tab => ({ id: `table:${t.id}`, title: t.title, render: () => this.tables.render(t.id), dispose: () => this.tables.dispose(t.id) })),
      ...d.panels.map((p): Tab => ({ id: `panel:${p.id}`, title: p.title, render: () => renderPanelTab(p) })),
      ...(d.searches.length ? [{ id: 'search', title: l10n.t('Search'), render: () => this.searchTab() }] : []),
    ];
    this.tabList.replaceChildren(...this.tabs.map((t) => this.tabButton(t)));
    this.tabList.addEventListener('keydown', (e) => this.onTabKey(e));
    const saved = loadState().tab;
    const first = this.tabs.find((t) => t.id === saved) ?? this.tabs.find((t) => t.id.startsWith('table:')) ?? this.tabs[0]!;
    this.show(first);
    // A table's first screen is complete when its rows come (tableTab.ts).
    if (!first.id.startsWith('table:')) markFirstScreen();
    this.announce(`${d.formatLabel}: ${d.title}`);
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

  /** Fresh top rows (a count, a table's first page, or a Verify run in this document): the tree updates them in place. */
  showTop(top: TopDTO): void {
    this.tree?.showValues(top.root, top.children);
  }

  setRowCount(id: string, known: number, complete: boolean): void {
    this.tables.setRowCount(id, known, complete);
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

  private searchTab(): HTMLElement {
    const preset = this.searchPreset;
    this.searchPreset = undefined;
    return renderSearch(this.doc.searches, preset, (range, label) => this.select(range, label));
  }
}
