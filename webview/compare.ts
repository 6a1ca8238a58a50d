import * as l10n from '@vscode/l10n';
import { DIFF_COLUMNS, MAX_PAGE, type ComparePayload, type DiffResultDTO, type NodeDTO, type OpenResultDTO } from '../src/protocol/protocol.js';
import { h } from './dom.js';
import { formatCount } from './l10n.js';
import { compareHost } from './rpc.js';
import { StructureTree } from './tree.js';
import { VirtualTable } from './virtualTable.js';

type Side = 'a' | 'b';

/**
 * A top-level structure row as the comparison sees it: its label, numbered when it repeats
 * (a second "frame"), so rows pair up by what they are, not by position.
 */
function keyed(nodes: readonly NodeDTO[]): Map<string, NodeDTO> {
  const out = new Map<string, NodeDTO>();
  for (const n of nodes) {
    let key = n.label;
    for (let k = 2; out.has(key); k++) key = `${n.label} #${k}`;
    out.set(key, n);
  }
  return out;
}

/**
 * The top-level rows of one side with what changed against the other side in their note: a row
 * whose value differs, or that only this side has. The note is text, so a screen reader reads it
 * with the row; no mark, whose colours mean damage (and the warning colour fails contrast on
 * light themes).
 */
export function markChanges(mine: readonly NodeDTO[], theirs: readonly NodeDTO[], side: Side): NodeDTO[] {
  const other = keyed(theirs);
  const only = side === 'a' ? l10n.t('only in A') : l10n.t('only in B');
  return [...keyed(mine)].map(([key, n]) => {
    const o = other.get(key);
    const note = !o ? only : o.value !== n.value ? l10n.t('changed: {0}', o.value ?? '') : undefined;
    if (!note) return n;
    return { ...n, note: n.note ? `≠ ${note}; ${n.note}` : `≠ ${note}` };
  });
}

/** "same" / "N differences" and what the exit code of `binlens diff` would say. */
export function outcomeText(r: DiffResultDTO): string {
  if (r.exitCode === 2) {
    const where = r.trouble?.side ? l10n.t('file {0}', r.trouble.side) : l10n.t('the files');
    return l10n.t('cannot compare: {0}: {1} (exit code 2: unreadable or damaged data, no diff)', where, r.trouble?.message ?? '');
  }
  if (r.exitCode === 0) return l10n.t('same (exit code 0: no differences)');
  const head = r.differences === 1 ? l10n.t('1 difference') : l10n.t('{0} differences', formatCount(r.differences));
  const cut = r.dropped > 0 ? l10n.t('; the first {0} are listed', formatCount(r.rows)) : '';
  return l10n.t('{0}{1} (exit code 1: the files differ)', head, cut);
}

/** "A: name (format: title)" for the header; `short`, "A: name" for a narrow pane's title. */
function sideLabel(side: Side, o: OpenResultDTO, short = false): string {
  const name = o.kind !== 'opened' ? `${o.fileName}: ${o.reason}` : short ? o.doc.fileName : `${o.doc.fileName} (${o.doc.format}: ${o.doc.title})`;
  return side === 'a' ? l10n.t('A: {0}', name) : l10n.t('B: {0}', name);
}

/**
 * The compare view: both files' structures side by side, their top-level rows marked where
 * they differ, and the family's semantic diff (run once by the host's engine, in the
 * background) as a paged table. Activating a diff row (click, Enter) asks the host to open
 * both files at it.
 */
export class CompareView {
  private readonly status: HTMLElement;
  private readonly outcome: HTMLElement;
  private rows = 0;
  private complete = false;
  private table: VirtualTable | undefined;
  /** Each side's first page of top-level rows, fetched once and shared by both trees' marks. */
  private readonly tops = new Map<Side, Promise<NodeDTO[]>>();

  constructor(
    private readonly root: HTMLElement,
    private readonly payload: ComparePayload,
  ) {
    this.status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
    this.outcome = h('p', { class: 'diff-outcome', role: 'status', 'aria-live': 'polite', text: l10n.t('comparing…') });
    this.build();
    void this.runDiff();
  }

