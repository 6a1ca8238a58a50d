import { describe, expect, it } from 'vitest';
import { fieldsPanel } from './panelSpec.js';

describe('fieldsPanel', () => {
  it('is a fields panel whose payload is the groups read with the params, signal and host', async () => {
    const signal = new AbortController().signal;
    const params = [{ key: 'n', label: 'N', type: 'number' as const }];
    const p = fieldsPanel({ id: 'p', title: 'P', params }, async (values, s, files) => [
      {
        title: String(values.n),
        fields: [
          { name: 'signal', value: String(s === signal) },
          { name: 'host', value: String(files) },
        ],
      },
    ]);
    expect(p).toMatchObject({ id: 'p', title: 'P', kind: 'fields', params });
    expect(await p.data({ n: 3 }, signal)).toStrictEqual({
      kind: 'fields',
      groups: [
        {
          title: '3',
          fields: [
            { name: 'signal', value: 'true' },
            { name: 'host', value: 'undefined' },
          ],
        },
      ],
    });
  });
});
