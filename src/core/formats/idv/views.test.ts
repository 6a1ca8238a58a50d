import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/byteSource.js';
import type { FormatDocument, Table } from '../../model.js';
import type { ChartPanelData, FieldsPanelData } from '../../views.js';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { idvHandler } from './handler.js';
import { SLOT_WINDOW } from './rowsTable.js';
import { everyKind, scalarType, vectorType, writeIdv } from './testFiles.js';

/** What the viewer shows: rows with both readings, expanded vectors, schema, metadata, column summaries. */

async function open(bytes: Uint8Array): Promise<FormatDocument> {
  return idvHandler.open(new MemorySource(bytes), {});
}

const table = (doc: FormatDocument, id: string): Table => doc.tables.find((t) => t.id === id)!;

describe('IDV views', () => {
  it('shows legacy NA cells flagged in the modern reading and as missing in the legacy one (1.1.1.5 files)', async () => {
    const doc = await open(readFixture('idv/mlnet-testdata/datatypes.idv'));
    const rows = table(doc, 'rows');
    expect(rows.params?.map((p) => p.key)).toEqual(['reading']);
    const modern = await rows.page(2, 1);
    expect(modern[0]!.cells.slice(0, 3)).toEqual([
      2,
      expect.objectContaining({ text: 'false', mark: 'warn' }),
      expect.objectContaining({ text: '-128', mark: 'warn' }),
    ]);
    const legacy = await rows.withParams!({ reading: 'legacy' });
    expect(legacy.id).not.toBe(rows.id);
    expect(legacy.title).toBe('Rows (legacy NA)');
    const cells = (await legacy.page(4, 1))[0]!.cells;
    expect(cells.slice(1)).toEqual(Array(9).fill(expect.objectContaining({ text: 'NA', mark: 'null' })));
    expect((await legacy.page(0, 1))[0]!.cells.slice(6, 10)).toEqual([
      expect.objectContaining({ text: '2.00:00:00' }),
      expect.objectContaining({ text: '2008-11-30T00:00:00.0000000+00:00' }),
      expect.objectContaining({ text: '2013-08-05T00:00:00.0000000', title: '635112576000000000 ticks' }),
      'foo',
    ]);
  });

  it('offers no reading toggle for 1.1.1.6 files', async () => {
    const doc = await open(readFixture('idv/mlnet-model-embedded/termlookup__DataLoaderModel_Transform_000_DefaultMap.idv'));
    expect(table(doc, 'rows').params).toEqual([]);
    expect((await table(doc, 'rows').page(0, 2)).map((r) => r.cells)).toEqual([
      [0, 'Bad', { text: '0' }],
      [1, 'Fair', { text: '1' }],
    ]);
  });

  it('expands a vector column into a column per slot, headed by its slot names', async () => {
    const { columns, rows } = everyKind(5);
    const doc = await open(await writeIdv(columns, rows, { rowsPerBlock: 2, compression: 1 }));
    const base = table(doc, 'rows');
    const expand = base.params!.find((p) => p.key === 'expand')!;
    expect(expand.choices!.map((c) => c.label)).toEqual([
      'none',
      'Dense (Vector<Single, 4>)',
      'Sparse (Vector<Double, 6>)',
      'Tags (Vector<Key<UInt32, 3>, 2>)',
    ]);
    const dense = await base.withParams!({ expand: '12', slot: 0 });
    const titles = dense.columns.map((c) => c.title);
    expect(titles.slice(12, 17)).toEqual(['Color', 'w', 'x', 'y', 'z']);
    expect(titles).toContain('Name (hidden)');
    const row1 = (await dense.page(1, 1))[0]!.cells;
    expect(row1.slice(13, 17)).toEqual([{ text: '1' }, { text: '-1' }, { text: '0.25' }, { text: '0.5' }]);
    const sparse = await base.withParams!({ expand: '13', slot: 4 });
    expect(sparse.columns.slice(14, 16).map((c) => c.title)).toEqual(['Sparse[4]', 'Sparse[5]']);
    expect((await sparse.page(2, 1))[0]!.cells.slice(14, 16)).toEqual([{ text: '0' }, { text: '-0.5' }]);
    // Keys show their KeyValues, 0 is missing.
    expect((await base.page(1, 1))[0]!.cells[12]).toEqual({ text: 'red', title: 'raw value 1' });
    expect((await base.page(0, 1))[0]!.cells[12]).toMatchObject({ text: '—', mark: 'null' });
  });

  it('shows at most a window of slots of a wide vector', async () => {
    const wide = vectorType(scalarType('f32'), SLOT_WINDOW * 3);
    const doc = await open(
      await writeIdv([{ name: 'V', type: wide }], [[{ length: SLOT_WINDOW * 3, indices: [450], values: [7] }]], { rowsPerBlock: 1, compression: 1 }),
    );
    const t = await table(doc, 'rows').withParams!({ expand: '0', slot: 400 });
    expect(t.columns.length).toBe(1 + SLOT_WINDOW);
    expect((await t.page(0, 1))[0]!.cells[51]).toEqual({ text: '7' });
  });

  it('lists the schema with hidden columns, codecs, compression, blocks and metadata kinds', async () => {
    const { columns, rows } = everyKind(9);
    const doc = await open(await writeIdv(columns, rows, { rowsPerBlock: 4, compression: 1 }));
    const schema = await table(doc, 'schema').page(0, 100);
    expect(schema[5]!.cells.slice(0, 4)).toEqual([5, 'Name', 'TextSpan', 'hidden (shadowed)']);
    expect(schema[12]!.cells).toEqual([12, 'Dense', 'Vector<Single, 4>', '', 'VBuffer(Single)', 'deflate', 4, 3, 'SlotNames, IsNormalized', '']);
    expect(schema[15]!.cells[4]).toBe('VBuffer(Key2(UInt32))');
  });

  it('shows decoded metadata values per column', async () => {
    const doc = await open(readFixture('idv/mlnet-model-embedded/modelwithoptionalcolumntransform__DataLoaderModel_Loader_Schema.idv'));
    const panel = doc.panels!.find((p) => p.id === 'metadata')!;
    const data = (await panel.data({ column: '0' })) as FieldsPanelData;
    expect(data.groups[0]!.title).toBe('SlotNames (5 slots)');
    expect(data.groups[0]!.fields.slice(2).map((f) => f.value)).toEqual(['abc', 'abc', 'abc', 'abc', '1']);
  });

  it('summarises a numeric column: count, missing, min, max, mean and a histogram', async () => {
    const values = [1, 2, 2, 3, Number.NaN, 10];
    const doc = await open(
      await writeIdv(
        [
          { name: 'x', type: scalarType('f64') },
          { name: 't', type: scalarType('text') },
        ],
        values.map((v, i) => [v, i % 2 ? 'odd' : 'even']),
        { rowsPerBlock: 4, compression: 1 },
      ),
    );
    const summary = (await doc.panels!.find((p) => p.id === 'column-summary')!.data({ column: '0' })) as FieldsPanelData;
    expect(Object.fromEntries(summary.groups[0]!.fields.map((f) => [f.name, f.value]))).toEqual({
      'rows scanned': '6 (all)',
      values: '6',
      missing: '1 (16.66667 %)',
      min: '1',
      max: '10',
      mean: '3.6',
    });
    const chart = (await doc.panels!.find((p) => p.id === 'histogram')!.data({ column: '0' })) as ChartPanelData;
    const points = chart.series[0]!.points;
    expect(points.length).toBe(20);
    expect(points.reduce((n, p) => n + p[1], 0)).toBe(5);
    expect(points[0]).toEqual([1, 1]);
    expect(points[19]).toEqual([1 + 19 * 0.45, 1]);
    const text = (await doc.panels!.find((p) => p.id === 'column-summary')!.data({ column: '1', rows: 5 })) as FieldsPanelData;
    expect(text.groups[1]!.fields).toEqual([
      { name: 'even', value: '3' },
      { name: 'odd', value: '2' },
    ]);
  });

  it('counts legacy NA sentinels in a column summary of a 1.1.1.5 file', async () => {
    const doc = await open(readFixture('idv/mlnet-testdata/datatypes.idv'));
    const panel = doc.panels!.find((p) => p.id === 'column-summary')!;
    const modern = (await panel.data({ column: '8' })) as FieldsPanelData;
    expect(modern.groups[0]!.fields).toContainEqual({ name: 'legacy NA sentinels', value: '2', mark: 'warn' });
    const legacy = (await panel.data({ column: '8', reading: 'legacy' })) as FieldsPanelData;
    expect(legacy.groups[0]!.fields).toContainEqual({ name: 'missing', value: '2 (40 %)' });
    expect(legacy.groups[1]!.fields).toEqual([
      { name: '""', value: '1' },
      { name: 'foo', value: '1' },
      { name: 'xyz', value: '1' },
    ]);
  });
});
