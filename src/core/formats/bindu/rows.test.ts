import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hexString } from '../../describe.js';
import { fixture, readFixture, readJson } from '../../../../test/helpers/fixtures.js';
import { MemorySource } from '../../io/byteSource.js';
import { chainText } from './chain.js';
import { ChunkReader, columnViews } from './columns.js';
import { readContainer } from './container.js';
import { typeText } from './schema.js';
import { jsonValue } from './values.js';

const FILES = ['sample', 'schemaless-int64-delta', 'nullable-float-dict-bloom-sealed', 'preamble8-variant'];

interface TruthType {
  code: string;
  bits?: number;
  signed?: boolean;
  unit?: string;
  labels?: string[];
}
interface Truth {
  columns: {
    id: number;
    name: string;
    frame_offset: number;
    nullable: boolean;
    type: TruthType;
    chain: { codec: string; id: number; params_hex: string }[];
    rows: number;
    chunks: { rows: number; byte_len: number; min_hex: string; max_hex: string; blob_offset: number }[];
    null_count: number;
  }[];
  rows_columns: string[];
}

function truthType(t: TruthType): string {
  if (t.code === 'INT') return `${t.signed ? 'INT' : 'UINT'}${t.bits}`;
  if (t.code === 'FLOAT') return `FLOAT${t.bits}`;
  if (t.code === 'TS') return `TS(${t.unit})`;
  if (t.code === 'ENUM') return t.labels!.length ? `ENUM(${t.labels!.join(', ')})` : 'ENUM (open)';
  return t.code;
}

async function load(name: string) {
  const src = new MemorySource(readFixture(`bindu/${name}.bindu`));
  const c = await readContainer(src);
  return { src, c, views: columnViews(c) };
}

describe('Bindu columns and rows against the truth files', () => {
  it.each(FILES)('%s: every column frame, codec chain and chunk index entry', async (name) => {
    const truth = readJson<Truth>(`bindu/${name}.truth.json`);
    const { c } = await load(name);
    expect(c.problems.size).toBe(0);
    expect(
      c.columns.map((col) => ({
        id: col.id,
        name: col.name,
        offset: col.frame.offset,
        nullable: col.nullable,
        type: typeText(col.type),
        chain: col.stages.map((s) => [s.codec, hexString(s.params)]),
        rows: col.rowCount,
        chunks: col.chunks.map((k) => [k.rows, k.byteLength, hexString(k.min!), hexString(k.max!), k.blobOffset]),
      })),
    ).toEqual(
      truth.columns.map((t) => ({
        id: t.id,
        name: t.name,
        offset: t.frame_offset,
        nullable: t.nullable,
        type: truthType(t.type),
        chain: t.chain.map((s) => [s.id, s.params_hex]),
        rows: t.rows,
        chunks: t.chunks.map((k) => [k.rows, k.byte_len, k.min_hex, k.max_hex, k.blob_offset]),
      })),
    );
    expect(
      c.columns.map((col) =>
        chainText(col.stages)
          .split(' → ')
          .map((s) => s.replace(/\(.*$/, '')),
      ),
    ).toEqual(truth.columns.map((t) => t.chain.map((s) => s.codec)));
  });

  it.each(FILES)('%s: every decoded row equals the reference rows', async (name) => {
    const truth = readJson<Truth>(`bindu/${name}.truth.json`);
    const { src, views } = await load(name);
    const reader = new ChunkReader(src);
    const rows = readFileSync(fixture(`bindu/${name}.rows.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const columns = await Promise.all(views.map((v) => reader.range(v, 0, v.column.rowCount)));
    const decoded = rows.map((_, i) => Object.fromEntries(views.map((v, k) => [v.column.name, jsonValue(columns[k]![i]!)])));
    expect(views.map((v) => v.column.name)).toEqual(truth.rows_columns);
    expect(decoded).toEqual(rows);
    expect(columns.map((values) => values.filter((x) => x === null).length)).toEqual(truth.columns.map((t) => t.null_count));
  });
});
