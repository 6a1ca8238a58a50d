import { describe, expect, it } from 'vitest';
import { openWith, verifyAll } from '../../../../test/helpers/documents.js';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { problems } from '../../../../test/helpers/hostile.js';
import { idvHandler } from './handler.js';
import { scalarType, vectorType, writeIdv } from './testFiles.js';
import { layoutOf, sixRows } from './twoColumns.testkit.js';

/** Damaged and unusual files: each finding says what is wrong and where. */

const checks = async (bytes: Uint8Array) => verifyAll(await openWith(idvHandler, bytes));

describe('IDV verify', () => {
  it('passes every shared fixture with no failure', async () => {
    for (const f of ['mlnet-testdata/datatypes.idv', 'mlnet-model-embedded/backcompat-SentimentModel__TransformerChain_Transform_001_TrainSchema.idv']) {
      expect((await checks(readFixture(`idv/${f}`))).filter((c) => c.status === 'fail')).toEqual([]);
    }
  });

  it('fails a block that inflates to fewer bytes than its lookup entry declares, naming the block', async () => {
    const bytes = await sixRows(1);
    const { columns } = await layoutOf(bytes);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    const entry = columns[0]!.lookupOffset;
    view.setInt32(entry + 12, view.getInt32(entry + 12, true) + 4, true);
    const found = problems(await checks(bytes));
    expect(found).toContainEqual(
      expect.objectContaining({ status: 'fail', name: 'column 0 (a)', offset: Number(view.getBigInt64(entry, true)), field: 'column 0 block 0' }),
    );
    expect(found.find((c) => c.field === 'column 0 block 0')?.detail).toMatch(/inflates to 12 bytes but the lookup table declares 16/);
  });

  it('fails corrupt DEFLATE data', async () => {
    const bytes = await sixRows(1);
    const { columns } = await layoutOf(bytes);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    const at = Number(view.getBigInt64(columns[1]!.lookupOffset, true));
    bytes.fill(0xff, at, at + 4);
    expect(problems(await checks(bytes))).toContainEqual(expect.objectContaining({ status: 'fail', name: 'column 1 (b)', offset: at }));
  });

  it("warns about bytes left after a block's values and about a block longer than declared", async () => {
    const payload = Uint8Array.of(1, 0, 0, 0, 9, 9);
    const bytes = await sixRows(0);
    const { columns } = await layoutOf(bytes);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    // Point block 1 of column a at a stored payload with two extra bytes, written over the block of column b.
    const bBlock = Number(view.getBigInt64(columns[1]!.lookupOffset, true));
    bytes.set(payload.subarray(0, 4), bBlock);
    const entry = columns[0]!.lookupOffset + 16;
    view.setBigInt64(entry, BigInt(bBlock), true);
    view.setInt32(entry + 8, 14, true);
    view.setInt32(entry + 12, 14, true);
    const found = problems(await checks(bytes));
    expect(found).toContainEqual(
      expect.objectContaining({ status: 'warn', name: 'column 0 (a)', detail: expect.stringMatching(/block 1: 2 bytes after the values/) }),
    );
    expect(found).toContainEqual(expect.objectContaining({ status: 'warn', name: 'regions', detail: expect.stringMatching(/overlaps/) }));
  });

  it('treats an unknown codec and the never-implemented zlib compression as unreadable columns (warnings, like ML.NET)', async () => {
    const bytes = await sixRows(1);
    const { columns } = await layoutOf(bytes);
    // "Int32" → "Int3X": an unknown load name of the same length.
    const nameAt = columns[0]!.codec.offset + 1;
    bytes[nameAt + 4] = 0x58;
    bytes[columns[1]!.offset + columns[1]!.length - 17 - 1] = 2;
    const doc = await openWith(idvHandler, bytes);
    expect(doc.warnings.map((w) => w.detail)).toEqual([expect.stringMatching(/unknown codec "Int3X"/), expect.stringMatching(/unknown compression 2 \(zlib/)]);
    const found = await checks(bytes);
    expect(found.filter((c) => c.status === 'fail')).toEqual([]);
    const page = await doc.tables[0]!.page(0, 1);
    expect(page[0]!.cells[1]).toMatchObject({ text: 'unreadable', mark: 'warn' });
  });

  it('fails a known codec whose parameters ML.NET refuses (a Key2 count beyond its raw type)', async () => {
    // schema-codec-test's column C is Key2<Byte, 11>: give it a count of 300.
    const keys = readFixture('idv/mlnet-testdata/schema-codec-test.idv').slice();
    const { columns } = await layoutOf(keys);
    const c = columns[2]!.codec;
    new DataView(keys.buffer).setBigUint64(c.paramOffset + c.paramLength - 8, 300n, true);
    const doc = await openWith(idvHandler, keys);
    expect(doc.warnings).toContainEqual(
      expect.objectContaining({ status: 'fail', detail: 'unreadable, and ML.NET refuses the file: key count 300 is outside 1 .. 255' }),
    );
    expect(problems(await checks(keys))).toEqual([expect.objectContaining({ status: 'fail', name: 'column 2 (C)', field: 'codec', offset: c.offset })]);
  });

  it('fails columns with different rows per block, as ML.NET refuses them', async () => {
    const bytes = await sixRows(0);
    const { columns } = await layoutOf(bytes);
    // rows per block is the LEB128 byte after the compression byte: 3 → 2 in column b.
    const rpbAt = columns[1]!.offset + columns[1]!.length - 17;
    expect(bytes[rpbAt]).toBe(3);
    bytes[rpbAt] = 2;
    expect(problems(await checks(bytes))).toContainEqual(expect.objectContaining({ status: 'fail', name: 'rows per block' }));
  });

  it('fails a wrong tail signature, a lookup table outside the file and a metadata offset outside the file', async () => {
    const bytes = await sixRows(0);
    const { header, columns } = await layoutOf(bytes);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    bytes[header.tailOffset] = 1;
    view.setBigInt64(columns[0]!.offset + columns[0]!.length - 16, 10n, true);
    view.setBigInt64(columns[1]!.offset + columns[1]!.length - 8, 1n << 40n, true);
    const found = problems(await checks(bytes));
    expect(found).toContainEqual(expect.objectContaining({ status: 'fail', name: 'tail signature', offset: header.tailOffset }));
    expect(found).toContainEqual(expect.objectContaining({ status: 'fail', field: 'lookup table offset' }));
    expect(found).toContainEqual(expect.objectContaining({ status: 'fail', field: 'metadata offset' }));
  });

  it('fails DateTime ticks and DateTimeOffset offsets .NET cannot represent', async () => {
    const bytes = await writeIdv(
      [
        { name: 'dt', type: scalarType('dt') },
        { name: 'dz', type: scalarType('dz') },
      ],
      [[4_000_000_000_000_000_000n, { ticks: 1n, offsetMinutes: 15 * 60 }]],
      { rowsPerBlock: 1, compression: 0 },
    );
    const found = problems(await checks(bytes));
    expect(found.map((c) => c.detail)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/DateTime ticks 4000000000000000000 are outside/),
        expect.stringMatching(/offset 900 minutes is beyond ±14 hours/),
      ]),
    );
  });

  it('warns when the table of contents does not end at the tail, and when bytes follow the tail', async () => {
    const bytes = await sixRows(0);
    const longer = new Uint8Array(bytes.length + 3);
    longer.set(bytes);
    const found = problems(await checks(longer));
    expect(found).toContainEqual(expect.objectContaining({ status: 'warn', name: 'file length', detail: expect.stringMatching(/^3 bytes after the tail/) }));
    const { header } = await layoutOf(bytes);
    const moved = new Uint8Array(bytes.length + 8);
    moved.set(bytes.subarray(0, header.tailOffset));
    moved.set(bytes.subarray(header.tailOffset), header.tailOffset + 8);
    new DataView(moved.buffer).setBigInt64(32, BigInt(header.tailOffset + 8), true);
    expect(problems(await checks(moved))).toContainEqual(
      expect.objectContaining({ status: 'warn', name: 'table of contents', detail: expect.stringMatching(/not at the tail/) }),
    );
  });

  it("fails a vector block whose items do not match its type's size, with the block named", async () => {
    const bytes = await writeIdv([{ name: 'v', type: vectorType(scalarType('f32'), 2) }], [[{ length: 2, values: [1, 2] }]], {
      rowsPerBlock: 1,
      compression: 0,
    });
    const { columns } = await layoutOf(bytes);
    const at = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigInt64(columns[0]!.lookupOffset, true));
    bytes[at + 4] = 3; // vector size 2 → 3
    expect(problems(await checks(bytes))).toContainEqual(expect.objectContaining({ status: 'fail', field: 'column 0 block 0 vector size', offset: at }));
  });

  it('shows a legacy key with min 1 (ML.NET refuses it today) and fails verify for it', async () => {
    const bytes = readFixture('idv/mlnet-model-embedded/termlookup_with_key__DataLoaderModel_Transform_000_DefaultMap.idv').slice();
    // Legacy Key parameters: inner codec, contiguous byte, u64 min, i32 count; min is 8 bytes after "UInt32" + its 0 length.
    const { columns } = await layoutOf(bytes);
    const inner = columns[1]!.codec.inner!;
    new DataView(bytes.buffer).setBigUint64(inner.offset + inner.length + 1, 1n, true);
    const doc = await openWith(idvHandler, bytes);
    expect((doc.info().columns as { type: string }[])[1]!.type).toBe('Key<UInt32, 1-5>');
    expect(problems(await checks(bytes))).toContainEqual(expect.objectContaining({ status: 'fail', detail: expect.stringMatching(/legacy key with min 1/) }));
    const page = await doc.tables[0]!.page(0, 1);
    expect(page[0]!.cells[2]).toMatchObject({ text: '1', title: 'raw value 1 = key 1' });
  });
});

