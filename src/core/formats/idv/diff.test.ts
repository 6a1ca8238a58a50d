import { describe, expect, it } from 'vitest';
import { openFixture } from '../../../../test/helpers/fixtures.js';
import { diffAll, importTextWith, openBytes } from '../../../../test/helpers/diff.js';
import { ROWS_SHOWN } from '../../ops/diffKit.js';
import { importers } from './importer.js';

const fromTsv = importers.find((i) => i.id === 'idv-from-tsv')!;
const build = async (text: string) => openBytes(await importTextWith(fromTsv, text), 'x.idv');
/** 30 rows: id 0–29, name "n<id>", score id × 1.5. */
const table = (edit: (id: number, line: string) => string | undefined = (_, l) => l, header = 'id\tname\tscore') =>
  `${header}\n${Array.from({ length: 30 }, (_, id) => edit(id, `${id}\tn${id}\t${id * 1.5}`))
    .filter((l) => l !== undefined)
    .join('\n')}\n`;

describe('idv diff', () => {
  it('finds no difference between a fixture and itself', async () => {
    const a = await openFixture('idv/mlnet-testdata/datatypes.idv');
    expect((await diffAll(a, a)).summary.differences).toBe(0);
  });

  it('names the changed cells by row, and the rows added, built from edited text', async () => {
    // By construction: row 4's name "n4" → "four", row 9's score 13.5 → 0; B has row 30 too.
    const b = table((id, l) => (id === 4 ? '4\tfour\t6' : id === 9 ? '9\tn9\t0' : l)) + '30\tn30\t45\n';
    const { diffs, summary } = await diffAll(await build(table()), await build(b));
    expect(diffs.map((d) => [d.kind, d.data])).toEqual([
      ['row-changed', { row: 4, cells: { name: { a: 'n4', b: 'four' } } }],
      ['row-changed', { row: 9, cells: { score: { a: 13.5, b: 0 } } }],
      ['rows-added', { from: 30, count: 1 }],
    ]);
    expect(summary).toMatchObject({ differences: 3, counts: { 'row-changed': 2, 'row-added': 1 } });
  });

  it('lists the first 20 changed rows and counts the rest', async () => {
    const b = table((id) => `${id}\tn${id}\t-1`);
    const { diffs, summary } = await diffAll(await build(table()), await build(b));
    expect(ROWS_SHOWN).toBe(20);
    // Row 0's score is 0 in A, so -1 changes all 30.
    expect(diffs.filter((d) => d.kind === 'row-changed').length).toBe(20);
    expect(diffs.at(-1)).toMatchObject({ kind: 'not-shown', data: { of: 'row-changed', count: 10 } });
    expect(summary.counts['row-changed']).toBe(30);
  });

  it('puts a renamed column first, as one removed and one added', async () => {
    const { diffs } = await diffAll(await build(table()), await build(table(undefined, 'id\tlabel\tscore')));
    expect(diffs.slice(0, 2).map((d) => [d.kind, d.data?.column])).toEqual([
      ['column-removed', 'name'],
      ['column-added', 'label'],
    ]);
  });
});
