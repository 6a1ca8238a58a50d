import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, readFixture, readJson } from '../../../../test/helpers/fixtures.js';
import { catRead, convertRead, flipsNeverPassSilently } from '../../../../test/helpers/integrity.js';
import { DamagedDataError, SHOW_DAMAGED, coveredRanges } from '../../integrity.js';
import { MemorySource } from '../../io/byteSource.js';
import type { Cell, FormatDocument, StructNode } from '../../model.js';
import { concatBytes } from '../../io/bytes.js';
import { CASE_COLUMNS, CRITICAL_FRAME, caseFile, frameEnds, resigned, withDescribeOnlyColumn } from './cases.testkit.js';
import { frameLength } from './model.js';
import { frame } from './frames.js';
import { writeBindu } from './writer.js';
import { Codec } from './model.js';
import { chainText } from './chain.js';
import { readContainer } from './container.js';
import { binduHandler } from './handler.js';
import { bytesImporter } from './importers.js';

/** Issue 17 for Bindu: every frame's CRC-32C, the Merkle leaves and the file checksum guard cat, the conversions and the row table. */

const FIXTURES = ['sample', 'schemaless-int64-delta', 'nullable-float-dict-bloom-sealed', 'preamble8-variant'];

interface Truth {
  frames: { offset: number; type: number; frame_len: number }[];
  columns: { name: string; frame_offset: number; rows: number }[];
  footer: { offset: number };
}

/**
 * The generic annotated-structure conversion (core/dump.ts) shows every family's bytes as they
 * are, damage marks included; it is no bindu read path, so its differing output is not counted.
 */

const open = (bytes: Uint8Array): Promise<FormatDocument> => binduHandler.open(new MemorySource(bytes), {});
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const rowsOf = (jsonl: string) =>
  jsonl
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const reference = (name: string) => rowsOf(readFileSync(fixture(`bindu/${name}.rows.jsonl`), 'utf8'));

describe('Bindu read paths never hand out a damaged byte unflagged', () => {
  it.each(FIXTURES)('%s: one flipped byte anywhere a check covers makes every strict cat and conversion fail or give the undamaged output', async (name) => {
    const r = await flipsNeverPassSilently(readFixture(`bindu/${name}.bindu`), `${name}.bindu`, { maxPositions: 48 });
    expect(r.silent).toEqual([]);
    expect(r.caught).toBeGreaterThan(0);
  });

  it('the same holds for a file of our writer with a nullable FLOAT, a STRING and two chunks per column', async () => {
    const r = await flipsNeverPassSilently(await caseFile(), 'case.bindu', { maxPositions: 48 });
    expect(r.silent).toEqual([]);
    expect(r.caught).toBeGreaterThan(0);
  });

  it('coverage: frames by their CRC-32C, preamble and frames by the file checksum and the Merkle leaves; nothing left uncovered in an intact sealed file', async () => {
    const t = readJson<Truth>('bindu/sample.truth.json');
    const cov = await (await open(readFixture('bindu/sample.bindu'))).coverage!();
    expect(cov.parts.map((p) => p.check)).toEqual([
      'CRC-32C of each frame (header and payload)',
      'SHA-256 file checksum in the footer',
      'SHA-256 Merkle leaves in the MerkleTree frame',
    ]);
    expect(coveredRanges(cov)).toEqual([{ offset: 0, length: 1705 }]);
    expect(cov.parts[0]!.ranges!.map((r) => r.offset)).toEqual(t.frames.map((f) => f.offset));
  });

  it('coverage: the bytes in no complete frame (the tail of a cut-short file) are covered by no check', async () => {
    const cut = readFixture('bindu/sample.bindu').slice(0, 600);
    const cov = await (await open(cut)).coverage!();
    // Frames end at 545 (sample.truth.json: the fourth Column frame starts there and is 69 bytes long).
    expect(cov.parts).toContainEqual({ part: 'bytes in no complete frame', check: null, ranges: [{ offset: 545, length: 55 }] });
    expect(cov.parts).toContainEqual({ part: 'preamble', check: null, ranges: [{ offset: 0, length: 10 }] });
  });
});

