import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/byteSource.js';
import type { ByteSink } from '../../model.js';
import { fixture, readFixture, readJson } from '../../../../test/helpers/fixtures.js';
import { fixtureOf, groundTruths } from '../../../../test/helpers/idvGroundTruth.js';
import type { ColumnType, ItemType } from './columnType.js';
import { IdvFile } from './file.js';
import { idvHandler } from './handler.js';
import { readHeader, readToc } from './toc.js';
import type { ReadValue, Reading, Value, VectorValue } from './values.js';

/**
 * Every shared fixture against its ground truth (schema, metadata values, rows), and
 * datatypes.idv against the text ML.NET itself wrote for it in both eras.
 */

interface Truth {
  header: { rowCount: number };
  columns: { name: string; type: string; metadata?: { kind: string; type: string; compression: number; value: unknown }[] }[];
  rows: unknown[][];
}

const truths = groundTruths<Truth>();

async function openFile(path: string): Promise<IdvFile> {
  const src = new MemorySource(readFixture(path));
  const header = await readHeader(src);
  return new IdvFile(src, header, await readToc(src, header));
}

const LONG_MIN = '-9223372036854775808';

/** A decoded value in the ground truth's conventions (fixtures/idv/MANIFEST.md). */
function truthOf(got: ReadValue, t: ColumnType): unknown {
  if (t.kind === 'vector') {
    const v = got.value as VectorValue;
    const values = v.values.map((x) => truthOf({ value: x, na: false }, t.item));
    return v.indices ? { length: v.length, indices: v.indices, values } : { length: v.length, values };
  }
  return itemTruth(got, t);
}

function itemTruth(got: ReadValue, t: ItemType): unknown {
  const v = got.value;
  if (t.kind === 'scalar') {
    // Legacy NA of DvBool and TextSpan is null; other sentinels show their modern value.
    if (got.na && (t.scalar === 'bool2' || t.scalar === 'text')) return null;
    if (t.scalar === 'ts' || t.scalar === 'dt') return { ticks: String(v), rawTicks: got.na ? LONG_MIN : String(v) };
    if (t.scalar === 'dz') {
      const dz = v as { ticks: bigint; offsetMinutes: number };
      return { ticks: String(dz.ticks), offsetMinutes: dz.offsetMinutes };
    }
  }
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  return v;
}

async function rowsOf(file: IdvFile, reading: Reading): Promise<ReadValue[][]> {
  const w = await file.window(0, file.rowCount, reading);
  const rows: ReadValue[][] = [];
  for (let r = 0; r < w.count; r++) {
    rows.push(
      file.columns.map((_, c) => {
        const got = w.value(c, r);
        if (got instanceof Error) throw got;
        return got;
      }),
    );
  }
  return rows;
}

describe('IDV values against the decoded ground truth', () => {
  it.each(truths)('%s: schema, metadata values and rows', async (truthFile, truth) => {
    const file = await openFile(fixtureOf(truthFile));
    expect(file.columns.map((c) => c.entry.name)).toEqual(truth.columns.map((c) => c.name));
    expect(file.columns.every((c) => c.type.kind !== 'dead')).toBe(true);
    for (const [i, c] of truth.columns.entries()) {
      const meta = await file.columnMetadata(i);
      expect(meta.items.map((m) => m.entry.kind)).toEqual((c.metadata ?? []).map((m) => m.kind));
      for (const [k, m] of (c.metadata ?? []).entries()) {
        const item = meta.items[k]!;
        expect(item.error).toBeUndefined();
        expect(item.entry.compression).toBe(m.compression);
        expect(truthOf({ value: item.value as Value, na: false }, item.type!)).toEqual(m.value);
      }
    }
    const rows = await rowsOf(file, 'modern');
    expect(rows.length).toBe(truth.header.rowCount);
    expect(rows.map((r) => r.map((v, c) => truthOf(v, file.columns[c]!.type as ColumnType)))).toEqual(truth.rows);
  });
});

