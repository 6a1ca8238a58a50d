import * as l10n from '@vscode/l10n';
import type { ExportKind, PanelData } from '../../src/protocol/protocol.js';
import { h } from '../dom.js';
import { renderAutomaton } from './automaton.js';
import { renderBars } from './bars.js';
import { renderChart } from './chart.js';
import { renderDistricts } from './districts.js';
import { renderEnsemble } from './ensemble.js';
import { renderLayers } from './layers.js';
import { renderPipeline } from './pipeline.js';
import { renderPlan } from './plan.js';
import { renderTree } from './tree.js';

export interface PanelContext {
  /** Sets a panel parameter and redraws (a graph node click, a step button); `redraw` false only records it for the next request. */
  set(key: string, value: string | number | boolean, redraw?: boolean): void;
  /** Asks the host for a graph file for the document (the districts panel); resolves to whether one was picked. */
  pickGraph?(): Promise<boolean>;
  /** Asks the host for a GeoJSON FeatureCollection of the precincts (the plan panel); resolves to whether one was picked. */
  pickShapes?(): Promise<boolean>;
  /** Asks the host for a reference plan file (the ensemble panel); resolves to whether one was picked. */
  pickReference?(): Promise<boolean>;
  /** Hands the host an export to save where the user chooses (text, or base64 for PNG); resolves to whether it was saved. */
  save?(kind: ExportKind, name: string, data: string): Promise<boolean>;
}

/** One renderer per panel kind (src/core/views.ts); every text from a file goes through textContent. */
export function renderPanel(data: PanelData, ctx: PanelContext): HTMLElement {
  switch (data.kind) {
    case 'fields':
      return h(
        'div',
        { class: 'fields-panel' },
        ...data.groups.map((g) =>
          h(
            'section',
            {},
            h('h3', { text: g.title }),
            h(
              'dl',
              { class: 'fields' },
              ...g.fields.flatMap((f) => [h('dt', { text: f.name }), h('dd', { class: f.mark ? `mark-${f.mark}` : undefined, text: f.value })]),
            ),
          ),
        ),
      );
    case 'text':
      return h('pre', { class: `text-panel lang-${data.language}`, tabindex: 0, role: 'region', 'aria-label': l10n.t('text'), text: data.text });
    case 'chart':
      return renderChart(data);
    case 'pipeline':
      return renderPipeline(data);
    case 'tree':
      return renderTree(data);
    case 'automaton':
      return renderAutomaton(data, (id) => ctx.set(data.selectParam, id));
    case 'plan':
      return renderPlan(data, ctx);
    case 'bars':
      return renderBars(data);
    case 'layers':
      return renderLayers(data);
    case 'districts':
      return renderDistricts(data, ctx);
    case 'ensemble':
      return renderEnsemble(data, ctx);
  }
}
