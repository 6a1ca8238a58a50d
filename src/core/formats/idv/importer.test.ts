import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/byteSource.js';
import type { ByteSink, FormatDocument, OptionValues, OutputTarget } from '../../model.js';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { typeText } from './columnType.js';
import { idvHandler } from './handler.js';
import { importText } from './importer.js';
import { Inference, parseSchema } from './infer.js';
import { everyKind, scalarType, writeIdv } from './testFiles.js';
import type { TextFormat } from './textRecords.js';
import type { Value } from './values.js';

/** JSONL, CSV and TSV → IDV, and the round trips through them. */

const encoder = new TextEncoder();

function memoryTarget(): { target: OutputTarget; bytes(): Uint8Array } {
  const parts: Uint8Array[] = [];
  return {
    target: { file: async (): Promise<ByteSink> => ({ write: async (b) => void parts.push(b.slice()) }) },
    bytes: () => Buffer.concat(parts),
  };
}

async function importString(text: string, format: TextFormat, options: OptionValues = {}): Promise<Uint8Array> {
  const out = memoryTarget();
  await importText(new MemorySource(encoder.encode(text)), format, out.target, {}, options);
  return out.bytes();
}

async function openBytes(bytes: Uint8Array): Promise<FormatDocument> {
  return idvHandler.open(new MemorySource(bytes), {});
}

async function cat(bytes: Uint8Array, format: 'jsonl' | 'csv' | 'tsv' = 'jsonl', options: OptionValues = {}): Promise<string> {
  const doc = await openBytes(bytes);
  let text = '';
  await doc.cat!.run(format, { options }, { write: async (b) => void (text += new TextDecoder().decode(b)) }, {});
  return text;
}

async function types(bytes: Uint8Array): Promise<string[]> {
  const doc = await openBytes(bytes);
  return (doc.info().columns as { name: string; type: string }[]).map((c) => `${c.name}:${c.type}`);
}

