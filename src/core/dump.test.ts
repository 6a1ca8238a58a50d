import { describe, expect, it } from 'vitest';
import { writeDump } from './dump.js';
import type { FormatDocument, StructNode } from './model.js';

function docWith(root: StructNode): FormatDocument {
  return {
    format: 'fst',
    title: 'test document',
    summary: [{ name: 'keys', value: 3n, range: { offset: 16, length: 8 } }],
    warnings: [{ name: 'root', status: 'warn', detail: 'odd', offset: 24 }],
    structure: () => root,
    tables: [],
    converters: [],
    verify: async function* () {},
    info: () => ({}),
    coverage: async () => ({ parts: [] }),
  };
}

async function dumpText(doc: FormatDocument, maxChildren?: number): Promise<string> {
  let out = '';
  await writeDump(doc, { fileName: 'x.fst', size: 54, maxChildren }, (t) => {
    out += t;
  });
  return out;
}

const lazyList = (n: number, loads: number[]): StructNode => ({
  label: 'items',
  children: {
    lazy: true,
    count: () => n,
    load: async (from, count) => {
      loads.push(from);
      return Array.from({ length: Math.max(0, Math.min(count, n - from)) }, (_, i) => ({ label: `item ${from + i}`, range: { offset: from + i, length: 1 } }));
    },
  },
});

describe('writeDump', () => {
  it('writes one line per node: hex offset, length, indented label = value, marks', async () => {
    const root: StructNode = {
      label: 'fst v3',
      range: { offset: 0, length: 54 },
      children: [
        { label: 'header', range: { offset: 0, length: 16 }, children: [{ label: 'version', value: '3', range: { offset: 0, length: 8 } }] },
        { label: 'root address', value: '999', mark: 'error', note: 'outside the nodes' },
      ],
    };
    expect(await dumpText(docWith(root))).toBe(
      [
        'binlens-dump 1',
        'file: x.fst',
        'format: fst (test document)',
        'size: 54',
        '',
        'warnings:',
        '  ! root: odd @00000018',
        '',
        'summary:',
        '00000010        8  keys = 3',
        '',
        'structure:',
        '00000000       54  fst v3',
        '00000000       16    header',
        '00000000        8      version = 3',
        '-               -    root address = 999  !! outside the nodes',
        '',
      ].join('\n'),
    );
  });

  it('pages through lazy children in batches and stops at maxChildren with a count of the rest', async () => {
    const loads: number[] = [];
    const text = await dumpText(docWith(lazyList(2500, loads)), 2200);
    expect(loads).toEqual([0, 1000, 2000]);
    expect(text).toContain('item 2199');
    expect(text).not.toContain('item 2200');
    expect(text).toContain('… 300 not shown');
  });

  it('keeps text from the file on its line: newlines and the Unicode line and paragraph separators are escaped', async () => {
    const root: StructNode = { label: 'keys', children: [{ label: 'key a\nb', value: '"x\u2028y\u2029z\u0085\r"' }] };
    const text = await dumpText({ ...docWith(root), summary: [{ name: 'name', value: 'p\nq' }] });
    const lines = text.split('\n');
    expect(lines).toContain('-               -  name = p\\nq');
    expect(lines).toContain('-               -    key a\\nb = "x\\u2028y\\u2029z\\u0085\\r"');
    expect(text).not.toMatch(/[\r\u0085\u2028\u2029]/);
  });

  it('is deterministic: the same document gives the same text', async () => {
    const a = await dumpText(docWith(lazyList(10, [])));
    const b = await dumpText(docWith(lazyList(10, [])));
    expect(a).toBe(b);
  });
});
