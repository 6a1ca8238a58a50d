import * as l10n from '@vscode/l10n';
import type { CheckDTO, DocDTO, RangeDTO } from '../src/protocol/protocol.js';
import { button, h, hexOffset } from './dom.js';
import { formatSize } from './l10n.js';
import { notify } from './rpc.js';

type Select = (range: RangeDTO | undefined, label: string) => void;

/** The editor's top bar: the format, the file, and the commands the host runs (Verify, Convert…). */
export function renderTopBar(d: DocDTO): HTMLElement {
  return h(
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
}

/** The problems found while opening, each with a link to its bytes when it has an offset. */
export function renderWarnings(list: readonly CheckDTO[], select: Select): HTMLElement {
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
          const at = button(`@${hexOffset(w.offset)}`, () => select({ offset: w.offset!, length: 16 }, w.name), { class: 'link' });
          li.append(' ', at);
        }
        return li;
      }),
    ),
  );
}
