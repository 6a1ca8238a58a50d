import * as l10n from '@vscode/l10n';
import type { NodeDTO } from '../src/protocol/protocol.js';
import { h } from './dom.js';

/** Children are fetched in pages of this many; a "more" item loads the next page. */
const PAGE = 200;

export interface TreeSource {
  children(node: string, from: number, count: number): Promise<NodeDTO[]>;
}

interface Item {
  readonly node: NodeDTO;
  readonly level: number;
  readonly el: HTMLElement;
  readonly group: HTMLElement;
  expanded: boolean;
  loaded: number;
  complete: boolean;
}

/**
 * The structure tree (WAI-ARIA tree pattern): one tab stop, arrow keys move and expand,
 * Home/End jump, Enter selects; children load lazily in pages, so a node with a million
 * frames opens at once.
 */
export class StructureTree {
  readonly el: HTMLElement;
  private readonly items = new Map<HTMLElement, Item>();
  private focused: HTMLElement | undefined;

  constructor(
    private readonly source: TreeSource,
    private readonly onSelect: (node: NodeDTO) => void,
    label: string,
  ) {
    this.el = h('ul', { role: 'tree', 'aria-label': label, class: 'tree' });
    this.el.addEventListener('keydown', (e) => this.onKey(e));
  }

  setRoot(root: NodeDTO): void {
    this.el.replaceChildren();
    this.items.clear();
    const item = this.addItem(this.el, root, 1);
    this.focus(item.el);
    void this.toggle(item, true);
  }

  /**
   * Shows new values, notes and marks for the root and its first children (a background count
   * settled them), where their labels still match; what is expanded and focused stays as it is.
   */
  showValues(root: NodeDTO, children: readonly NodeDTO[]): void {
    const rootItem = [...this.items.values()].find((i) => i.level === 1);
    if (!rootItem || rootItem.node.label !== root.label) return;
    this.showValue(rootItem, root);
    const top = [...rootItem.group.children].map((el) => this.items.get(el as HTMLElement)).filter((i) => i !== undefined);
    top.forEach((item, k) => {
      const fresh = children[k];
      if (fresh && fresh.label === item.node.label) this.showValue(item, fresh);
    });
  }

  private showValue(item: Item, node: NodeDTO): void {
    const row = item.el.firstElementChild as HTMLElement;
    const [value, note] = nodeTexts(node);
    row.querySelector(':scope > .value')?.remove();
    row.querySelector(':scope > .note')?.remove();
    const label = row.querySelector(':scope > .label')!;
    label.after(...[value, note].filter((e) => e !== null));
    // The range, if any, sits after the value: keep the row's order label, value, range, note.
    const range = row.querySelector(':scope > .range');
    if (range && note) range.after(note);
    item.el.className = `tree-item${node.mark ? ` mark-${node.mark}` : ''}`;
  }

  private addItem(parent: HTMLElement, node: NodeDTO, level: number): Item {
    const hasChildren = node.childCount !== 0;
    const label = h('span', { class: 'label', text: node.label });
    const [value, note] = nodeTexts(node);
    const range = node.range ? h('span', { class: 'range', text: `  @${node.range.offset.toString(16)} +${node.range.length}` }) : null;
    const row = h('div', { class: 'tree-row' }, h('span', { class: 'twisty', 'aria-hidden': 'true' }), label, value, range, note);
    const group = h('ul', { role: 'group', hidden: true });
    const el = h('li', {
      role: 'treeitem',
      tabindex: -1,
      'aria-level': level,
      'aria-expanded': hasChildren ? 'false' : undefined,
      class: `tree-item${node.mark ? ` mark-${node.mark}` : ''}`,
    });
    el.append(row, group);
    const item: Item = { node, level, el, group, expanded: false, loaded: 0, complete: node.childCount === 0 };
    this.items.set(el, item);
    row.addEventListener('click', () => {
      this.focus(el);
      this.onSelect(node);
      if (hasChildren) void this.toggle(item, !item.expanded);
    });
    parent.append(el);
    return item;
  }

