import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField } from './export.js';
import { CsvReader, type CsvRow } from './csv.js';

function parse(pieces: string[]): CsvRow[] {
  const rows: CsvRow[] = [];
  const r = new CsvReader((row) => rows.push(row));
  for (const p of pieces) r.push(p);
  r.end();
  return rows;
}

describe('CSV reading', () => {
  it('reads RFC 4180 by hand-checked examples: quotes, escaped quotes, line breaks inside quotes, CRLF, BOM', () => {
    expect(parse(['\ufeffa,b,c\r\n1,"x,y","say ""hi"""\r\n2,"two\nlines",\n'])).toEqual([
      ['a', 'b', 'c'],
      ['1', 'x,y', 'say "hi"'],
      ['2', 'two\nlines', null],
    ]);
  });

  it('keeps an unquoted empty field (null) apart from a quoted one (empty string)', () => {
    expect(parse(['a,"",\n'])).toEqual([['a', '', null]]);
    expect(parse(['x\n\n""\n'])).toEqual([['x'], [null], ['']]);
  });

  it('rejects stray quotes and an unterminated quoted field', () => {
    expect(() => parse(['a,b"c\n'])).toThrow(expect.objectContaining({ code: 'corrupt', field: 'CSV line 1' }));
    expect(() => parse(['a,"b\n'])).toThrow(expect.objectContaining({ code: 'truncated' }));
  });

  it('reads back what the writer quotes, whatever the pieces it arrives in', () => {
    const cell = fc.oneof(fc.constant(null), fc.string({ unit: fc.constantFrom('a', ',', '"', '\n', '\r', ' ', 'é') }));
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 6 }), fc.nat(40), (rows, cut) => {
        const width = rows[0]!.length;
        const table = rows.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? null));
        const text = table.map((r) => `${r.map(csvField).join(',')}\n`).join('');
        expect(parse([text.slice(0, cut), text.slice(cut)])).toEqual(table);
      }),
      { numRuns: 300 },
    );
  });
});