describe('Bindu salvage: every intact value out, every damaged unit listed', () => {
  it.each(FIXTURES)(
    '%s: a flipped byte in any Column frame nulls that column only, lists its frame with all its rows, and every other value equals the reference',
    async (name) => {
      const t = readJson<Truth>(`bindu/${name}.truth.json`);
      const want = reference(name);
      for (const col of t.columns) {
        const frame = t.frames.find((f) => f.offset === col.frame_offset)!;
        const bytes = readFixture(`bindu/${name}.bindu`).slice();
        bytes[frame.offset + Math.floor(frame.frame_len / 2)]! ^= 0x20;
        const doc = await open(bytes);
        const strict = await catRead(doc, 'jsonl');
        expect(strict.error).toBeInstanceOf(DamagedDataError);
        expect(strict.output.length).toBe(0);
        const r = await catRead(doc, 'jsonl', true);
        expect(r.error).toBeUndefined();
        const got = rowsOf(text(r.output));
        expect(got).toHaveLength(want.length);
        const index = t.frames.indexOf(frame);
        expect(r.outcome!.damage).toEqual([
          expect.objectContaining({
            unit: `frame ${index} (column ${col.name})`,
            range: { offset: frame.offset, length: frame.frame_len },
            rows: { from: 0, count: col.rows },
          }),
        ]);
        // Damaged cells are null; a name the damaged frame carries is not trusted, so the key is the schema's or "#id".
        const key = Object.keys(got[0]!).find((k) => !(k in want[0]!)) ?? col.name;
        got.forEach((row, i) => {
          expect(row[key]).toBeNull();
          for (const [k, v] of Object.entries(want[i]!)) if (k !== col.name) expect(row[k]).toEqual(v);
        });
      }
    },
  );

  it('a damaged Dictionary frame nulls the column whose codes point into it, and lists the frame and the column', async () => {
    const t = readJson<Truth>('bindu/nullable-float-dict-bloom-sealed.truth.json');
    const dict = t.frames.find((f) => f.type === 3)!;
    const bytes = readFixture('bindu/nullable-float-dict-bloom-sealed.bindu').slice();
    bytes[dict.offset + 20]! ^= 0x01;
    const r = await catRead(await open(bytes), 'jsonl', true);
    const truth = readJson<{ columns: { name: string; chain: { codec: string; params_hex: string }[] }[] }>(
      'bindu/nullable-float-dict-bloom-sealed.truth.json',
    );
    // The truth file: "site" is DICT(02) → BITPACK(3), so its codes point into dictionary 2.
    const dictColumn = truth.columns.find((c) => c.chain[0]!.codec === 'DICT')!;
    expect([dictColumn.name, dictColumn.chain[0]!.params_hex]).toEqual(['site', '02']);
    expect(r.outcome!.damage.map((d) => d.unit)).toEqual([`frame ${t.frames.indexOf(dict)} (dictionary 2)`, 'column site']);
    const want = reference('nullable-float-dict-bloom-sealed');
    rowsOf(text(r.output)).forEach((row, i) => {
      expect(row[dictColumn.name]).toBeNull();
      for (const [k, v] of Object.entries(want[i]!)) if (k !== dictColumn.name) expect(row[k]).toEqual(v);
    });
  });

  it('a cut-short file gives the rows of its complete Column frames, then reports where it was truncated (strict and salvage alike)', async () => {
    const t = readJson<Truth>('bindu/sample.truth.json');
    const last = t.columns[3]!;
    const cut = readFixture('bindu/sample.bindu').slice(0, last.frame_offset + 40);
    const want = reference('sample').map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => k !== last.name)));
    const doc = await open(cut);
    for (const salvage of [false, true]) {
      const r = await catRead(doc, 'jsonl', salvage);
      expect(rowsOf(text(r.output))).toEqual(want);
      const damage = salvage ? r.outcome!.damage : [(r.error as DamagedDataError).damage];
      expect(damage).toEqual([
        expect.objectContaining({
          detail: expect.stringMatching(new RegExp(`^truncated at offset ${last.frame_offset}: `)),
          range: { offset: last.frame_offset, length: 40 },
          code: 'truncated',
        }),
      ]);
    }
  });

  it('a broken frame length under a sound footer loses only the frames up to the next section: salvage still gives every row', async () => {
    const t = readJson<Truth>('bindu/sample.truth.json');
    const bytes = readFixture('bindu/sample.bindu').slice();
    // C.2: the Header frame at 10 keeps its u64 payload_len at 14..21; 0xff in byte 15 makes it run past the end.
    bytes[15]! ^= 0xff;
    const doc = await open(bytes);
    const strict = await catRead(doc, 'jsonl');
    expect(strict.output.length).toBe(0);
    expect(strict.error).toBeInstanceOf(DamagedDataError);
    const r = await catRead(doc, 'jsonl', true);
    expect(text(r.output)).toBe(readFileSync(fixture('bindu/sample.rows.jsonl'), 'utf8'));
    // The footer's section table: the next section after the Header starts with UserMeta at 130.
    expect(t.frames[1]).toMatchObject({ offset: 130, type: 0x80 });
    expect(r.outcome!.damage).toContainEqual(expect.objectContaining({ unit: 'unreadable frames', range: { offset: 10, length: 120 } }));
  });

  it('a footer whose section table no longer parses is scanned past, not a reason to refuse the file', async () => {
    const t = readJson<Truth>('bindu/sample.truth.json');
    const bytes = readFixture('bindu/sample.bindu').slice();
    // C.10: section 0's u64 first_offset sits at payload 120 + 8; its top byte 0x01 makes it pass 2^53.
    const at = t.footer.offset + 12 + 120 + 8 + 7;
    bytes[at]! ^= 0x01;
    const r = await catRead(await open(bytes), 'jsonl', true);
    expect(text(r.output)).toBe(readFileSync(fixture('bindu/sample.rows.jsonl'), 'utf8'));
    expect(r.outcome!.damage).toEqual([
      expect.objectContaining({ unit: `frame ${t.frames.length - 1} (Footer)`, range: { offset: t.footer.offset, length: 512 } }),
    ]);
  });

  it('a file cut right after a complete frame (no footer) gives every row and reports the missing footer', async () => {
    const bytes = readFixture('bindu/schemaless-int64-delta.bindu');
    const t = readJson<Truth>('bindu/schemaless-int64-delta.truth.json');
    const cut = bytes.slice(0, t.footer.offset);
    expect(await frameEnds(cut)).toContain(t.footer.offset);
    const r = await catRead(await open(cut), 'jsonl');
    expect(text(r.output)).toBe(readFileSync(fixture('bindu/schemaless-int64-delta.rows.jsonl'), 'utf8'));
    expect((r.error as DamagedDataError).damage).toMatchObject({
      unit: 'footer',
      code: 'truncated',
      detail: expect.stringContaining(`truncated at offset ${t.footer.offset}`),
    });
  });

  it('an unknown critical frame stops a strict read at its offset; salvage lists it and gives every row', async () => {
    // C.2 envelope by hand: type 0x09, version 1, flags 0 (SKIPPABLE clear), payload_len 3, payload 01 02 03, CRC.
    expect([...CRITICAL_FRAME.subarray(0, 15)]).toEqual([0x09, 1, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3]);
    const plain = await catRead(await open(await caseFile()), 'jsonl');
    const doc = await open(await caseFile([CRITICAL_FRAME]));
    const at = (await frameEnds(await caseFile()))[0]!; // right after the Header frame
    const strict = await catRead(doc, 'jsonl');
    expect(strict.output.length).toBe(0);
    expect(strict.error).toMatchObject({ offset: at, message: expect.stringContaining('critical and not understood') });
    const r = await catRead(doc, 'jsonl', true);
    expect(text(r.output)).toBe(text(plain.output));
    expect(r.outcome!.damage).toEqual([expect.objectContaining({ unit: 'frame 1 (reserved core type 0x09)', range: { offset: at, length: 19 } })]);
  });

  it('a describe-only column is left out by design: the other columns come out, the column is named, and it is not damage', async () => {
    const plain = rowsOf(text((await catRead(await open(await caseFile()), 'jsonl')).output));
    const doc = await open(await withDescribeOnlyColumn(await caseFile(), 'price'));
    const r = await catRead(doc, 'jsonl');
    expect(r.error).toBeUndefined();
    expect(rowsOf(text(r.output))).toEqual(plain.map(({ price: _, ...rest }) => rest));
    expect(r.outcome).toEqual({ damage: [], omissions: ['column price (codec LINDELTA): not decodable'] });
    const csv = await convertRead(doc.converters.find((c) => c.id === 'csv')!);
    expect(text(csv.output).split('\n')[1]).toBe('id,city');
  });
});

