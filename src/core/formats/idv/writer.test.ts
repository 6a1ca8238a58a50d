import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/byteSource.js';
import type { Check } from '../../model.js';
import { IdvFile } from './file.js';
import { idvHandler } from './handler.js';
import { everyKind, scalarType, writeIdv } from './testFiles.js';
import { readHeader, readToc } from './toc.js';
import type { Value } from './values.js';
import { chooseRowsPerBlock } from './writer.js';

/**
 * Generated files: what no real ML.NET fixture has, written by our BinarySaver-compatible
 * writer, checked byte by byte against the spec where the layout is fixed, and read back.
 */

async function open(bytes: Uint8Array): Promise<IdvFile> {
  const src = new MemorySource(bytes);
  const header = await readHeader(src);
  return new IdvFile(src, header, await readToc(src, header));
}

async function allRows(file: IdvFile): Promise<Value[][]> {
  const w = await file.window(0, file.rowCount, 'modern');
  return Array.from({ length: w.count }, (_, r) =>
    file.columns.map((_, c) => {
      const got = w.value(c, r);
      if (got instanceof Error) throw got;
      return got.value;
    }),
  );
}

async function verify(bytes: Uint8Array): Promise<Check[]> {
  const doc = await idvHandler.open(new MemorySource(bytes), {});
  const found: Check[] = [];
  for await (const c of doc.verify({})) found.push(c);
  return found;
}

