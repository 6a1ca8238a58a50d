import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { converted, imported, openDetected, text } from '../../../../test/helpers/registry.js';
import { CsvReader } from './csv.js';

/**
 * Property-based round trips through the bindu JSONL and CSV importers and converters, reached
 * through the registry: random tables of integers, doubles, text and nulls, any chunking and
 * compressor. (Byte streams: roundtrip.test.ts, "any file → BYTE_STREAM bindu → the same bytes".)
 */

const RUNS = 500;

type Cell = number | string | null;

/** One column: all its cells drawn from one kind, some null, so the inferred type is the one written. */
const column = (rows: number) =>
  fc
    .tuple(
      fc
        .oneof(
          fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) as fc.Arbitrary<Cell>,
          fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)) as fc.Arbitrary<Cell>,
          fc.string({ unit: 'grapheme', maxLength: 12 }) as fc.Arbitrary<Cell>,
          fc.constantFrom('a', 'b', 'Zürich', '', ' x ', '"q"', 'a,b', 'line\nbreak') as fc.Arbitrary<Cell>,
        )
        .chain((kind) => fc.constant(kind)),
      fc.boolean(),
    )
    .chain(([sample, nullable]) => {
      const gen: fc.Arbitrary<Cell> =
        typeof sample === 'number' && Number.isInteger(sample) && Math.abs(sample) < 2 ** 31
          ? fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })
          : typeof sample === 'number'
            ? fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0))
            : fc.string({ unit: 'grapheme', maxLength: 12 });
      return fc.array(nullable ? fc.option(gen, { nil: null }) : gen, { minLength: rows, maxLength: rows });
    });

const table = fc
  .tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 40 }))
  .chain(([cols, rows]) => fc.array(column(rows), { minLength: cols, maxLength: cols }));

const writeOptions = fc.record({
  chunkRows: fc.integer({ min: 1, max: 50 }),
  compressor: fc.constantFrom('deflate', 'none', 'lz4'),
  seal: fc.boolean(),
});

const rowsOf = (cols: Cell[][]) => cols[0]!.map((_, r) => Object.fromEntries(cols.map((c, k) => [`c${k}`, c[r]])));

function csvField(c: Cell): string {
  if (c === null) return '';
  const s = String(c);
  return s === '' || /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function parseCsv(t: string): (string | null)[][] {
  const rows: (string | null)[][] = [];
  const reader = new CsvReader((row) => void rows.push(row));
  reader.push(t);
  reader.end();
  return rows;
}

describe('bindu conversions round trip (property-based, through the registry)', () => {
  it('long numbers on a line change no other column (found by the JSONL property)', async () => {
    // Before: n became INT64 ("0") beside a 16-digit double, x became text beside 1e16, and a
    // number past INT64 became the quoted JSON string "\"…\"".
    const input =
      '{"n":0,"x":-1.0000567034123341e-200,"i64":1234567890123456789,"huge":12345678901234567890}\n{"n":7,"x":10000000000000000,"i64":1,"huge":"a"}\n';
    const out = text(await converted(await openDetected(await imported('bindu', 'bindu', 't.jsonl', input), 't.bindu'), 'jsonl'));
    // INT64 values print as decimal strings (the CLI contract), as does a number past 64 bits in a text column.
    expect(out).toBe(
      '{"n":0,"x":-1.0000567034123341e-200,"i64":"1234567890123456789","huge":"12345678901234567890"}\n{"n":7,"x":10000000000000000,"i64":"1","huge":"a"}\n',
    );
  });

  it('JSONL → bindu (jsonl importer) → JSONL (converter) gives the same values, and converting again the same text', async () => {
    await fc.assert(
      fc.asyncProperty(table, writeOptions, fc.constantFrom('t.jsonl', 't.ndjson'), async (cols, options, name) => {
        const rows = rowsOf(cols);
        const input = rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
        const out = text(await converted(await openDetected(await imported('bindu', 'bindu', name, input, options), 't.bindu'), 'jsonl'));
        // A column of integers only, one past 2^53, is INT64: printed as decimal strings (the CLI contract).
        const long = (v: Cell) => typeof v === 'number' && !Number.isSafeInteger(v) && /^-?\d+$/.test(String(v));
        const int64 = cols.map(
          (c) => c.some(long) && c.every((v) => v === null || Number.isSafeInteger(v) || (long(v) && (v as number) >= -(2 ** 63) && (v as number) < 2 ** 63)),
        );
        const want = rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v], i) => [k, int64[i] && v !== null ? String(v) : v])));
        expect(
          out
            .trimEnd()
            .split('\n')
            .map((l) => JSON.parse(l)),
        ).toEqual(want);
        const again = text(await converted(await openDetected(await imported('bindu', 'bindu', 'u.jsonl', out, options), 'u.bindu'), 'jsonl'));
        expect(again).toBe(out);
      }),
      { numRuns: RUNS },
    );
  });

  it('CSV → bindu (csv importer) → CSV (converter) gives the same cells, null and "" kept apart, and converting again the same text', async () => {
    await fc.assert(
      fc.asyncProperty(table, writeOptions, async (cols, options) => {
        const header = cols.map((_, k) => `c${k}`);
        const body = cols[0]!.map((_, r) => cols.map((c) => csvField(c[r]!)).join(','));
        const input = [header.join(','), ...body].join('\n') + '\n';
        const out = text(await converted(await openDetected(await imported('bindu', 'bindu', 't.csv', input, options), 't.bindu'), 'csv'));
        const want = [header, ...cols[0]!.map((_, r) => cols.map((c) => (c[r] === null ? null : String(c[r]))))];
        expect(parseCsv(out)).toEqual(want);
        const again = text(await converted(await openDetected(await imported('bindu', 'bindu', 'u.csv', out, options), 'u.bindu'), 'csv'));
        expect(again).toBe(out);
      }),
      { numRuns: RUNS },
    );
  });
});
