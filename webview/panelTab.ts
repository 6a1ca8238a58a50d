import * as l10n from '@vscode/l10n';
import type { ExportKind, PanelDTO, ViewOps } from '../src/protocol/protocol.js';
import { h } from './dom.js';
import { formatCount } from './l10n.js';
import { optionInputs, type Values } from './options.js';
import { type PanelContext, renderPanel } from './panels/index.js';
import { host } from './rpc.js';

/** What a panel may ask the host for: files the user picks, exports the user saves. */
const hostRequests: Omit<PanelContext, 'set'> = {
  pickGraph: () => host.call('pickGraph', {}).then((r) => r.picked),
  pickShapes: () => host.call('pickShapes', {}).then((r) => r.picked),
  pickReference: () => host.call('pickReference', {}).then((r) => r.picked),
  save: (kind: ExportKind, name: string, data: string) => host.call('saveExport', { kind, name, data }).then((r) => r.saved),
};

/** A panel's tab: its parameters, and the panel drawn again for each change of them. */
export function renderPanelTab(spec: PanelDTO): HTMLElement {
  const values: Values = {};
  const holder = h('div', { class: 'panel-body', 'aria-live': 'polite' });
  let request = 0;
  let running: AbortController | undefined;
  // A long panel (the ensemble pass) reports progress here, with a cancel that undoes the change that started it.
  const progress = h('p', { class: 'panel-progress', role: 'status' });
  let undo: (() => void) | undefined;
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
    host.call('panel', { panel: spec.id, params: values }, { signal: stop.signal, onEvent }).then(
      (data) => {
        if (mine !== request) return;
        holder.removeAttribute('aria-busy');
        progress.replaceChildren();
        holder.replaceChildren(renderPanel(data, { set, ...hostRequests }));
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