describe('IDV versions before 1.1.1.4', () => {
  const rows = [
    [{ length: 3, values: [1, 2, 3] }, 7],
    [{ length: 3, indices: [1], values: [5] }, 8],
    [{ length: 3, values: [0, 0, 1] }, 9],
  ];

  /**
   * The same data with the TOC of 1.1.1.2 (no last field) or 1.1.1.3 (slot names offset, then
   * size and count when there are names), laid out by hand from spec §6.
   */
  async function oldVersion(minor: 2 | 3, names?: readonly [number, string][]): Promise<Uint8Array> {
    const bytes = await writeIdv(
      [
        { name: 'v', type: vectorType(scalarType('f32'), 3) },
        { name: 'n', type: scalarType('i32') },
      ],
      rows,
      { rowsPerBlock: 2, compression: 1 },
    );
    const { header, columns } = await layoutOf(bytes);
    const parts: number[] = [...bytes.subarray(0, header.tocOffset)];
    const i64 = (v: number) => [...new Uint8Array(BigInt64Array.of(BigInt(v)).buffer)];
    const area = names?.flatMap(([slot, name]) => [...new Uint8Array(Int32Array.of(slot).buffer), name.length, ...new TextEncoder().encode(name)]) ?? [];
    const areaAt = parts.length;
    parts.push(...area);
    const tocAt = parts.length;
    for (const [k, c] of columns.entries()) {
      parts.push(...bytes.subarray(c.offset, c.offset + c.length - 8));
      if (minor === 3)
        parts.push(...(k === 0 && names ? [...i64(areaAt), ...i64(area.length), ...new Uint8Array(Int32Array.of(names.length).buffer)] : i64(0)));
    }
    const tailAt = parts.length;
    parts.push(...bytes.subarray(header.tailOffset));
    const out = Uint8Array.from(parts);
    const view = new DataView(out.buffer);
    view.setUint16(8, minor, true);
    view.setUint16(16, minor, true);
    view.setBigInt64(24, BigInt(tocAt), true);
    view.setBigInt64(32, BigInt(tailAt), true);
    return out;
  }

  it.each([2, 3] as const)('reads the rows of a 1.1.1.%i file, which ML.NET refuses today', async (minor) => {
    const bytes = await oldVersion(minor);
    const doc = await openWith(idvHandler, bytes);
    expect((await doc.tables[0]!.page(0, 3)).map((r) => r.cells.slice(1))).toEqual([
      [{ text: '[3] 1, 2, 3' }, 7],
      [{ text: '[3, 1 stored] 1: 5' }, 8],
      [{ text: '[3] 0, 0, 1' }, 9],
    ]);
    const found = problems(await checks(bytes));
    expect(found).toEqual([
      expect.objectContaining({ status: 'fail', name: 'version', detail: `compatible version 1.1.1.${minor} is outside 1.1.1.4 – 1.1.1.6 (unsupported)` }),
    ]);
  });

  it('shows the slot names a 1.1.1.3 TOC stores as the SlotNames they became', async () => {
    const bytes = await oldVersion(3, [
      [0, 'first'],
      [2, 'third'],
    ]);
    const doc = await openWith(idvHandler, bytes);
    const expanded = await doc.tables[0]!.withParams!({ expand: '0' });
    expect(expanded.columns.slice(1, 4).map((c) => c.title)).toEqual(['first', 'v[1]', 'third']);
    expect(problems(await checks(bytes)).map((c) => c.name)).toEqual(['version']);
  });
});
