import * as l10n from '@vscode/l10n';
import type { PipelinePanelData } from '../../src/protocol/protocol.js';
import { h } from '../dom.js';

/** Each pipeline as an ordered list of stages; arrows are drawn by CSS, so screen readers hear the order. */
export function renderPipeline(data: PipelinePanelData): HTMLElement {
  return h(
    'div',
    { class: 'pipeline-panel' },
    ...data.pipelines.map((p) =>
      h(
        'section',
        { class: `pipeline${p.mark ? ` mark-${p.mark}` : ''}` },
        h('h3', { text: p.title }),
        h(
          'ol',
          { class: 'stages', 'aria-label': l10n.t('{0}: {1} stages', p.title, p.stages.length) },
          p.from ? h('li', { class: 'end', text: p.from }) : null,
          ...p.stages.map((s) =>
            h(
              'li',
              { class: `stage${s.mark ? ` mark-${s.mark}` : ''}`, tabindex: 0, title: s.detail },
              h('span', { class: 'name', text: s.name }),
              s.detail ? h('span', { class: 'detail', text: s.detail }) : null,
            ),
          ),
          p.to ? h('li', { class: 'end', text: p.to }) : null,
        ),
        p.note ? h('p', { class: 'note', text: p.note }) : null,
      ),
    ),
  );
}
