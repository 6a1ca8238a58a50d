/**
 * Builds dataviews in memory for tests and benchmarks: the shapes no real ML.NET fixture has
 * (vectors with data, KeyValues, hidden columns, several blocks per column, stored blocks, the
 * 1.1.1.6 load names of Boolean, DateTime, DateTimeOffset and row ids).
 */
import { MemorySource } from '../../io/byteSource.js';
import { concatBytes } from '../../io/bytes.js';
import type { ColumnType, ItemType, ScalarKind } from './columnType.js';
import { IdvFile } from './file.js';
import { readHeader, readToc } from './toc.js';
import type { Value } from './values.js';
import { IdvWriter, type WriterColumn, type WriterOptions } from './writer.js';

export const scalarType = (s: ScalarKind): ItemType => ({ kind: 'scalar', scalar: s });
export const vectorType = (item: ItemType, size: number): ColumnType => ({ kind: 'vector', item, dims: [size], size });
export const keyType = (count: number): ItemType => ({ kind: 'key', raw: 'u32', count: BigInt(count), min: 0n, legacy: false });

/** Writes rows (one array of values per column) as a dataview. */
export async function writeIdv(columns: readonly WriterColumn[], rows: readonly (readonly Value[])[], opts: WriterOptions): Promise<Uint8Array> {
  const writer = new IdvWriter(columns, opts);
  for (let from = 0; from < rows.length; from += opts.rowsPerBlock) {
    const slice = rows.slice(from, from + opts.rowsPerBlock);
    writer.addBlock(columns.map((_, c) => slice.map((r) => r[c]!)));
  }
  const parts: Uint8Array[] = [];
  await writer.finish(async (b) => void parts.push(b.slice()));
  return concatBytes(parts);
}

const COLORS = ['red', 'green', 'blue'];

/** A schema with every kind of column this reader supports, and `n` deterministic rows of it. */
export function everyKind(n: number): { columns: WriterColumn[]; rows: Value[][] } {
  const text = scalarType('text');
  const columns: WriterColumn[] = [
    { name: 'Label', type: scalarType('bool') },
    { name: 'Id', type: scalarType('rowid') },
    { name: 'When', type: scalarType('dt') },
    { name: 'Zone', type: scalarType('dz') },
    { name: 'Span', type: scalarType('ts') },
    { name: 'Name', type: text },
    { name: 'Small', type: scalarType('u8') },
    { name: 'Medium', type: scalarType('u16') },
    { name: 'Count', type: scalarType('u32') },
    { name: 'Big', type: scalarType('u64') },
    { name: 'Score', type: scalarType('f64') },
    { name: 'Color', type: keyType(3), metadata: [{ kind: 'KeyValues', type: vectorType(text, 3), value: { length: 3, values: COLORS } }] },
    {
      name: 'Dense',
      type: vectorType(scalarType('f32'), 4),
      metadata: [
        { kind: 'SlotNames', type: vectorType(text, 4), value: { length: 4, values: ['w', 'x', 'y', 'z'] } },
        { kind: 'IsNormalized', type: scalarType('bool'), value: true },
      ],
    },
    { name: 'Sparse', type: vectorType(scalarType('f64'), 6) },
    { name: 'Ragged', type: { kind: 'vector', item: scalarType('i32'), dims: [0], size: 0 } },
    { name: 'Tags', type: vectorType(keyType(3), 2) },
    // A hidden column: an earlier column with the name of a later one (keepHidden saves).
    { name: 'Name', type: scalarType('i16') },
  ];
  const rows: Value[][] = [];
  for (let i = 0; i < n; i++) {
    rows.push([
      i % 3 === 0,
      BigInt(i) * 0x1_0000_0001n + (BigInt(i) << 70n),
      633636000000000000n + BigInt(i) * 864_000_000_000n,
      { ticks: 633636000000000000n + BigInt(i), offsetMinutes: (i % 5) * 30 - 60 },
      BigInt(i - 2) * 36_000_000_001n,
      i % 4 === 0 ? '' : `row ${i} ✓ ${'x'.repeat(i % 7)}`,
      i % 256,
      (i * 257) % 65536,
      4_000_000_000 - i,
      (1n << 64n) - 1n - BigInt(i),
      i % 5 === 0 ? Number.NaN : i / 8 - 3.3,
      i % 4,
      { length: 4, values: [i, -i, i / 4, Math.fround(1 / (i + 1))] },
      i % 3 === 0 ? { length: 6, values: [1, 2, 3, 4, 5, i] } : { length: 6, indices: i % 3 === 1 ? [] : [1, 5], values: i % 3 === 1 ? [] : [i, -0.5] },
      { length: i % 3, values: Array.from({ length: i % 3 }, (_, k) => k * i) },
      { length: 2, values: [i % 4, (i + 1) % 4] },
      i - 20,
    ]);
  }
  return { columns, rows };
}

/** Opens bytes as an IdvFile (header and table of contents), below the document. */
export async function idvFile(bytes: Uint8Array): Promise<IdvFile> {
  const src = new MemorySource(bytes);
  const header = await readHeader(src);
  return new IdvFile(src, header, await readToc(src, header));
}

/** Makes a stored unit undecodable: a DEFLATE stream gets the reserved block type 11, a stored payload a count of 127. */
export function breakUnit(bytes: Uint8Array, offset: number, deflated: boolean): Uint8Array {
  const out = bytes.slice();
  out[offset] = deflated ? 0x07 : 0x7f;
  return out;
}

/** Block `b` of column `c`, made undecodable. */
export async function breakBlock(bytes: Uint8Array, c: number, b: number): Promise<{ bytes: Uint8Array; range: { offset: number; length: number } }> {
  const file = await idvFile(bytes);
  const col = file.columns[c]!.entry;
  const e = await file.blocks.lookup(col, b);
  return { bytes: breakUnit(bytes, e.offset, col.compression === 1), range: { offset: e.offset, length: e.storedLength } };
}