describe('IDV import', () => {
  it.each([
    ['DEFLATE, 8 rows per block', { rowsPerBlock: 8 }, 1 as const],
    ['stored blocks, one block', { compression: 'none' }, 0 as const],
  ])('round-trips every kind of column IDV → JSONL → IDV → JSONL unchanged (%s)', async (_, options, compression) => {
    const { columns, rows } = everyKind(40);
    const first = await cat(await writeIdv(columns, rows, { rowsPerBlock: 16, compression }));
    const again = await importString(first, 'jsonl', options);
    expect(await cat(again)).toBe(first);
    // Hidden columns come back hidden; JSON numbers of 8–32 bits come back as Int32/UInt32 and floats as Single/Double.
    expect((await openBytes(again)).info().columns).toContainEqual(expect.objectContaining({ name: 'Name', hidden: true }));
  });

  it("round-trips datatypes.idv (a 1.1.1.5 file read as today's ML.NET does) through JSONL unchanged", async () => {
    const first = await cat(readFixture('idv/mlnet-testdata/datatypes.idv'), 'jsonl', { modern: true });
    expect(await cat(await importString(first, 'jsonl'))).toBe(first);
  });

  it('round-trips any table of numbers, text, booleans and vectors through JSONL unchanged', async () => {
    const cell = fc.oneof(fc.constant('i'), fc.constant('f'), fc.constant('d'), fc.constant('t'), fc.constant('b'), fc.constant('v'), fc.constant('s'));
    await fc.assert(
      fc.asyncProperty(
        fc.array(cell, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 9 }),
        async (kinds, n, rpb) => {
          const columns = kinds.map((k, i) => ({
            name: `c${i}`,
            type:
              k === 'i'
                ? scalarType('i32')
                : k === 'f'
                  ? scalarType('f32')
                  : k === 'd'
                    ? scalarType('f64')
                    : k === 't'
                      ? scalarType('text')
                      : k === 'b'
                        ? scalarType('bool')
                        : k === 'v'
                          ? { kind: 'vector' as const, item: scalarType('f32'), dims: [3], size: 3 }
                          : { kind: 'vector' as const, item: scalarType('i32'), dims: [0], size: 0 },
          }));
          const rows: Value[][] = Array.from({ length: n }, (_, r) =>
            kinds.map((k) => {
              switch (k) {
                case 'i':
                  return ((r * 7919) % 100_000) - 50_000;
                case 'f':
                  return Math.fround(r / 3);
                case 'd':
                  return r / 3;
                case 't':
                  return r % 2 ? `t${r},"q"\n` : '';
                case 'b':
                  return r % 2 === 0;
                case 'v':
                  return r % 2 ? { length: 3, values: [r, 0.5, -r] } : { length: 3, indices: [2], values: [r] };
                default:
                  return { length: r % 4, values: Array.from({ length: r % 4 }, (_, j) => j - r) };
              }
            }),
          );
          const first = await cat(await writeIdv(columns, rows, { rowsPerBlock: rpb, compression: 1 }));
          expect(await cat(await importString(first, 'jsonl', { rowsPerBlock: rpb }))).toBe(first);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('round-trips vectors, slot names and dates through CSV and TSV', async () => {
    const { columns, rows } = everyKind(12);
    const idv = await writeIdv(columns, rows, { rowsPerBlock: 5, compression: 1 });
    for (const format of ['csv', 'tsv'] as const) {
      const text = await cat(idv, format);
      expect(text.split('\n')[0]).toContain(format === 'csv' ? 'Dense[w],Dense[x],Dense[y],Dense[z]' : 'Dense[w]\tDense[x]');
      const back = await importString(text, format);
      expect(await cat(back, format)).toBe(text);
      const doc = await openBytes(back);
      const dense = (doc.info().columns as { name: string; type: string }[]).find((c) => c.name === 'Dense');
      expect(dense?.type).toBe('Vector<Single, 4>');
      expect(await types(back)).toEqual(expect.arrayContaining(['When:DateTime', 'Zone:DateTimeOffset', 'Span:TimeSpan', 'Label:Boolean', 'Score:Double']));
    }
  });

  it('infers types from CSV cells as ML.NET users write them', async () => {
    const csv = 'a,b,c,d,e,f,g\n1,0.5,true,x,2013-08-05T00:00:00.0000000,"he said ""hi""",4000000000\n-2,NaN,FALSE,"y,z",2013-08-06T00:00:00.0000000,,12\n';
    const bytes = await importString(csv, 'csv');
    expect(await types(bytes)).toEqual(['a:Int32', 'b:Single', 'c:Boolean', 'd:TextSpan', 'e:DateTime', 'f:TextSpan', 'g:UInt32']);
    expect(await cat(bytes)).toBe(
      '{"a":1,"b":0.5,"c":true,"d":"x","e":{"ticks":"635112576000000000"},"f":"he said \\"hi\\"","g":4000000000}\n' +
        '{"a":-2,"b":"NaN","c":false,"d":"y,z","e":{"ticks":"635113440000000000"},"f":"","g":12}\n',
    );
  });

  it('stores integers with missing cells as floats, where NaN is the missing value', async () => {
    const bytes = await importString('n\tm\n1\t2\n\t3\n', 'tsv');
    expect(await types(bytes)).toEqual(['n:Single', 'm:Int32']);
    expect(await cat(bytes)).toBe('{"n":1,"m":2}\n{"n":"NaN","m":3}\n');
  });

  it('takes the types it is given, keys and vectors included', async () => {
    const jsonl = '{"k":1,"v":[1,2],"s":"a"}\n{"k":3,"v":[3,4],"s":"b"}\n';
    const bytes = await importString(jsonl, 'jsonl', { schema: 'k: Key<UInt32, 3>; v: Vector<Double, 2>; extra: Int64' });
    expect(await types(bytes)).toEqual(['k:Key<UInt32, 3>', 'v:Vector<Double, 2>', 's:TextSpan', 'extra:Int64']);
    expect(await cat(bytes)).toBe('{"k":1,"v":{"length":2,"values":[1,2]},"s":"a","extra":"0"}\n{"k":3,"v":{"length":2,"values":[3,4]},"s":"b","extra":"0"}\n');
  });

  it('writes a zero-row schema from the given types alone', async () => {
    const bytes = await importString('', 'jsonl', { schema: 'Label: Boolean; Features: Vector<Single, 9>' });
    expect(await types(bytes)).toEqual(['Label:Boolean', 'Features:Vector<Single, 9>']);
    expect((await openBytes(bytes)).info().rowCount).toBe(0);
  });

  it('names the line and column of a value that does not fit a given type', async () => {
    await expect(importString('{"a":1}\n{"a":300}\n', 'jsonl', { schema: 'a: Byte' })).rejects.toThrow(/line 2, column a: 300 is not a u8/);
    await expect(importString('{"a":1}\nnot json\n', 'jsonl')).rejects.toMatchObject({ code: 'corrupt', field: 'line 2' });
    await expect(importString('a,b\n1,2,3\n', 'csv')).rejects.toThrow(/line 2 has 3 fields but the header names 2/);
    await expect(importString('a,b\n"1,2\n', 'csv')).rejects.toThrow(/never closes/);
  });

  it('reads the type names `binlens info` prints', () => {
    const schema = parseSchema('a:Single; b: Key<UInt64, 18446744073709551615>; c: Vector<TextSpan, 2, 3>; d: Vector<Int32>');
    expect([...schema.entries()].map(([n, t]) => `${n}:${typeText(t)}`)).toEqual([
      'a:Single',
      'b:Key<UInt64, 18446744073709551615>',
      'c:Vector<TextSpan, 2, 3>',
      'd:Vector<Int32>',
    ]);
    expect(() => parseSchema('a: Float')).toThrow(/unknown type/);
  });

  it('infers Single only for numbers a float32 holds exactly, and 64-bit integers only from their decimal strings', () => {
    const infer = (values: unknown[]) => {
      const inf = new Inference();
      for (const v of values) inf.addJson(v);
      return typeText(inf.result());
    };
    expect(infer([0.5, 1.25])).toBe('Single');
    expect(infer([0.1])).toBe('Double');
    expect(infer(['9223372036854775807', '-1'])).toBe('Int64');
    expect(infer(['18446744073709551615'])).toBe('UInt64');
    expect(infer(['007'])).toBe('TextSpan');
    expect(infer([{ ticks: '5' }, null])).toBe('DateTime');
    expect(infer([{ ticks: '-5' }])).toBe('TimeSpan');
    expect(
      infer([
        { length: 2, values: [1, 2] },
        { length: 3, values: [1, 2, 3] },
      ]),
    ).toBe('Vector<Int32>');
    expect(infer([1, 'x'])).toBe('TextSpan');
  });
});