describe('datatypes.idv against ML.NET', () => {
  const hand = readJson<{ rowsModern: unknown[][]; rowsLegacy: unknown[][] }>('idv/groundtruth/HANDCHECKED-datatypes.json');

  it("reads the rows today's ML.NET reports (hand-checked ground truth)", async () => {
    const file = await openFile('idv/mlnet-testdata/datatypes.idv');
    const rows = await rowsOf(file, 'modern');
    const plain = rows.map((r) =>
      r.map((v, c) => {
        const t = file.columns[c]!.type as ItemType;
        const x = truthOf(v, t) as { ticks?: string; rawTicks?: string };
        // rowsModern shows TimeSpan/DateTime as ticks alone and NA bits as the modern value.
        if (t.kind === 'scalar' && (t.scalar === 'ts' || t.scalar === 'dt')) return x.ticks;
        if (v.na && t.kind === 'scalar' && (t.scalar === 'bool2' || t.scalar === 'text')) return v.value;
        return x;
      }),
    );
    expect(plain).toEqual(hand.rowsModern);
  });

  it('reads legacy NA sentinels as the DvTypes-era rows (hand-checked ground truth)', async () => {
    const file = await openFile('idv/mlnet-testdata/datatypes.idv');
    expect(file.legacy).toBe(true);
    const rows = await rowsOf(file, 'modern');
    expect(rows.map((r) => r.map((v, c) => truthOf(v, file.columns[c]!.type as ColumnType)))).toEqual(hand.rowsLegacy);
  });

  /** ML.NET's text saver output, parsed: quotes removed, its sparse rows (`9\t0:0`) expanded with the defaults. */
  function baseline(name: string, defaults: readonly string[]): string[][] {
    const lines = readFileSync(fixture(`idv/baselines/${name}`), 'utf8')
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('#@'));
    return lines.slice(1).map((line) => {
      const cells = line.split('\t').map((c) => c.replace(/^"(.*)"$/, '$1'));
      if (cells.length === defaults.length) return cells;
      const row = [...defaults];
      for (const pair of cells.slice(1)) {
        const [i, v] = pair.split(':');
        row[Number(i)] = v!;
      }
      return row;
    });
  }

  async function tsv(reading: Reading): Promise<string[][]> {
    const doc = await idvHandler.open(new MemorySource(readFixture('idv/mlnet-testdata/datatypes.idv')), {});
    let text = '';
    const sink: ByteSink = { write: async (b) => void (text += new TextDecoder().decode(b)) };
    await doc.cat!.run('tsv', { options: { reading } }, sink, {});
    // ML.NET writes booleans as 0/1.
    return text
      .replace(/\n$/, '')
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t').map((c, k) => (k === 0 && c ? String(Number(c === 'true')) : c)));
  }

  const DEFAULTS = ['0', '0', '0', '0', '0', '00:00:00', '0001-01-01T00:00:00.0000000+00:00', '0001-01-01T00:00:00.0000000', ''];

  it('prints every value as ML.NET prints it today (datatypes.expected-modern baseline)', async () => {
    expect(await tsv('modern')).toEqual(baseline('datatypes.expected-modern.mlnet-HEAD.tsv', DEFAULTS));
  });

  it('prints legacy NA as empty cells, as ML.NET did when it wrote the file (dvtypes-era baseline)', async () => {
    expect(await tsv('legacy')).toEqual(baseline('datatypes.expected-dvtypes-era.mlnet-5e1cd571.tsv', DEFAULTS));
  });

  it('writes the 5 rows across 9 columns ML.NET reports', async () => {
    const file = await openFile('idv/mlnet-testdata/datatypes.idv');
    const line = readFileSync(fixture('idv/baselines/datatypes.savedata-binary-stdout.mlnet-HEAD.txt'), 'utf8');
    expect(line).toContain(`Wrote ${file.rowCount} rows across ${file.columns.length} columns`);
  });

  it('reads the key types of schema-codec-test.idv as ML.NET lists them', async () => {
    const file = await openFile('idv/mlnet-testdata/schema-codec-test.idv');
    const listed = readFileSync(fixture('idv/baselines/schema-codec-test.expected.mlnet-HEAD.txt'), 'utf8');
    const letters: Record<string, string> = { u8: 'U1', u16: 'U2', u32: 'U4', u64: 'U8' };
    for (const c of file.columns) {
      const t = c.type as ColumnType & { kind: 'key' };
      expect(listed).toContain(`col=${c.entry.name}:${letters[t.raw]}[${t.count}]:${c.entry.index}`);
    }
  });
});