describe('Bindu row table shows damage as damage', () => {
  it('cells of a column whose frame fails its CRC show "damaged"; with SHOW_DAMAGED, the value decoded anyway, labelled', async () => {
    const t = readJson<Truth>('bindu/sample.truth.json');
    const seq = t.columns.find((c) => c.name === 'sensor.seq')!;
    const bytes = readFixture('bindu/sample.bindu').slice();
    bytes[seq.frame_offset + 68]! ^= 0x01; // the CRC's last byte: the values still decode
    const doc = await open(bytes);
    const table = doc.tables.find((x) => x.id === 'rows')!;
    expect(table.params).toEqual([SHOW_DAMAGED]);
    const cell = (rows: readonly { cells: readonly Cell[] }[]) => rows[0]!.cells[4];
    expect(cell(await table.page(0, 2))).toMatchObject({ text: 'damaged', mark: 'error' });
    const anyway = await table.withParams!({ [SHOW_DAMAGED.key]: true });
    expect(anyway.id).not.toBe(table.id);
    expect(cell(await anyway.page(0, 2))).toMatchObject({ text: 'damaged: 100', mark: 'error' });
    expect((await table.page(0, 2))[0]!.cells[1]).toMatchObject({ text: '1700000000000' });
  });
});

describe('Bindu structure tree in a file too large to check at open (> 8 MiB)', () => {
  /** The top rows, by frame offset: mark and the CRC-32C leaf's value (built afresh, as the engine's `top` does). */
  function frameRows(doc: FormatDocument): Map<number, { mark?: string; crc?: string }> {
    const rows = (doc.structure().children as StructNode[]).filter((n) => n.label.endsWith(' frame'));
    return new Map(rows.map((n) => [n.range!.offset, { mark: n.mark, crc: (n.children as StructNode[]).find((k) => k.label === 'CRC-32C')?.value }]));
  }

  it('marks a frame whose CRC fails once the first table page or verify has checked it, and computes no other frame at open', async () => {
    // A skippable padding frame of 8 MiB puts the file past the size whose CRCs are checked at open.
    const good = await caseFile([frame(0x09, 1, new Uint8Array(8 << 20))]);
    const c = await readContainer(new MemorySource(good));
    const price = c.columns.find((x) => x.name === 'price')!.frame;
    const padding = c.frames.find((f) => f.type === 0x09)!;
    const bytes = good.slice();
    bytes[price.offset + frameLength(price) - 1]! ^= 0x01; // the stored CRC's last byte: the payload is intact
    const stored = new DataView(bytes.buffer).getUint32(price.offset + frameLength(price) - 4, true);
    const crcText = (n: number) => `0x${n.toString(16).padStart(8, '0')}`;

    const doc = await open(bytes);
    expect([...frameRows(doc).values()].every((r) => r.mark !== 'error' && r.crc!.endsWith('(not checked)'))).toBe(true);
    await doc.tables.find((x) => x.id === 'rows')!.page(0, 2);
    const after = frameRows(doc);
    // The undamaged frame's CRC is its stored one with the flipped bit put back (the payload is untouched).
    expect(after.get(price.offset)).toEqual({ mark: 'error', crc: `${crcText(stored)} (mismatch (computed ${crcText((stored ^ 0x01000000) >>> 0)}))` });
    for (const col of c.columns.filter((x) => x.name !== 'price'))
      expect(after.get(col.frame.offset)).toEqual({ mark: undefined, crc: `${crcText(col.frame.storedCrc)} (ok)` });
    expect(after.get(padding.offset)!.crc, 'no whole-file pass').toMatch(/\(not checked\)$/);

    const verified = await open(bytes);
    for await (const check of verified.verify({})) void check;
    const rows = frameRows(verified);
    expect(rows.get(price.offset)!.mark).toBe('error');
    expect(rows.get(padding.offset)).toEqual({ mark: 'warn', crc: `${crcText(padding.storedCrc)} (ok)` });
  });
});

