import { describe, expect, it } from 'vitest';
import type { Row } from './model.js';
import { choiceParam, column, listTable } from './tableSpec.js';

describe('column', () => {
  it('titles a column by its key unless named, and leaves out a description not given', () => {
    expect(column('offset', 'number')).toStrictEqual({ key: 'offset', title: 'offset', type: 'number' });
    expect(column('crc', 'hex', 'CRC32C', 'stored')).toStrictEqual({ key: 'crc', title: 'CRC32C', type: 'hex', description: 'stored' });
  });
});

describe('listTable', () => {
  const items = ['a', 'b', 'c', 'd'];
  it('is complete from the start and pages the slice, each row told its index', async () => {
    const t = listTable({ id: 't', title: 'T', columns: [column('v', 'text')], items, row: (v, i): Row => ({ cells: [i, v] }) });
    expect(t.rowCount()).toStrictEqual({ known: 4, complete: true });
    expect(await t.page(1, 2)).toStrictEqual([{ cells: [1, 'b'] }, { cells: [2, 'c'] }]);
    expect(await t.page(3, 10)).toStrictEqual([{ cells: [3, 'd'] }]);
    expect(await t.page(9, 10)).toStrictEqual([]);
  });

  it('waits for rows that wait, passes the signal on, and keeps the other table parts', async () => {
    const signal = new AbortController().signal;
    const seen: (AbortSignal | undefined)[] = [];
    const t = listTable({
      id: 't',
      title: 'T',
      columns: [],
      params: [],
      items,
      row: async (v, _i, s) => {
        seen.push(s);
        return { cells: [await Promise.resolve(v)] };
      },
    });
    expect(await t.page(0, 2, signal)).toStrictEqual([{ cells: ['a'] }, { cells: ['b'] }]);
    expect(seen).toStrictEqual([signal, signal]);
    expect(t.params).toStrictEqual([]);
    expect('items' in t || 'row' in t).toBe(false);
  });
});

describe('listTable errors', () => {
  it('rejects the page when a row throws', async () => {
    const t = listTable({
      id: 't',
      title: 'T',
      columns: [],
      items: [1],
      row: () => {
        throw new Error('bad row');
      },
    });
    await expect(t.page(0, 1)).rejects.toThrow('bad row');
  });
});

describe('choiceParam', () => {
  it('lists the choices in order, the first the default', () => {
    const p = choiceParam('keys', 'Keys', { raw: 'integers', values: 'text' });
    expect(p.choices?.map((c) => `${c.value}=${c.label}`)).toStrictEqual(['raw=integers', 'values=text']);
    expect(p).toStrictEqual({ key: 'keys', label: 'Keys', type: 'choice', default: 'raw', choices: p.choices });
    expect(choiceParam('k', 'K', { a: 'A' }, 'why').description).toBe('why');
  });
});