  private async toggle(item: Item, expand: boolean): Promise<void> {
    if (item.node.childCount === 0) return;
    item.expanded = expand;
    item.el.setAttribute('aria-expanded', String(expand));
    item.group.hidden = !expand;
    if (expand && item.loaded === 0 && !item.complete) await this.loadMore(item);
  }

  private async loadMore(item: Item): Promise<void> {
    item.el.setAttribute('aria-busy', 'true');
    try {
      const children = await this.source.children(item.node.id, item.loaded, PAGE);
      item.group.querySelector(':scope > .more')?.remove();
      for (const c of children) this.addItem(item.group, c, item.level + 1);
      item.loaded += children.length;
      const total = item.node.childCount;
      item.complete = children.length < PAGE || (total !== null && item.loaded >= total);
      if (!item.complete) {
        const text = total === null ? l10n.t('Load {0} more…', PAGE) : l10n.t('Load {0} more ({1} more)…', PAGE, total - item.loaded);
        const more = h('li', { role: 'treeitem', tabindex: -1, 'aria-level': item.level + 1, class: 'tree-item more' }, h('div', { class: 'tree-row', text }));
        more.addEventListener('click', () => void this.loadMore(item).then(() => this.focusNext(more)));
        more.addEventListener('keydown', (e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            e.stopPropagation();
            void this.loadMore(item);
          }
        });
        item.group.append(more);
      }
    } catch (e) {
      item.group.append(
        h(
          'li',
          { role: 'treeitem', 'aria-level': item.level + 1, class: 'tree-item mark-error' },
          h('div', { class: 'tree-row', text: `✖ ${(e as Error).message}` }),
        ),
      );
      item.complete = true;
    } finally {
      item.el.removeAttribute('aria-busy');
    }
  }

  private focusNext(more: HTMLElement): void {
    const visible = this.visible();
    const i = visible.indexOf(more);
    if (i >= 0 && visible[i]) this.focus(visible[i]!);
  }

  private visible(): HTMLElement[] {
    return [...this.el.querySelectorAll<HTMLElement>('[role="treeitem"]')].filter((el) => el.offsetParent !== null || el === this.focused);
  }

  private focus(el: HTMLElement): void {
    if (this.focused) this.focused.tabIndex = -1;
    this.focused = el;
    el.tabIndex = 0;
    if (this.el.contains(document.activeElement)) el.focus();
  }

  private onKey(e: KeyboardEvent): void {
    const current = this.focused;
    if (!current) return;
    const visible = this.visible();
    const i = visible.indexOf(current);
    const item = this.items.get(current);
    const go = (el: HTMLElement | undefined) => {
      if (!el) return;
      this.focus(el);
      el.focus();
      el.scrollIntoView({ block: 'nearest' });
      const it = this.items.get(el);
      if (it) this.onSelect(it.node);
    };
    switch (e.key) {
      case 'ArrowDown':
        go(visible[i + 1]);
        break;
      case 'ArrowUp':
        go(visible[i - 1]);
        break;
      case 'Home':
        go(visible[0]);
        break;
      case 'End':
        go(visible[visible.length - 1]);
        break;
      case 'ArrowRight':
        if (item && item.node.childCount !== 0) {
          if (!item.expanded) void this.toggle(item, true);
          else go(item.group.querySelector<HTMLElement>('[role="treeitem"]') ?? undefined);
        }
        break;
      case 'ArrowLeft':
        if (item?.expanded) void this.toggle(item, false);
        else go(current.parentElement?.closest<HTMLElement>('[role="treeitem"]') ?? undefined);
        break;
      case 'Enter':
      case ' ':
        if (item) {
          this.onSelect(item.node);
          if (item.node.childCount !== 0) void this.toggle(item, !item.expanded);
        }
        break;
      default:
        return;
    }
    e.preventDefault();
  }
}

/** A node's value and note elements, either absent. */
function nodeTexts(node: NodeDTO): [HTMLElement | null, HTMLElement | null] {
  const value = node.value === undefined ? null : h('span', { class: 'value', text: ` = ${node.value}` });
  const note = node.note
    ? h('span', { class: `note ${node.mark ?? ''}`, text: `  ${node.mark === 'error' ? '✖' : node.mark === 'warn' ? '⚠' : '·'} ${node.note}` })
    : null;
  return [value, note];
}
