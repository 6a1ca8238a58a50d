import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { MemorySource } from '../../io/byteSource.js';
import type { ByteSink, Check, FormatDocument, Importer, OutputTarget } from '../../model.js';
import { planChain, type ChainPlan, DescribeOnly } from './chain.js';
import { allValues, encodeChunk, readChunk } from './chunkCodec.js';
import { PREFIX_ROWS } from './columns.js';
import { binduHandler } from './handler.js';
import { bytesImporter, csvImporter, jsonlImporter } from './importers.js';
import { Codec, type LeafType, type Stage } from './model.js';
import type { Value } from './values.js';
import { writeBindu, type ColumnInput } from './writer.js';

const FIXTURES = ['sample', 'schemaless-int64-delta', 'nullable-float-dict-bloom-sealed', 'preamble8-variant'];

function memory(): { target: OutputTarget; bytes(): Uint8Array } {
  const parts: Uint8Array[] = [];
  const sink: ByteSink = { write: (b) => (parts.push(b.slice()), Promise.resolve()) };
  return { target: { file: () => Promise.resolve(sink) }, bytes: () => Uint8Array.from(parts.flatMap((p) => [...p])) };
}

async function open(bytes: Uint8Array): Promise<FormatDocument> {
  return binduHandler.open(new MemorySource(bytes), {});
}

async function convert(doc: FormatDocument, id: string): Promise<Uint8Array> {
  const out = memory();
  await doc.converters.find((c) => c.id === id)!.run(out.target, {}, {});
  return out.bytes();
}

async function importer(imp: Importer, input: Uint8Array, options: Record<string, string | number | boolean> = {}): Promise<Uint8Array> {
  const out = memory();
  await imp.run(new MemorySource(input), out.target, {}, options);
  return out.bytes();
}

async function failures(doc: FormatDocument): Promise<Check[]> {
  const out: Check[] = [];
  for await (const c of doc.verify({})) if (c.status === 'fail' || c.status === 'warn') out.push(c);
  return out;
}

