import * as l10n from '@vscode/l10n';
import type { OptionSpec } from '../src/protocol/protocol.js';
import { h } from './dom.js';

export type Values = Record<string, string | number | boolean>;

/**
 * Inputs for a list of options (search parameters, panel parameters), labelled for screen
 * readers. Number inputs get − / + steppers so a user can step through samples or states.
 */
export function optionInputs(specs: readonly OptionSpec[], values: Values, onChange: () => void): HTMLElement[] {
  for (const p of specs) if (values[p.key] === undefined && p.default !== undefined) values[p.key] = p.default;
  return specs.map((p) => {
    const changed = (v: string | number | boolean) => {
      values[p.key] = v;
      onChange();
    };
    let input: HTMLInputElement | HTMLSelectElement;
    if (p.type === 'choice') {
      input = h('select', {}, ...(p.choices ?? []).map((c) => h('option', { value: c.value, text: c.label, selected: c.value === values[p.key] })));
      input.addEventListener('change', () => changed(input.value));
    } else if (p.type === 'boolean') {
      input = h('input', { type: 'checkbox', checked: values[p.key] === true });
      input.addEventListener('change', () => changed((input as HTMLInputElement).checked));
    } else {
      input = h('input', {
        type: p.type === 'number' ? 'number' : 'text',
        value: values[p.key] === undefined ? '' : String(values[p.key]),
        min: p.min,
        max: p.max,
      });
      const read = () => (p.type === 'number' ? Number(input.value) : input.value);
      // Typing updates the value at once (a search reads it on submit); leaving the field or Enter redraws.
      input.addEventListener('input', () => (values[p.key] = read()));
      input.addEventListener('change', () => changed(read()));
    }
    input.setAttribute('aria-label', p.label);
    // The key names the input, so a panel that changes a parameter itself (a step button) can show it.
    input.setAttribute('name', p.key);
    const label = h('label', { title: p.description }, `${p.label} `, input);
    if (p.type === 'number') {
      const step = (d: number) => {
        const next = Math.min(p.max ?? Infinity, Math.max(p.min ?? -Infinity, Number(values[p.key] ?? 0) + d));
        input.value = String(next);
        changed(next);
      };
      const minus = h('button', { type: 'button', class: 'step', 'aria-label': l10n.t('previous {0}', p.label), text: '−' });
      const plus = h('button', { type: 'button', class: 'step', 'aria-label': l10n.t('next {0}', p.label), text: '+' });
      minus.addEventListener('click', () => step(-1));
      plus.addEventListener('click', () => step(1));
      label.append(minus, plus);
    }
    return label;
  });
}
