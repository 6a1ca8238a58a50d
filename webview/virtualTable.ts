import * as l10n from '@vscode/l10n';
import type { CellDTO, ColumnDTO, RowCountDTO, RowDTO } from '../src/protocol/protocol.js';
import { h } from './dom.js';
import { clampRow, inView, keyTarget, renderWindow, revealScrollTop, spacerHeight, type Viewport } from './tableGeometry.js';

const PAGE_ROWS = 100;
const MAX_PAGES = 60;

export interface TableSource {
  readonly columns: readonly ColumnDTO[];
  rowCount(): RowCountDTO;
  page(from: number, count: number, signal: AbortSignal): Promise<RowDTO[]>;
}

export function cellText(c: CellDTO): { text: string; title?: string; mark?: string } {
  if (c === null) return { text: '—', mark: 'null', title: l10n.t('null') };
  if (typeof c === 'object') return c;
  return { text: String(c) };
}

/**
 * One grid cell. A cell marked as a problem (a unit whose checksum failed shows "damaged") wears
 * the error colour and says why in its accessible name, not only in a tooltip a screen reader
 * may never reach: "damaged: BLAKE3 hash differs from the footer's".
 */
function cellElement(c: CellDTO, type: string): HTMLElement {
  const { text, title, mark } = cellText(c);
  const problem = mark === 'error' || mark === 'warn';
  return h('div', {
    role: 'gridcell',
    // Only damage takes the theme's error colour: the warning colour fails AA contrast on light
    // themes, so a warned cell keeps its text colour and says why in its name.
    class: `vt-cell ${type}${mark ? ` ${mark}` : ''}${mark === 'error' ? ' mark-error' : ''}`,
    title: title ?? (text.length > 40 ? text : undefined),
    'aria-label': problem && title ? l10n.t('{0}: {1}', text, title) : undefined,
    text,
  });
}

/** Column widths in ch: wide enough for the title and the widest value of the rows seen, within bounds. */
function columnWidths(columns: readonly ColumnDTO[], rows: readonly RowDTO[]): number[] {
  return columns.map((c, k) => {
    let widest = c.title.length;
    for (const r of rows) widest = Math.max(widest, Math.min(200, cellText(r.cells[k] ?? null).text.length));
    const max = c.type === 'hex' ? 66 : 48;
    return Math.max(4, Math.min(max, widest + 1));
  });
}

/** Pixels between columns and at both ends of a row (see .vt-row in style.css). */
const COLUMN_GAP_PX = 12;
const ROW_PADDING_PX = 16;

/**
 * A virtualised grid (WAI-ARIA grid pattern) over a paged source: only the visible rows exist in
 * the DOM, pages are fetched on demand and cached, and row counts in the millions scroll by
 * ratio. One row is the tab stop; arrows, Page Up/Down and Home/End move it.
 */
export class VirtualTable {
  readonly el: HTMLElement;
  private readonly viewport: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly body: HTMLElement;
  private readonly pages = new Map<number, RowDTO[] | Promise<void>>();
  /** The end of the furthest page fetched, and whether it was full (more rows may follow). */
  private seen = { end: 0, full: true };
  private template = '';
  private sized = false;
  private readonly head: HTMLElement;
  private readonly headGroup: HTMLElement;
  private active = 0;
  /** Whether the last render showed the active row within the viewport. */
  private activeShown = false;
  /** The viewport's height and scroll position at the last render. */
  private height = 0;
  private top = 0;
  /** A render took the focused active row out of the DOM; the next one that shows it focuses it again. */
  private focusLost = false;
  /** The active row, when its selection waits for its page: the page's arrival selects it. */
  private pendingSelect: number | undefined;
  private abort = new AbortController();
  private frame = 0;
  private readonly resize: ResizeObserver;

  constructor(
    private readonly source: TableSource,
    private readonly opts: {
      label: string;
      onSelect?: (row: RowDTO, index: number) => void;
      onActive?: (index: number) => void;
      /** Pages showed rows past an incomplete count: the table reaches at least this far. */
      onGrow?: (rows: number) => void;
      /** A render drew every row in view with its data (none waiting for a page). */
      onFilled?: () => void;
    },
  ) {
    this.head = h(
      'div',
      { role: 'row', 'aria-rowindex': 1, class: 'vt-row vt-head' },
      ...source.columns.map((c) => h('div', { role: 'columnheader', class: `vt-cell ${c.type ?? 'text'}`, title: c.description, text: c.title })),
    );
    this.headGroup = h('div', { role: 'rowgroup', class: 'vt-headgroup' }, this.head);
    this.body = h('div', { role: 'rowgroup', class: 'vt-body' });
    this.spacer = h('div', { class: 'vt-spacer' }, this.body);
    this.viewport = h('div', { class: 'vt-viewport' }, this.spacer);
    this.el = h('div', { role: 'grid', class: 'vtable', 'aria-label': opts.label, 'aria-colcount': source.columns.length }, this.headGroup, this.viewport);
    this.size([]);
    this.viewport.addEventListener('scroll', () => {
      this.headGroup.scrollLeft = this.viewport.scrollLeft;
      // The pages of the new place are asked for now, not at the frame that draws it: the engine
      // works while the frame waits, and the rows can come back before it.
      const { first, count } = renderWindow(this.view());
      this.fetch(first, count);
      this.schedule();
    });
    this.el.addEventListener('keydown', (e) => this.onKey(e));
    this.resize = new ResizeObserver(() => this.schedule());
    this.resize.observe(this.viewport);
    this.refresh();
  }

