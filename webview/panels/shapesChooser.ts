import * as l10n from '@vscode/l10n';
import { PLAN_SHAPES_PARAMS, type PlanPanelData } from '../../src/protocol/protocol.js';
import { h } from '../dom.js';
import type { PanelContext } from './index.js';

/**
 * Where the precinct shapes come from: a button that asks the host for a GeoJSON FeatureCollection
 * (the host opens the dialog and keeps the file; this page never names one), and, with a
 * collection, a native select of the property matching its features to the nodes (or their order).
 */
export function shapesChooser(data: PlanPanelData, ctx: PanelContext): HTMLElement | undefined {
  if (!data.pickShapes || !ctx.pickShapes) return undefined;
  const parts: HTMLElement[] = [];
  const f = data.features;
  const pick = h('button', {
    type: 'button',
    class: 'shapes-pick',
    text: f ? l10n.t('Choose other precinct shapes…') : l10n.t('Choose precinct shapes (GeoJSON)…'),
  });
  // A new file is matched by order until a property is chosen (the host resets it on a pick).
  pick.addEventListener('click', () => void ctx.pickShapes!().then((picked) => picked && ctx.set(PLAN_SHAPES_PARAMS.id, '')));
  parts.push(pick);
  if (f) {
    const select = h(
      'select',
      { 'aria-label': l10n.t('Match the features of {0} to nodes by', f.name) },
      h('option', { value: '', text: l10n.t('feature order'), selected: f.id === undefined }),
      ...f.properties.map((p) => h('option', { value: p, text: l10n.t('property {0}', p), selected: p === f.id })),
    );
    select.addEventListener('change', () => ctx.set(PLAN_SHAPES_PARAMS.id, select.value));
    parts.push(h('label', {}, `${l10n.t('Shapes: {0}, matched by', f.name)} `, select));
  }
  return h('div', { class: 'shapes-chooser', role: 'group', 'aria-label': l10n.t('precinct shapes') }, ...parts);
}