const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('Bindu conversions both ways', () => {
  it.each(FIXTURES)('%s → JSONL → bindu → JSONL and → CSV → bindu → CSV are identical, and our files verify clean', async (name) => {
    const doc = await open(readFixture(`bindu/${name}.bindu`));
    for (const [format, imp] of [
      ['jsonl', jsonlImporter],
      ['csv', csvImporter],
    ] as const) {
      const first = await convert(doc, format);
      const written = await importer(imp, first, { seal: true, chunkRows: 7 });
      const again = await open(written);
      expect(await failures(again)).toEqual([]);
      expect(text(await convert(again, format))).toBe(text(first));
    }
  });

  it('keeps the nested schema of dotted names, so a round trip reproduces sensor.temp / sensor.seq', async () => {
    const doc = await open(readFixture('bindu/sample.bindu'));
    const again = await open(await importer(jsonlImporter, await convert(doc, 'jsonl')));
    const schema = (again.structure().children as { label: string; children?: unknown }[]).find((n) => n.label === 'Schema frame');
    expect(JSON.stringify(schema)).toContain('"label":"sensor","value":"NESTED(2)"');
  });

  it('chooses DICT for low-cardinality text, FOR→BITPACK or DELTA for integers, DEFLATE last, with the requested indexes', async () => {
    const lines = Array.from({ length: 500 }, (_, i) =>
      JSON.stringify({ ts: 1_700_000_000_000 + i * 1000, level: ['info', 'warn', 'error'][i % 3], n: i % 17 }),
    );
    const doc = await open(
      await importer(jsonlImporter, new TextEncoder().encode(lines.join('\n')), { bloom: 'level', sorted: 'ts', seal: true, chunkRows: 100 }),
    );
    const info = doc.info() as { columns: { name: string; chain: { codec: number }[] }[]; fileFlags: string };
    const chains = Object.fromEntries(info.columns.map((c) => [c.name, c.chain.map((s) => s.codec)]));
    expect(chains.level).toEqual([Codec.DICT, Codec.BITPACK, Codec.DEFLATE]);
    expect(chains.n).toEqual([Codec.FOR, Codec.BITPACK, Codec.DEFLATE]);
    expect(chains.ts!.at(-1)).toBe(Codec.DEFLATE);
    expect(info.fileFlags).toBe('SCHEMA_EMBEDDED, SEALED, HAS_INDEXES');
    expect(await failures(doc)).toEqual([]);
  });

  it('random tables read back identically and verify clean, whatever the chunking, compressor, seal and indexes', async () => {
    const i64 = fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n });
    const column = fc.oneof(
      fc.record({ type: fc.constant<LeafType>({ code: 'INT', bits: 64, signed: true }), gen: fc.constant(i64 as fc.Arbitrary<Value>) }),
      fc.record({
        type: fc.constant<LeafType>({ code: 'INT', bits: 64, signed: false }),
        gen: fc.constant(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }) as fc.Arbitrary<Value>),
      }),
      fc.record({
        type: fc.constant<LeafType>({ code: 'INT', bits: 16, signed: true }),
        gen: fc.constant(fc.integer({ min: -32768, max: 32767 }) as fc.Arbitrary<Value>),
      }),
      fc.record({
        type: fc.constant<LeafType>({ code: 'INT', bits: 32, signed: false }),
        gen: fc.constant(fc.integer({ min: 0, max: 2 ** 32 - 1 }) as fc.Arbitrary<Value>),
      }),
      fc.record({ type: fc.constant<LeafType>({ code: 'TS', unit: 'ns' }), gen: fc.constant(i64 as fc.Arbitrary<Value>) }),
      fc.record({ type: fc.constant<LeafType>({ code: 'FLOAT', bits: 64 }), gen: fc.constant(fc.double() as fc.Arbitrary<Value>) }),
      fc.record({ type: fc.constant<LeafType>({ code: 'STRING' }), gen: fc.constant(fc.constantFrom('a', 'b', '', 'Zürich', '東京') as fc.Arbitrary<Value>) }),
      fc.record({ type: fc.constant<LeafType>({ code: 'STRING' }), gen: fc.constant(fc.string() as fc.Arbitrary<Value>) }),
      fc.record({ type: fc.constant<LeafType>({ code: 'BYTES' }), gen: fc.constant(fc.uint8Array({ maxLength: 8 }) as fc.Arbitrary<Value>) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ col: column, nullable: fc.boolean() }), { minLength: 1, maxLength: 4 }),
        fc.nat(60),
        fc.integer({ min: 1, max: 9 }),
        fc.boolean(),
        fc.constantFrom(Codec.DEFLATE, Codec.NONE, Codec.LZ4),
        fc.infiniteStream(fc.boolean()),
        fc.infiniteStream(fc.nat()),
        async (specs, rows, chunkRows, seal, compressor, nulls, picks) => {
          const columns: ColumnInput[] = specs.map((s, i) => {
            const sample = fc.sample(s.col.gen, { numRuns: rows, seed: picks.next().value });
            return { name: `c${i}`, type: s.col.type, nullable: s.nullable, values: sample.map((v) => (s.nullable && nulls.next().value ? null : v)) };
          });
          const out = memory();
          await writeBindu(columns, { chunkRows, compressor, seal, bloom: ['c0'], sorted: 'c0' }, await out.target.file());
          const doc = await open(out.bytes());
          expect(await failures(doc)).toEqual([]);
          const page = await doc.tables.find((t) => t.id === 'rows')!.page(0, rows);
          const back = columns.map((_, k) => page.map((r) => r.cells[k + 1]));
          columns.forEach((c, k) => {
            const want = c.values.map((v) =>
              v === null
                ? { text: 'null', mark: 'null' }
                : v instanceof Uint8Array
                  ? [...v].map((b) => b.toString(16).padStart(2, '0')).join('')
                  : c.type.code === 'TS'
                    ? expect.objectContaining({ text: String(v) })
                    : v,
            );
            expect(back[k]).toEqual(want);
          });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('pages in any order (the first rows of a chunk decoded alone, then all of it) show the written values', async () => {
    const cell = (v: Value) => (v === null ? { text: 'null', mark: 'null' } : v);
    const types: { type: LeafType; gen: fc.Arbitrary<Value> }[] = [
      { type: { code: 'INT', bits: 32, signed: true }, gen: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) },
      { type: { code: 'INT', bits: 64, signed: false }, gen: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }) },
      { type: { code: 'FLOAT', bits: 64 }, gen: fc.double({ noNaN: true }) },
      { type: { code: 'STRING' }, gen: fc.constantFrom('a', 'bb', '', 'Zürich') },
      { type: { code: 'STRING' }, gen: fc.string({ maxLength: 6 }) },
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 900, max: 4000 }),
        fc.integer({ min: 500, max: 3000 }),
        fc.constantFrom(Codec.DEFLATE, Codec.NONE),
        fc.array(fc.tuple(fc.nat(4100), fc.integer({ min: 1, max: 300 })), { minLength: 1, maxLength: 6 }),
        fc.integer(),
        async (rows, chunkRows, compressor, pages, seed) => {
          const columns: ColumnInput[] = types.map((t, i) => ({
            name: `c${i}`,
            type: t.type,
            nullable: i % 2 === 1,
            values: fc.sample(t.gen, { numRuns: rows, seed: seed + i }).map((v, r) => (i % 2 === 1 && (r * 7 + seed) % 5 === 0 ? null : v)),
          }));
          const out = memory();
          await writeBindu(columns, { chunkRows, compressor, seal: false, bloom: [] }, await out.target.file());
          const table = (await open(out.bytes())).tables.find((t) => t.id === 'rows')!;
          // First the rows just below the prefix a first look decodes, then anywhere.
          for (const [from, count] of [[PREFIX_ROWS - 124, 124] as const, ...pages]) {
            const page = await table.page(from, count);
            const end = Math.min(rows, from + count);
            expect(page.length, `page ${from}+${count}`).toBe(Math.max(0, end - from));
            columns.forEach((c, k) =>
              expect(
                page.map((r) => r.cells[k + 1]),
                `c${k} from ${from}`,
              ).toEqual(c.values.slice(from, end).map(cell)),
            );
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('any file → BYTE_STREAM bindu → the same bytes, with its source digest verified', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200_000 }), fc.boolean(), async (data, seal) => {
        const doc = await open(await importer(bytesImporter, data, { seal }));
        expect(await convert(doc, 'bytes')).toEqual(data);
        const checks: Check[] = [];
        for await (const c of doc.verify({})) checks.push(c);
        expect(checks.filter((c) => c.status === 'fail')).toEqual([]);
        expect(checks).toContainEqual(expect.objectContaining({ name: 'source digest', status: 'pass' }));
      }),
      { numRuns: 8 },
    );
  });
});