describe('Bindu cat reads the file once for its checks', () => {
  it('a sealed file past 8 MiB with a SHA-256 file checksum: the CRCs, Merkle leaves and checksum take one pass (each alone read it again)', async () => {
    const parts: Uint8Array[] = [];
    const opts = { chunkRows: 4, compressor: Codec.DEFLATE, seal: true, bloom: [], extraFrames: [frame(0x09, 1, new Uint8Array(8 << 20))] };
    await writeBindu(CASE_COLUMNS, opts, { write: async (b) => void parts.push(b.slice()) });
    const bytes = concatBytes(parts);
    const c = await readContainer(new MemorySource(bytes));
    expect(c.merkle?.leaves.length).toBeGreaterThan(c.frames.length / 2);
    expect(c.footer?.checksumAlgo).toBe(1);
    const mem = new MemorySource(bytes);
    let read = 0;
    const counting = { size: mem.size, read: (offset: number, length: number) => ((read += length), mem.read(offset, length)) };
    const doc = await binduHandler.open(counting, {});
    read = 0;
    const r = await catRead(doc, 'jsonl');
    expect(r.error).toBeUndefined();
    expect(rowsOf(text(r.output)).map((o) => o.id)).toEqual([...CASE_COLUMNS[0]!.values]);
    // The padding frame alone is 8 MiB: a second pass over it would pass 2 × 8 MiB; the decode reads only the small column frames.
    expect(read).toBeGreaterThanOrEqual(bytes.length - 512);
    expect(read).toBeLessThan(bytes.length * 1.1);
  });
});