describe('IDV writer', () => {
  it('lays out the header, TOC entry, lookup table and tail as the spec says (checked by hand)', async () => {
    const bytes = await writeIdv([{ name: 'A', type: scalarType('i32') }], [[7], [8], [9]], { rowsPerBlock: 2, compression: 0 });
    const view = new DataView(bytes.buffer);
    expect([...bytes.subarray(0, 24)]).toEqual([0x43, 0x4d, 0x4c, 0, 0x44, 0x56, 0x42, 0, 6, 0, 1, 0, 1, 0, 1, 0, 6, 0, 1, 0, 1, 0, 1, 0]);
    expect(view.getBigInt64(40, true)).toBe(3n); // rows
    expect(view.getInt32(48, true)).toBe(1); // columns
    expect(bytes.subarray(52, 256).every((b) => b === 0)).toBe(true);
    // Blocks: rows 0–1 at 256 (8 bytes), row 2 at 264 (4 bytes), stored (compression 0).
    expect([...bytes.subarray(256, 268)]).toEqual([7, 0, 0, 0, 8, 0, 0, 0, 9, 0, 0, 0]);
    // Lookup table at 268: (offset i64, stored i32, inflated i32) per block.
    expect(view.getBigInt64(268, true)).toBe(256n);
    expect([view.getInt32(276, true), view.getInt32(280, true)]).toEqual([8, 8]);
    expect(view.getBigInt64(284, true)).toBe(264n);
    expect([view.getInt32(292, true), view.getInt32(296, true)]).toEqual([4, 4]);
    // TOC at 300: "A", "Int32", 0 parameter bytes, compression 0, 2 rows per block, lookup 268, no metadata.
    const tocOffset = Number(view.getBigInt64(24, true));
    expect(tocOffset).toBe(300);
    expect([...bytes.subarray(300, 311)]).toEqual([1, 0x41, 5, ...new TextEncoder().encode('Int32'), 0, 0, 2]);
    expect(view.getBigInt64(311, true)).toBe(268n);
    expect(view.getBigInt64(319, true)).toBe(0n);
    const tail = Number(view.getBigInt64(32, true));
    expect(tail).toBe(327);
    expect([...bytes.subarray(tail)]).toEqual([0, 0x42, 0x56, 0x44, 0, 0x4c, 0x4d, 0x43]);
    expect(bytes.length).toBe(tail + 8);
  });

  it('writes the Key2 and VBuffer codec parameters of spec §7', async () => {
    const { columns, rows } = everyKind(1);
    const bytes = await writeIdv(columns, rows, { rowsPerBlock: 1, compression: 1 });
    const file = await open(bytes);
    const color = file.columns[11]!.entry.codec;
    // Key2: inner codec "UInt32" (7 + 1 bytes) + u64 count = 16 parameter bytes.
    expect([color.loadName, color.paramLength, color.inner?.loadName, color.keyCount]).toEqual(['Key2', 16, 'UInt32', 3n]);
    const dense = file.columns[12]!.entry.codec;
    // VBuffer: inner "Single" (7 + 1) + i32 dim count + one i32 dim = 16.
    expect([dense.loadName, dense.paramLength, dense.inner?.loadName, dense.dims]).toEqual(['VBuffer', 16, 'Single', [4]]);
    expect(file.columns.map((c) => c.entry.codec.loadName).slice(0, 5)).toEqual(['Boolean', 'DataViewRowId', 'DateTime', 'DateTimeOffset', 'TimeSpan']);
  });

  it.each([
    ['DEFLATE blocks', 1 as const],
    ['stored blocks', 0 as const],
  ])('reads back every kind of column over many blocks, %s', async (_, compression) => {
    const { columns, rows } = everyKind(50);
    const bytes = await writeIdv(columns, rows, { rowsPerBlock: 8, compression });
    const file = await open(bytes);
    expect(file.columns.map((c) => c.entry.compression)).toEqual(columns.map(() => compression));
    expect(file.blocks.blocks(file.columns[0]!.entry)).toBe(7);
    expect(await allRows(file)).toEqual(rows);
    const found = await verify(bytes);
    expect(found.filter((c) => c.status !== 'pass' && c.status !== 'info')).toEqual([]);
  });

  it('keeps metadata compressed only where that is smaller, as BinarySaver does', async () => {
    const { columns, rows } = everyKind(3);
    const file = await open(await writeIdv(columns, rows, { rowsPerBlock: 3, compression: 1 }));
    const dense = await file.columnMetadata(12);
    // SlotNames payload: 16 bytes of vector header + 4 + 16 + 5 of TextSpan = 41 bytes raw, less deflated;
    // IsNormalized is a 1-byte payload that DEFLATE can only make longer.
    expect(dense.items.map((m) => [m.entry.kind, m.entry.compression, m.value])).toEqual([
      ['SlotNames', 1, { length: 4, values: ['w', 'x', 'y', 'z'] }],
      ['IsNormalized', 0, true],
    ]);
    expect(dense.items[0]!.entry.blockSize).toBeLessThan(41);
    expect(dense.items[1]!.entry.blockSize).toBe(1);
    expect(await file.metadataStrings(11, 'KeyValues')).toEqual(['red', 'green', 'blue']);
  });

  it('marks the earlier of two same-named columns hidden, as ML.NET does', async () => {
    const { columns, rows } = everyKind(2);
    const file = await open(await writeIdv(columns, rows, { rowsPerBlock: 2, compression: 1 }));
    expect(file.columns.filter((c) => c.shadowed).map((c) => c.entry.index)).toEqual([5]);
  });

  it('writes zero-row files with every lookup offset at 256, as ML.NET does', async () => {
    const { columns } = everyKind(0);
    const bytes = await writeIdv(columns, [], { rowsPerBlock: 1, compression: 1 });
    const file = await open(bytes);
    expect(file.rowCount).toBe(0);
    expect(file.columns.every((c) => c.entry.lookupOffset === 256)).toBe(true);
    expect((await verify(bytes)).filter((c) => c.status === 'fail')).toEqual([]);
  });

  it('chooses rows per block as BinarySaver does: the row count for small files, at most 8192, fewer for wide rows', () => {
    const narrow = [{ name: 'A', type: scalarType('f32') }];
    expect(chooseRowsPerBlock(narrow, 5)).toBe(5);
    expect(chooseRowsPerBlock(narrow, 0)).toBe(1);
    expect(chooseRowsPerBlock(narrow, 1_000_000)).toBe(8192);
    const wide = [{ name: 'V', type: { kind: 'vector' as const, item: scalarType('f32'), dims: [1_000_000], size: 1_000_000 } }];
    expect(chooseRowsPerBlock(wide, 1_000_000)).toBe(20);
  });
});