  private build(): void {
    const { a, b } = this.payload;
    const header = h(
      'header',
      { class: 'topbar' },
      h('span', { class: 'badge', text: l10n.t('compare') }),
      h('h1', { text: l10n.t('Compare') }),
      h('span', { class: 'file', text: `${sideLabel('a', a)} · ${sideLabel('b', b)}` }),
    );
    const structures = h('div', { class: 'compare-structures' }, ...(['a', 'b'] as const).map((side) => this.structure(side, side === 'a' ? a : b)));
    this.table = new VirtualTable(
      {
        columns: DIFF_COLUMNS.map((c) => ({ ...c, title: this.columnTitle(c.key) })),
        rowCount: () => ({ known: this.rows, complete: this.complete }),
        page: (from, count, signal) => compareHost().call('page', { from, count }, { signal }),
      },
      { label: l10n.t('Differences') },
    );
    const el = this.table.el;
    // A click or Enter opens both files at the row; moving through rows with the arrows does not.
    el.addEventListener('click', (e) => {
      // The row has re-rendered by now, so the clicked one is detached: matched by itself, not by its place.
      if ((e.target as HTMLElement).closest('[role="row"]:not(.vt-head)')) void this.reveal(this.table!.activeRow);
    });
    el.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') void this.reveal(this.table!.activeRow);
    });
    const diff = h(
      'section',
      { class: 'compare-diff', 'aria-label': l10n.t('Differences') },
      h('h2', { class: 'pane-title', text: l10n.t('Differences') }),
      this.outcome,
      h('p', { class: 'hint', text: l10n.t('Click a row or press Enter on it to open both files there.') }),
      el,
    );
    this.root.replaceChildren(header, h('div', { class: 'compare-main' }, structures, diff), this.status);
  }

  private columnTitle(key: string): string {
    return key === 'kind' ? l10n.t('kind') : key === 'at' ? l10n.t('where') : l10n.t('change');
  }

  private structure(side: Side, o: OpenResultDTO): HTMLElement {
    const title = sideLabel(side, o, true);
    const pane = h('nav', { class: 'structure', 'aria-label': title }, h('h2', { class: 'pane-title', text: title }));
    if (o.kind !== 'opened') {
      pane.append(h('p', { class: 'mark-error', text: o.reason }));
      return pane;
    }
    const rootId = o.doc.root.id;
    const tree = new StructureTree(
      {
        children: async (node, from, count) => {
          // The root's first page carries the marks: it waits for the other side's.
          if (node !== rootId || from !== 0) return compareHost().call('children', { side, node, from, count });
          const other: Side = side === 'a' ? 'b' : 'a';
          const [mine, theirs] = await Promise.all([this.top(side), this.top(other)]);
          return markChanges(mine, theirs, side).slice(0, count);
        },
      },
      (n) => (this.status.textContent = [n.label, n.value, n.note].filter(Boolean).join(' · ')),
      title,
    );
    pane.append(tree.el);
    tree.setRoot(o.doc.root);
    return pane;
  }

  private top(side: Side): Promise<NodeDTO[]> {
    let p = this.tops.get(side);
    if (!p) {
      const o = side === 'a' ? this.payload.a : this.payload.b;
      p = o.kind === 'opened' ? compareHost().call('children', { side, node: o.doc.root.id, from: 0, count: MAX_PAGE }) : Promise.resolve([]);
      this.tops.set(side, p);
    }
    return p;
  }

  private async runDiff(): Promise<void> {
    try {
      const result = await compareHost().call('diff', {}, { onEvent: (e) => this.grow(e.rows, false) });
      this.grow(result.rows, true);
      this.outcome.textContent = outcomeText(result);
      this.outcome.className = `diff-outcome${result.exitCode === 2 ? ' mark-error' : ''}`;
    } catch (e) {
      this.outcome.textContent = (e as Error).message;
      this.outcome.className = 'diff-outcome mark-error';
    }
  }

  private grow(rows: number, complete: boolean): void {
    this.rows = rows;
    this.complete = complete;
    if (!complete) this.outcome.textContent = l10n.t('comparing: {0} differences so far…', formatCount(rows));
    this.table?.refresh();
  }

  private async reveal(row: number): Promise<void> {
    if (row >= this.rows) return;
    this.status.textContent = l10n.t('opening both files at difference {0}…', row + 1);
    try {
      await compareHost().call('reveal', { row });
      this.status.textContent = l10n.t('opened both files at difference {0}', row + 1);
    } catch (e) {
      this.status.textContent = (e as Error).message;
    }
  }
}