describe('codec chain stages', () => {
  const plan = (type: LeafType, stages: [number, number[]][]): ChainPlan =>
    planChain(
      type,
      stages.map(([codec, params]): Stage => ({ codec, params: Uint8Array.from(params), offset: 0 })),
    ) as ChainPlan;

  it('BITPACK, FOR, ZIGZAG, DELTA and RLE give the bytes worked out by hand from the spec', () => {
    const u8: LeafType = { code: 'INT', bits: 8, signed: false };
    const i16: LeafType = { code: 'INT', bits: 16, signed: true };
    /** The bytes that a chunk of `values` (not nullable) encodes to through the stages given. */
    const encoded = (type: LeafType, values: readonly number[], ...stages: [number, number[]][]) => encodeChunk(type, false, plan(type, stages), values);
    // 1, 2, 3 in 2 bits each, LSB-first: 01 | 10<<2 | 11<<4 = 0b00111001.
    expect(encoded(u8, [1, 2, 3], [Codec.BITPACK, [2]])).toEqual(Uint8Array.of(0x39));
    // FOR(100): 103 → 3; ZIGZAG(−1) = 1, ZIGZAG(1) = 2; then VARINT.
    expect(encoded(u8, [103, 100], [Codec.FOR, [100]], [Codec.VARINT, []])).toEqual(Uint8Array.of(3, 0));
    expect(encoded(i16, [-1, 1, -32768], [Codec.ZIGZAG, []], [Codec.VARINT, []])).toEqual(Uint8Array.of(1, 2, 0xff, 0xff, 0x03));
    // DELTA(1) mod 2^16: 32767 then −32768 is a step of +1; RLE of 5,5,5,7.
    expect(encoded(i16, [32767, -32768], [Codec.DELTA, [1]], [Codec.PLAIN, []])).toEqual(Uint8Array.of(0xff, 0x7f, 0x01, 0x00));
    expect(encoded(u8, [5, 5, 5, 7], [Codec.RLE, []])).toEqual(Uint8Array.of(3, 5, 1, 7));
    // Nullable: the validity bitmap comes first, LSB-first.
    expect(encodeChunk(u8, true, plan(u8, [[Codec.PLAIN, []]]), [9, null, 8])).toEqual(Uint8Array.of(0b101, 9, 8));
  });

  it('every integer chain decodes what it encodes, at every width, 64 bits exactly', () => {
    const widths = [8, 16, 32, 64] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...widths),
        fc.boolean(),
        fc.array(fc.constantFrom('DELTA', 'FOR', 'ZIGZAG'), { maxLength: 3 }),
        fc.constantFrom(Codec.PLAIN, Codec.VARINT, Codec.RLE, Codec.BITPACK),
        fc.array(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), { maxLength: 40 }),
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        (bits, signed, transforms, serializer, raw, refRaw) => {
          const type: LeafType = { code: 'INT', bits, signed };
          const mask = (1n << BigInt(bits)) - 1n;
          const values: Value[] = raw.map((r) => {
            const u = r & mask;
            const v = signed ? BigInt.asIntN(bits, u) : u;
            return bits === 64 ? v : Number(v);
          });
          const ref = refRaw & mask;
          const stages: [number, number[]][] = transforms.map((t) =>
            t === 'DELTA'
              ? [Codec.DELTA, [1 + Number(ref % 3n)]]
              : t === 'FOR'
                ? [Codec.FOR, Array.from({ length: bits / 8 }, (_, i) => Number((ref >> BigInt(8 * i)) & 0xffn))]
                : [Codec.ZIGZAG, []],
          );
          stages.push([serializer, serializer === Codec.BITPACK ? [bits] : []], [Codec.DEFLATE, []]);
          const p = plan(type, stages);
          const blob = encodeChunk(type, false, p, values);
          expect(allValues(readChunk(type, false, p, blob, values.length, 0))).toEqual(values);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('values of random-access chains read in any order and from a prefix equal the written ones, nulls included', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(8, 16, 32, 64),
        fc.array(fc.constantFrom('FOR', 'ZIGZAG'), { maxLength: 2 }),
        fc.constantFrom(Codec.PLAIN, Codec.BITPACK),
        fc.integer({ min: 1, max: 3000 }),
        fc.integer(),
        (bits, transforms, serializer, rows, seed) => {
          const type: LeafType = { code: 'INT', bits: bits as 8 | 16 | 32 | 64, signed: true };
          const random = fc.sample(fc.bigInt({ min: -(1n << BigInt(bits - 1)), max: (1n << BigInt(bits - 1)) - 1n }), { numRuns: rows, seed });
          const values: Value[] = random.map((v, r) => ((r * 7 + seed) % 5 === 0 ? null : bits === 64 ? v : Number(v)));
          const stages: [number, number[]][] = transforms.map((t) =>
            t === 'FOR' ? [Codec.FOR, Array.from({ length: bits / 8 }, (_, i) => (seed >> i) & 0xff)] : [Codec.ZIGZAG, []],
          );
          stages.push([serializer, serializer === Codec.BITPACK ? [bits] : []], [Codec.DEFLATE, []]);
          const p = plan(type, stages);
          const blob = encodeChunk(type, true, p, values);
          const all = readChunk(type, true, p, blob, rows, 0);
          const order = fc.sample(fc.nat(rows - 1), { numRuns: 200, seed: seed + 1 });
          for (const i of order) expect(all.at(i), `row ${i}`).toEqual(values[i]);
          const take = Math.min(rows, 1 + (Math.abs(seed) % 1500));
          expect(allValues(readChunk(type, true, p, blob, rows, 0, undefined, take))).toEqual(values.slice(0, take));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('rejects chains that break the grammar, and describes proprietary codecs', () => {
    const f64: LeafType = { code: 'FLOAT', bits: 64 };
    const s: LeafType = { code: 'STRING' };
    expect(() =>
      plan(f64, [
        [Codec.DELTA, [1]],
        [Codec.PLAIN, []],
      ]),
    ).toThrow(/works on integers/);
    expect(() => plan(s, [[Codec.VARINT, []]])).toThrow(/must use PLAIN/);
    expect(() =>
      plan(s, [
        [Codec.PLAIN, []],
        [Codec.DEFLATE, []],
        [Codec.ZSTD, []],
      ]),
    ).toThrow(/after the compressor/);
    expect(() =>
      plan({ code: 'INT', bits: 32, signed: true }, [
        [Codec.FOR, [1, 2]],
        [Codec.PLAIN, []],
      ]),
    ).toThrow(/4 bytes/);
    const lindelta = planChain(s, [{ codec: 0x43, params: Uint8Array.of(7), offset: 0 }]);
    expect(lindelta).toEqual(new DescribeOnly('describe-only: LINDELTA stage (proprietary or extension codec)'));
  });
});
