import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { converted, imported, openDetected, text } from '../../../../test/helpers/registry.js';
import type { ColumnType } from './columnType.js';
import { scalarType, vectorType, writeIdv } from './testFiles.js';
import type { Value } from './values.js';

/**
 * Property-based round trips through the IDV converters (JSONL, CSV, TSV) and the importers that
 * read them back, reached through the registry: random dataviews of every scalar kind, dates,
 * fixed and variable vectors, any block size, stored or DEFLATE blocks.
 * IDV → text → IDV → text must give the same text.
 */

const RUNS = 400;

const I64 = fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n });
const kinds: Record<string, { type: ColumnType; value: fc.Arbitrary<Value> }> = {
  bool: { type: scalarType('bool'), value: fc.boolean() },
  i8: { type: scalarType('i8'), value: fc.integer({ min: -127, max: 127 }) },
  u16: { type: scalarType('u16'), value: fc.integer({ min: 0, max: 65535 }) },
  i32: { type: scalarType('i32'), value: fc.integer({ min: -(2 ** 31) + 1, max: 2 ** 31 - 1 }) },
  u32: { type: scalarType('u32'), value: fc.integer({ min: 0, max: 2 ** 32 - 1 }) },
  i64: { type: scalarType('i64'), value: fc.bigInt({ min: -(1n << 63n) + 1n, max: (1n << 63n) - 1n }) },
  u64: { type: scalarType('u64'), value: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }) },
  f32: { type: scalarType('f32'), value: fc.float() },
  f64: { type: scalarType('f64'), value: fc.double() },
  text: { type: scalarType('text'), value: fc.string({ unit: 'grapheme', maxLength: 10 }) },
  dt: { type: scalarType('dt'), value: fc.bigInt({ min: 0n, max: 3155378975999999999n }) },
  ts: { type: scalarType('ts'), value: I64 },
  dz: {
    type: scalarType('dz'),
    value: fc.record({ ticks: fc.bigInt({ min: 6_000_000_000_000n, max: 3_100_000_000_000_000_000n }), offsetMinutes: fc.integer({ min: -840, max: 840 }) }),
  },
  vec: { type: vectorType(scalarType('f32'), 3), value: fc.array(fc.float(), { minLength: 3, maxLength: 3 }).map((values) => ({ length: 3, values })) },
  sparse: {
    type: vectorType(scalarType('f64'), 5),
    value: fc.uniqueArray(fc.integer({ min: 0, max: 4 }), { maxLength: 4 }).chain((idx) => {
      const indices = [...idx].sort((a, b) => a - b);
      return fc.array(fc.double(), { minLength: indices.length, maxLength: indices.length }).map((values) => ({ length: 5, indices, values }));
    }),
  },
  ragged: {
    type: { kind: 'vector', item: scalarType('i32'), dims: [0], size: 0 },
    value: fc.array(fc.integer({ min: -(2 ** 31) + 1, max: 2 ** 31 - 1 }), { maxLength: 4 }).map((values) => ({ length: values.length, values })),
  },
};

const dataview = fc
  .tuple(fc.array(fc.constantFrom(...Object.keys(kinds)), { minLength: 1, maxLength: 5 }), fc.integer({ min: 0, max: 25 }))
  .chain(([cols, rows]) =>
    fc.tuple(
      fc.constant(cols),
      fc.array(fc.tuple(...cols.map((k) => kinds[k]!.value)), { minLength: rows, maxLength: rows }),
      fc.integer({ min: 1, max: 9 }),
      fc.constantFrom<0 | 1>(0, 1),
    ),
  )
  .filter(([, rows]) => rows.length > 0);

async function original([cols, rows, rowsPerBlock, compression]: [string[], Value[][], number, 0 | 1]): Promise<Uint8Array> {
  return writeIdv(
    cols.map((k, i) => ({ name: `c${i}`, type: kinds[k]!.type })),
    rows,
    { rowsPerBlock, compression },
  );
}

async function textRoundTrip(format: 'jsonl' | 'csv' | 'tsv', idv: Uint8Array, options: Record<string, string | number> = {}): Promise<[string, string]> {
  const first = text(await converted(await openDetected(idv, 'a.idv'), format));
  const back = await imported('idv', `idv-from-${format}`, `a.${format}`, first, options);
  return [first, text(await converted(await openDetected(back, 'b.idv'), format))];
}

describe('IDV conversions round trip (property-based, through the registry)', () => {
  it('keeps what the properties found lost through CSV/TSV: empty-text rows of one column, -0 in Double, variable vectors of equal lengths', async () => {
    const idv = await writeIdv([{ name: 'only', type: scalarType('text') }], [[''], ['a'], ['']], { rowsPerBlock: 2, compression: 1 });
    // A row that would be a blank line (which readers skip) is written "".
    expect(await textRoundTrip('csv', idv)).toEqual(['only\n""\na\n""\n', 'only\n""\na\n""\n']);
    const mixed = await writeIdv(
      [
        { name: 'd', type: scalarType('f64') },
        { name: 'v', type: kinds.ragged!.type },
      ],
      [
        [-0, { length: 2, values: [1, 2] }],
        [0.5, { length: 2, values: [3, 4] }],
      ],
      { rowsPerBlock: 9, compression: 0 },
    );
    for (const format of ['csv', 'tsv'] as const) {
      const [first, again] = await textRoundTrip(format, mixed);
      expect(first.split('\n')[1]!.startsWith('-0')).toBe(true);
      expect(again).toBe(first);
      const back = await openDetected(await imported('idv', `idv-from-${format}`, `a.${format}`, first), 'b.idv');
      // Single: both numbers are float32 exactly (the importer's rule); the vector stays variable-length.
      expect((back.doc.info().columns as { type: string }[]).map((c) => c.type)).toEqual(['Single', 'Vector<Int32>']);
    }
  });

  it('keeps texts named like Object.prototype members as text (a property run found "toString" read back as NaN)', async () => {
    const names = ['toString', 'constructor', '__proto__', 'hasOwnProperty'];
    const idv = await writeIdv(
      [{ name: 't', type: scalarType('text') }],
      names.map((n) => [n]),
      { rowsPerBlock: 3, compression: 0 },
    );
    for (const format of ['csv', 'tsv', 'jsonl'] as const) {
      const [first, again] = await textRoundTrip(format, idv);
      expect(again).toBe(first);
      for (const n of names) expect(first).toContain(n);
    }
  });

  it.each(['jsonl', 'csv', 'tsv'] as const)('IDV → %s → IDV → the same text', async (format) => {
    await fc.assert(
      fc.asyncProperty(dataview, fc.integer({ min: 0, max: 9 }), async (dv, rowsPerBlock) => {
        const [first, again] = await textRoundTrip(format, await original(dv), { rowsPerBlock });
        expect(again).toBe(first);
      }),
      { numRuns: RUNS },
    );
  });
});