  /**
   * Fixed widths shared by every row keep the columns aligned; they are set from the titles, then
   * once from the first page of rows that arrives.
   */
  private size(rows: readonly RowDTO[]): void {
    const widths = columnWidths(this.source.columns, rows);
    this.template = widths.map((w) => `${w}ch`).join(' ');
    const total = `calc(${widths.reduce((a, b) => a + b, 0)}ch + ${COLUMN_GAP_PX * Math.max(0, widths.length - 1) + ROW_PADDING_PX}px)`;
    this.head.style.gridTemplateColumns = this.template;
    this.head.style.minWidth = total;
    this.spacer.style.minWidth = total;
    this.body.style.minWidth = total;
  }

  /**
   * The rows the table spans. While a count is still running the table reaches as far as pages
   * have shown rows, and a page further while the last one came back full, so the first screen
   * and scrolling down do not wait for the count.
   */
  private rows(): number {
    const rc = this.source.rowCount();
    if (rc.complete) return rc.known;
    return Math.max(rc.known, this.seen.end + (this.seen.full ? PAGE_ROWS : 0));
  }

  /** Call after the row count changed (a background count progressed or finished, results streamed in). */
  refresh(): void {
    const rows = this.rows();
    // -1 is ARIA's "the total is not known yet".
    this.el.setAttribute('aria-rowcount', this.source.rowCount().complete ? String(rows + 1) : '-1');
    this.spacer.style.height = `${spacerHeight(rows)}px`;
    this.schedule();
  }

  get activeRow(): number {
    return this.active;
  }

  /**
   * Moves the active row to `index`, scrolls it into view and selects it: every way the active
   * row moves (keys, Go to row, a restored position) selects, so what the selection shows (the
   * bytes pane) never names another row than the one highlighted.
   */
  goTo(index: number, focus = true): void {
    const rows = this.rows();
    if (rows === 0) return;
    this.active = clampRow(index, rows);
    this.reveal();
    this.opts.onActive?.(this.active);
    this.render(focus);
    this.select(this.active);
  }

  /** Tells the owner row `i` is selected, now if its page is here, else once it arrives. */
  private select(i: number): void {
    const row = this.cached(i);
    this.pendingSelect = row ? undefined : i;
    if (row) this.opts.onSelect?.(row, i);
  }

  /** Scrolls the active row to the middle of the view when it is not in view. */
  private reveal(): void {
    const top = revealScrollTop(this.view(), this.active);
    if (top !== undefined) this.viewport.scrollTop = top;
  }

