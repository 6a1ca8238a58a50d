/**
 * How a family declares a panel of named values (kind 'fields'): it writes how its groups are
 * read, and the panel and its payload say 'fields' here once.
 */
import type { OptionValues, Panel, PanelHost } from './model.js';
import type { FieldsPanelData } from './views.js';

export type FieldGroup = FieldsPanelData['groups'][number];
export type FieldRow = FieldGroup['fields'][number];

export function fieldsPanel(
  panel: Omit<Panel, 'kind' | 'data'>,
  groups: (params: OptionValues, signal?: AbortSignal, files?: PanelHost) => Promise<readonly FieldGroup[]>,
): Panel {
  return { ...panel, kind: 'fields', data: async (params, signal, files) => ({ kind: 'fields', groups: await groups(params, signal, files) }) };
}
