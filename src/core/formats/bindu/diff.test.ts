import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, openFixture, readFixture } from '../../../../test/helpers/fixtures.js';
import { DiffSideError } from '../../ops/diffKit.js';
import { diffAll, importTextWith, openBytes } from '../../../../test/helpers/diff.js';
import { jsonlImporter } from './importers.js';

const rows = readFileSync(fixture('bindu/sample.rows.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const build = async (list: readonly Record<string, unknown>[]) =>
  openBytes(await importTextWith(jsonlImporter, list.map((r) => JSON.stringify(r)).join('\n') + '\n'), 'x.bindu');

describe('bindu diff', () => {
  it('finds no difference between a file and itself, nor between it and a copy made from its rows', async () => {
    const a = await openFixture('bindu/sample.bindu');
    expect((await diffAll(a, a)).summary.differences).toBe(0);
    const copy = await build(rows);
    expect((await diffAll(await build(rows), copy)).diffs).toEqual([]);
  });

  it('names the changed cell by row and the rows only A has, built from the edited ground truth', async () => {
    // By construction: row 2's sensor.seq 102 → 7, the last row (9) dropped.
    expect(rows[2]!['sensor.seq']).toBe(102);
    const edited = rows.slice(0, -1).map((r, i) => (i === 2 ? { ...r, 'sensor.seq': 7 } : r));
    const { diffs, summary } = await diffAll(await build(rows), await build(edited));
    expect(diffs.map((d) => [d.kind, d.data])).toEqual([
      ['meta-changed', { key: 'Writer and header / rows', a: '10', b: '9' }],
      ['row-changed', { row: 2, cells: { 'sensor.seq': { a: 102, b: 7 } } }],
      ['rows-removed', { from: 9, count: 1 }],
    ]);
    expect(summary).toMatchObject({ differences: 3, counts: { 'meta-changed': 1, 'row-changed': 1, 'row-removed': 1 } });
  });

  it('puts a removed column first, then the rows it changes', async () => {
    const edited = rows.map(({ level: _level, ...rest }) => rest);
    const { diffs, summary } = await diffAll(await build(rows), await build(edited));
    expect(diffs[0]).toMatchObject({ kind: 'column-removed', data: { column: 'level' } });
    // Then the header's column count (and what the writer derives from the schema), before any row.
    const firstRow = diffs.findIndex((d) => d.kind === 'row-changed');
    const meta = diffs.slice(1, firstRow);
    expect(meta.every((d) => d.kind.startsWith('meta-'))).toBe(true);
    expect(meta.map((d) => d.data)).toContainEqual({ key: 'Writer and header / columns', a: '4', b: '3' });
    expect(diffs.slice(firstRow).map((d) => d.data)).toEqual(rows.map((r, row) => ({ row, cells: { level: { a: r.level } } })));
    expect(summary.differences).toBe(1 + meta.length + rows.length);
  });

  it('refuses to compare a file whose frame fails its CRC, naming that side', async () => {
    const bytes = readFixture('bindu/sample.bindu').slice();
    bytes[200] = bytes[200]! ^ 0x01; // inside the Schema frame, bytes 163–225 (binlens dump)
    const damaged = await openBytes(bytes, 'damaged.bindu');
    await expect(diffAll(damaged, await openFixture('bindu/sample.bindu'))).rejects.toSatisfy((e: unknown) => e instanceof DiffSideError && e.side === 'A');
  });
});