  /** Releases what the table holds outside itself: page requests, the observer, a pending frame. */
  dispose(): void {
    this.abort.abort();
    this.resize.disconnect();
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  private view(): Viewport {
    return { rows: this.rows(), scrollTop: this.viewport.scrollTop, height: this.viewport.clientHeight };
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render(false);
    });
  }

  private render(focus: boolean): void {
    // A pane that grows (the detail of the row just selected) shortens the table: the active row
    // stays in view if it was, as it would not by itself past the end of a scaled table, unless
    // the user scrolled since. Checked here, not when the resize is observed: a frame may render
    // the new height first.
    if (this.viewport.clientHeight !== this.height) {
      this.height = this.viewport.clientHeight;
      if (this.activeShown && this.viewport.scrollTop === this.top) this.reveal();
    }
    const view = this.view();
    const { first, count, offsetPx } = renderWindow(view);
    this.body.style.transform = `translateY(${offsetPx}px)`;
    this.top = view.scrollTop;
    this.activeShown = inView(view, this.active);
    const hadFocus = this.el.contains(document.activeElement);
    // Focus that fell to the page when its row left the DOM, and went nowhere else since.
    const orphaned = this.focusLost && (document.activeElement === null || document.activeElement === document.body);
    const els: HTMLElement[] = [];
    for (let i = first; i < first + count; i++) els.push(this.rowElement(i));
    this.body.replaceChildren(...els);
    if (focus || hadFocus || orphaned) {
      const activeEl = this.body.querySelector<HTMLElement>('[tabindex="0"]');
      activeEl?.focus({ preventScroll: true });
      this.focusLost = !activeEl;
    } else this.focusLost = false;
    if (!this.body.querySelector('[tabindex="0"]') && els[0]) els[0].tabIndex = 0;
    this.fetch(first, count);
    if (!els.some((el) => el.hasAttribute('aria-busy'))) this.opts.onFilled?.();
  }

  private rowElement(i: number): HTMLElement {
    const row = this.cached(i);
    const el = h('div', {
      role: 'row',
      'aria-rowindex': i + 2,
      'aria-selected': i === this.active ? 'true' : 'false',
      'aria-busy': row ? undefined : 'true',
      tabindex: i === this.active ? 0 : -1,
      class: `vt-row${i === this.active ? ' active' : ''}${row?.mark ? ` mark-${row.mark}` : ''}`,
    });
    el.style.gridTemplateColumns = this.template;
    if (row) {
      row.cells.forEach((c, k) => el.append(cellElement(c, this.source.columns[k]?.type ?? 'text')));
    } else {
      el.append(h('div', { role: 'gridcell', class: 'vt-cell loading', text: '…' }));
    }
    el.addEventListener('click', () => {
      this.active = i;
      this.render(true);
      this.opts.onActive?.(i);
      this.select(i);
    });
    return el;
  }

  /** Whether page p has rows in the window the last render drew. */
  private inWindow(p: number): boolean {
    const rows = this.body.children;
    if (rows.length === 0) return false;
    const first = Number(rows[0]!.getAttribute('aria-rowindex')) - 2;
    const last = first + rows.length - 1;
    return p * PAGE_ROWS <= last && (p + 1) * PAGE_ROWS > first;
  }

  private cached(i: number): RowDTO | undefined {
    const page = this.pages.get(Math.floor(i / PAGE_ROWS));
    return Array.isArray(page) ? page[i % PAGE_ROWS] : undefined;
  }

  /**
   * Asks for the pages of rows first..first+count that are neither here nor on their way, one
   * request per run of adjacent pages: a place that spans two pages costs one round trip and one
   * render, not two of each.
   */
  private fetch(first: number, count: number): void {
    const firstPage = Math.floor(first / PAGE_ROWS);
    const lastPage = Math.floor((first + Math.max(0, count - 1)) / PAGE_ROWS);
    const rows = this.rows();
    // A page fetched while the table was shorter (streamed results, a count still running) is fetched again.
    const missing = (p: number) => {
      const cached = this.pages.get(p);
      return !cached || (Array.isArray(cached) && cached.length < PAGE_ROWS && p * PAGE_ROWS + cached.length < rows);
    };
    for (let p = firstPage; p <= lastPage; p++) {
      if (!missing(p)) continue;
      let end = p + 1;
      while (end <= lastPage && missing(end)) end++;
      this.load(p, end);
      p = end;
    }
  }

  /** Fetches pages from..to-1 in one request. */
  private load(from: number, to: number): void {
    const loading = this.source.page(from * PAGE_ROWS, (to - from) * PAGE_ROWS, this.abort.signal).then(
      (rows) => {
        if (!this.sized && rows.length > 0) {
          this.sized = true;
          this.size(rows);
        }
        let drawn = false;
        for (let p = from; p < to; p++) {
          this.pages.set(p, rows.slice((p - from) * PAGE_ROWS, (p - from + 1) * PAGE_ROWS));
          const pending = this.pendingSelect;
          if (pending !== undefined && Math.floor(pending / PAGE_ROWS) === p) this.select(pending);
          drawn ||= this.inWindow(p);
        }
        this.evict(from, to);
        const end = from * PAGE_ROWS + rows.length;
        if (end >= this.seen.end && !this.source.rowCount().complete) {
          this.seen = { end, full: rows.length === (to - from) * PAGE_ROWS };
          this.refresh();
          this.opts.onGrow?.(end);
        }
        // Rows of the place on screen are drawn as they arrive, a frame sooner than at the next
        // animation frame; a frame already asked for (a scroll since) draws them instead.
        if (this.frame === 0 && drawn) this.render(false);
        else this.schedule();
      },
      () => {
        for (let p = from; p < to; p++) this.pages.delete(p);
      },
    );
    for (let p = from; p < to; p++) this.pages.set(p, loading);
  }

  private evict(keepFrom: number, keepTo: number): void {
    for (const key of this.pages.keys()) {
      if (this.pages.size <= MAX_PAGES) break;
      if ((key < keepFrom || key >= keepTo) && Array.isArray(this.pages.get(key))) this.pages.delete(key);
    }
  }

  private onKey(e: KeyboardEvent): void {
    // Scrolled away from the active row, the tab stop is the first row in view (render): keys
    // act on the row that has the focus, not on one the user no longer sees.
    const focused = (e.target as HTMLElement).closest?.('.vt-body [role="row"]');
    const at = focused ? Number(focused.getAttribute('aria-rowindex')) - 2 : this.active;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (at !== this.active) this.goTo(at);
      else this.select(at);
      return;
    }
    const next = keyTarget(e.key, at, this.rows(), this.viewport.clientHeight);
    if (next === undefined) return;
    e.preventDefault();
    this.goTo(next);
  }
}
