import { describe, expect, it } from 'vitest';
import { exercise, expectProblem, problems } from '../../../../test/helpers/hostile.js';
import { deflateRaw } from '../../codecs/deflate.js';
import { concatBytes } from '../../io/bytes.js';
import { MAX_BLOCK_BYTES } from './blocks.js';
import { layoutOf, sixRows } from './twoColumns.testkit.js';

/**
 * Hostile dataviews (../shared/specs/idv.md): lookup entries (spec §8: i64 block offset, i32
 * stored length, i32 inflated length, 16 bytes each) and lookup tables pointing outside the
 * file, into the header, into each other, or claiming huge blocks; a row count that implies
 * 2^50 lookup entries. Through open → pages → panels → verify → JSONL/CSV/TSV.
 */

/** Two columns (Int32 a, TextSpan b) of 6 rows in blocks of 3, DEFLATE-compressed, and where their parts are. */
async function small() {
  const bytes = await sixRows(1);
  const { columns } = await layoutOf(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  // Column 0's lookup table, and the TOC field holding its offset (i64, 16 bytes before the entry's end in 1.1.1.6).
  const lookup = columns[0]!.lookupOffset;
  const lookupField = columns[0]!.offset + columns[0]!.length - 16;
  return { bytes, view, lookup, lookupField, columns, block0: Number(view.getBigInt64(lookup, true)), stored0: view.getInt32(lookup + 8, true) };
}

const CONVERTERS = ['jsonl', 'csv', 'tsv'];

async function run(bytes: Uint8Array) {
  const o = await exercise(bytes, { name: 'x.idv' });
  expect(o.openError).toBeUndefined();
  return o;
}

/**
 * The column summary of column 0 stops with `want`; every conversion too, where the error is a
 * cap (not damage), else with block 0 of column a reported as a damaged unit at the same place.
 */
function failsAtBlock(o: Awaited<ReturnType<typeof run>>, want: { code: string; offset?: number; field: string; detail?: string }) {
  expect(o.panels.get('column-summary')).toEqual(expect.objectContaining(want));
  const unit = `block 0 of column 0 (a): ${want.field}: `;
  const damaged = {
    code: want.code,
    ...(want.offset === undefined ? {} : { offset: want.offset }),
    detail: want.detail === undefined ? expect.stringMatching(new RegExp(`^${unit.replace(/[()]/g, '\\$&')}`)) : `${unit}${want.detail}`,
  };
  const err =
    want.code === 'limit'
      ? expect.objectContaining(want)
      : expect.objectContaining({ ...damaged, damage: expect.objectContaining({ unit: 'block 0 of column 0 (a)' }) });
  for (const id of CONVERTERS) expect(o.converts.get(id), id).toEqual(err);
}

/** Verify fails column a's lookup table offset, at the TOC field that holds it when `offset` is given. */
function failsLookupTableOffset(o: Awaited<ReturnType<typeof run>>, detail: unknown, offset?: number) {
  expectProblem(o.verify, { status: 'fail', name: 'column 0 (a)', ...(offset === undefined ? {} : { offset }), field: 'lookup table offset', detail });
}

describe('IDV lookup entries pointing outside the file or into other regions', () => {
  it('a block offset past the end of the file: verify fails the entry, conversions stop at the block', async () => {
    const f = await small();
    f.view.setBigInt64(f.lookup, BigInt(f.bytes.length + 100), true);
    const o = await run(f.bytes);
    expectProblem(o.verify, { status: 'fail', name: 'column 0 (a)', offset: f.lookup, field: 'lookup entry' });
    failsAtBlock(o, { code: 'truncated', offset: f.bytes.length + 100, field: 'column 0 block 0' });
  });

  it('a negative block offset (i64 −1) is an out-of-range error, not a read before the file', async () => {
    const f = await small();
    f.view.setBigInt64(f.lookup, -1n, true);
    const o = await run(f.bytes);
    expectProblem(o.verify, { status: 'fail', offset: f.lookup, field: 'lookup entry', detail: expect.stringMatching(/at -1 are outside/) });
    failsAtBlock(o, { code: 'out-of-range', field: 'column 0 block 0', detail: `invalid range -1+${f.stored0}` });
  });

  it('a block inside the 256-byte header fails verify at its entry; reading it is a located DEFLATE error', async () => {
    const f = await small();
    f.view.setBigInt64(f.lookup, 0n, true);
    const o = await run(f.bytes);
    expectProblem(o.verify, { status: 'fail', offset: f.lookup, field: 'lookup entry', detail: expect.stringMatching(/at 0 are outside \[256, tail\]/) });
    failsAtBlock(o, { code: 'corrupt', offset: 0, field: 'column 0 block 0' });
  });

  it('a block pointing into its own lookup table: the overlap is reported at the block, and decoding fails there', async () => {
    const f = await small();
    f.view.setBigInt64(f.lookup, BigInt(f.lookup), true);
    const o = await run(f.bytes);
    expectProblem(o.verify, {
      status: 'warn',
      name: 'regions',
      offset: f.lookup,
      detail: expect.stringMatching(new RegExp(`column 0 \\(a\\) lookup table \\(${f.lookup} … ${f.lookup + 32}\\) overlaps column 0 \\(a\\) block 0`)),
    });
    failsAtBlock(o, { code: 'corrupt', offset: f.lookup, field: 'column 0 block 0' });
  });

  it('two blocks on the same bytes (column b block 0 re-pointed at column a block 0): an overlap warning, values read as the bytes say', async () => {
    const f = await small();
    const lookupB = f.columns[1]!.lookupOffset;
    f.view.setBigInt64(lookupB, BigInt(f.block0), true);
    f.view.setInt32(lookupB + 8, f.stored0, true);
    f.view.setInt32(lookupB + 12, f.view.getInt32(f.lookup + 12, true), true);
    const o = await run(f.bytes);
    expectProblem(o.verify, {
      status: 'warn',
      name: 'regions',
      offset: f.block0,
      detail: expect.stringMatching(/column 1 \(b\) block 0 .* overlaps column 0 \(a\) block 0|column 0 \(a\) block 0 .* overlaps column 1 \(b\) block 0/),
    });
    // Int32 bytes read as a TextSpan block do not decode: a located failure, never a crash.
    expectProblem(o.verify, { status: 'fail', name: 'column 1 (b)', offset: f.block0 });
  });
});

describe('IDV lookup tables claiming huge blocks or pointing elsewhere', () => {
  it('an inflated length of 2^31 − 1 is refused before inflating (limit at the block)', async () => {
    const f = await small();
    f.view.setInt32(f.lookup + 12, 0x7fffffff, true);
    const o = await run(f.bytes);
    const want = {
      code: 'limit',
      offset: f.block0,
      field: 'column 0 block 0',
      detail: `declares 2147483647 bytes after inflating, more than the ${MAX_BLOCK_BYTES} allowed`,
    };
    expectProblem(o.verify, { status: 'fail', name: 'column 0 (a)', offset: f.block0, field: 'column 0 block 0' });
    failsAtBlock(o, want);
  });

  it('an inflated length of 400 MiB (under the cap) for a 12-byte block fails as truncated, promptly', async () => {
    const f = await small();
    f.view.setInt32(f.lookup + 12, 400 << 20, true);
    const started = Date.now();
    const o = await run(f.bytes);
    failsAtBlock(o, {
      code: 'truncated',
      offset: f.block0,
      field: 'column 0 block 0',
      detail: `inflates to 12 bytes but the lookup table declares ${400 << 20}`,
    });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a real DEFLATE bomb (16 MiB from 16 KiB) declaring 12 bytes inflates no further than 13 bytes: the rows read, verify warns', async () => {
    const f = await small();
    // Block 0 of column a holds rows 1, 2, 3 (Int32 LE); the bomb holds them, then 16 MiB of zeros.
    const bomb = deflateRaw(concatBytes([Uint8Array.of(1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0), new Uint8Array(16 << 20)]), 9);
    expect(bomb.length).toBeLessThan(32 << 10);
    const bytes = concatBytes([f.bytes, bomb]);
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    view.setBigInt64(f.lookup, BigInt(f.bytes.length), true);
    view.setInt32(f.lookup + 8, bomb.length, true);
    view.setInt32(f.lookup + 12, 12, true);
    const o = await run(bytes);
    // The block lies after the tail (verify says so) and inflates past its declared length (ML.NET ignores the rest).
    expect(problems(o.verify)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 'fail', offset: f.lookup, field: 'lookup entry' }),
        expect.objectContaining({ status: 'warn', name: 'file length' }),
      ]),
    );
    expect(o.converts.has('csv')).toBe(false);
    const rows = await o.doc!.tables.find((t) => t.id === 'rows')!.page(0, 3);
    expect(rows.map((r) => r.cells[1])).toEqual([1, 2, 3]);
  });

  it('a stored length of 2^31 − 1 fails verify at its entry and reading at the block, without reading the file', async () => {
    const f = await small();
    f.view.setInt32(f.lookup + 8, 0x7fffffff, true);
    const o = await run(f.bytes);
    expectProblem(o.verify, { status: 'fail', offset: f.lookup, field: 'lookup entry', detail: expect.stringMatching(/2147483647 bytes at/) });
    failsAtBlock(o, { code: 'truncated', offset: f.block0, field: 'column 0 block 0' });
  });

  it('a lookup table offset past the end of the file fails verify at the TOC field and reading at the table', async () => {
    const f = await small();
    const to = f.bytes.length + 1000;
    f.view.setBigInt64(f.lookupField, BigInt(to), true);
    const o = await run(f.bytes);
    failsLookupTableOffset(o, `lookup table at ${to} (2 blocks) is outside [256, tail]`, f.lookupField);
    failsAtBlock(o, { code: 'truncated', offset: to, field: 'column 0 lookup table', detail: 'needs 32 bytes but the file ends after 0' });
    // The viewer shows the rows with column a marked damaged, and the reason.
    const [row] = await o.doc!.tables.find((t) => t.id === 'rows')!.page(0, 1);
    expect(row).toMatchObject({
      mark: 'error',
      cells: [0, { text: 'damaged', mark: 'error', title: expect.stringMatching(/column 0 lookup table at offset/) }, 'x'],
    });
  });

  it('a lookup table inside the header reads the signature as block offsets: each a located error', async () => {
    const f = await small();
    f.view.setBigInt64(f.lookupField, 0n, true);
    const o = await run(f.bytes);
    failsLookupTableOffset(o, 'lookup table at 0 (2 blocks) is outside [256, tail]', f.lookupField);
    // Entry 0 is the 8-byte signature "CML\0DVB\0" read as an i64 offset: past 2^53.
    failsAtBlock(o, { code: 'limit', offset: 0, field: 'block 0 offset' });
  });

  it('a row count of 2^50 with 3 rows per block (2^50 / 3 lookup entries) fails verify at once and pages far rows with a located error', async () => {
    const f = await small();
    // Header: i64 row count at offset 40.
    f.view.setBigInt64(40, 1n << 50n, true);
    const started = Date.now();
    const o = await run(f.bytes);
    failsLookupTableOffset(o, expect.stringMatching(/is outside \[256, tail\]/));
    // Row 2^49 lives in block 2^49 / 3, whose lookup entries lie far past the file: its cells say so.
    const rows = await o.doc!.tables.find((t) => t.id === 'rows')!.page(2 ** 49, 2);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      mark: 'error',
      cells: [
        2 ** 49,
        { text: 'damaged', title: expect.stringMatching(/column 0 lookup table .*needs 16384 bytes but the file ends after 0/) },
        { text: 'damaged' },
      ],
    });
    // Conversions stop where the first 1024-entry chunk of the lookup table leaves the file.
    failsAtBlock(o, {
      code: 'truncated',
      offset: f.lookup,
      field: 'column 0 lookup table',
      detail: `needs 16384 bytes but the file ends after ${f.bytes.length - f.lookup}`,
    });
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