describe('Bindu salvage below the frame: a chunk that does not decode', () => {
  it("a chunk whose bytes break its codec although its frame checks pass: strict stops; salvage nulls that chunk's rows only and lists them", async () => {
    const plain = await caseFile();
    const c = await readContainer(new MemorySource(plain));
    const id = c.columns.find((x) => x.name === 'id')!;
    expect(chainText(id.stages).endsWith('DEFLATE')).toBe(true);
    const chunk = id.chunks[1]!;
    const bytes = plain.slice();
    // RFC 1951 §3.2.3: the first byte's bits 1–2 are BTYPE; 0xff gives BTYPE 11, which is reserved (an error).
    bytes[chunk.blobOffset] = 0xff;
    const doc = await open(await resigned(bytes, id.frame.offset));
    const strict = await catRead(doc, 'jsonl');
    expect(strict.error).toBeInstanceOf(DamagedDataError);
    const r = await catRead(doc, 'jsonl', true);
    const want = rowsOf(text((await catRead(await open(plain), 'jsonl')).output));
    expect(rowsOf(text(r.output))).toEqual(want.map((row, i) => (i >= chunk.firstRow ? { ...row, id: null } : row)));
    expect(r.outcome!.damage).toEqual([
      expect.objectContaining({ unit: 'chunk 1 of column id', range: { offset: chunk.blobOffset, length: chunk.byteLength }, rows: { from: 4, count: 2 } }),
    ]);
  });
});

describe('Bindu byte streams and the chunk index under damage', () => {
  it('a byte stream: a flipped byte never changes cat --format raw or the bytes conversion without failing', async () => {
    const out: Uint8Array[] = [];
    const input = new TextEncoder().encode('Alice was beginning to get very tired of sitting by her sister on the bank.\n'.repeat(40));
    await bytesImporter.run(new MemorySource(input), { file: async () => ({ write: async (b) => void out.push(b.slice()) }) }, {}, {});
    const r = await flipsNeverPassSilently(concatBytes(out), 'alice.bindu', { maxPositions: 48 });
    expect(r.silent).toEqual([]);
    expect(r.caught).toBeGreaterThan(0);
  });

  it("the chunks table shows a damaged column's min and max as damaged", async () => {
    const t = readJson<Truth>('bindu/sample.truth.json');
    const seq = t.columns.find((c) => c.name === 'sensor.seq')!;
    const bytes = readFixture('bindu/sample.bindu').slice();
    bytes[seq.frame_offset + 68]! ^= 0x01;
    const rows = await (await open(bytes)).tables.find((x) => x.id === 'chunks')!.page(0, 10);
    const of = (name: string) => rows.filter((r) => r.cells[0] === name);
    expect(of('sensor.seq').map((r) => [r.cells[5], r.mark])).toEqual([[expect.objectContaining({ text: 'damaged' }), 'error']]);
    expect(of('ts').every((r) => r.mark === undefined && typeof r.cells[5] !== 'object')).toBe(true);
  });
});

describe('Bindu panels show no value read from a damaged frame', () => {
  it('the Bloom panel and the metadata panel name the damaged BloomIndex and UserMeta frames instead of their answers and values', async () => {
    const t = readJson<Truth>('bindu/sample.truth.json');
    // sample.truth.json: UserMeta (0x80) at 130, BloomIndex (0x05) at 614.
    const meta = t.frames.find((f) => f.type === 0x80)!;
    const bloom = t.frames.find((f) => f.type === 0x05)!;
    const bytes = readFixture('bindu/sample.bindu').slice();
    bytes[meta.offset + meta.frame_len - 6]! ^= 0x01;
    bytes[bloom.offset + bloom.frame_len - 6]! ^= 0x01;
    const doc = await open(bytes);
    const panel = async (id: string, params = {}) => {
      const d = await doc.panels!.find((p) => p.id === id)!.data(params);
      if (d.kind !== 'fields') throw new Error(d.kind);
      return d.groups;
    };
    expect(await panel('bloom', { filter: '0', value: 'info' })).toEqual([
      { title: 'Damaged', fields: [expect.objectContaining({ name: `BloomIndex frame at ${bloom.offset}`, mark: 'error' })] },
    ]);
    const userMeta = (await panel('metadata')).find((g) => g.title === 'UserMeta')!;
    expect(userMeta.fields).toEqual([
      expect.objectContaining({ name: `UserMeta frame at ${meta.offset}`, value: expect.stringContaining('damaged: CRC-32C'), mark: 'error' }),
    ]);
  });
});
