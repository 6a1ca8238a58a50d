import { beforeAll, describe, expect, it } from 'vitest';
import { MemorySource, type ByteSource } from '../../io/byteSource.js';
import { yieldToEventLoop } from '../../io/scan.js';
import type { FormatDocument } from '../../model.js';
import { idvHandler } from './handler.js';
import { scalarType, writeIdv } from './testFiles.js';
import type { Value } from './values.js';
import { IdvWriter } from './writer.js';

/** Random access by block: a page in the middle of a million rows reads only its blocks. */

class CountingSource implements ByteSource {
  reads: { offset: number; length: number }[] = [];
  constructor(private readonly inner: ByteSource) {}
  get size() {
    return this.inner.size;
  }
  read(offset: number, length: number) {
    this.reads.push({ offset, length });
    return this.inner.read(offset, length);
  }
}

const ROWS = 1_000_100;
const RPB = 8192;

async function millionRows(): Promise<Uint8Array> {
  const writer = new IdvWriter(
    [
      { name: 'n', type: scalarType('i32') },
      { name: 'label', type: scalarType('text') },
    ],
    { rowsPerBlock: RPB, compression: 1 },
  );
  for (let from = 0; from < ROWS; from += RPB) {
    const n = Math.min(RPB, ROWS - from);
    const ints: Value[] = Array.from({ length: n }, (_, k) => from + k);
    writer.addBlock([ints, ints.map((v) => `r${v}`)]);
    // Let the test worker answer its runner while seconds of compression go by.
    await yieldToEventLoop();
  }
  const parts: Uint8Array[] = [];
  await writer.finish(async (b) => void parts.push(b));
  return Buffer.concat(parts);
}

describe('IDV paging', () => {
  let src: CountingSource;
  let doc: FormatDocument;
  beforeAll(async () => {
    src = new CountingSource(new MemorySource(await millionRows()));
    doc = await idvHandler.open(src, {});
  }, 120_000);

  it('opens from the header, the tail and the table of contents alone', () => {
    expect(src.reads.length).toBe(3);
    expect(src.reads.reduce((n, r) => n + r.length, 0)).toBeLessThan(512);
  });

  it('shows rows 1 000 000 – 1 000 050 from one lookup table read and one block per column', async () => {
    src.reads = [];
    const rows = await doc.tables[0]!.page(1_000_000, 51);
    expect(rows.map((r) => r.cells.slice(0, 3))).toEqual(Array.from({ length: 51 }, (_, k) => [1_000_000 + k, 1_000_000 + k, `r${1_000_000 + k}`]));
    // Per column: its lookup table, then block 122 (rows 999 424 – 1 007 615).
    expect(src.reads.length).toBe(4);
    const blockReads = src.reads.filter((r) => r.length !== 123 * 16);
    expect(blockReads.length).toBe(2);
    src.reads = [];
    await doc.tables[0]!.page(1_000_051, 20);
    expect(src.reads).toEqual([]);
  });

  it('reads two blocks per column for a page across a block boundary, and nothing for rows past the end', async () => {
    src.reads = [];
    const rows = await doc.tables[0]!.page(RPB * 3 - 2, 4);
    expect(rows.map((r) => r.cells[1])).toEqual([RPB * 3 - 2, RPB * 3 - 1, RPB * 3, RPB * 3 + 1]);
    expect(src.reads.length).toBe(4);
    expect(await doc.tables[0]!.page(ROWS, 10)).toEqual([]);
  });

  it('writes the same bytes for the same rows (deterministic block order)', async () => {
    const small = await writeIdv([{ name: 'n', type: scalarType('i32') }], [[1], [2], [3]], { rowsPerBlock: 2, compression: 1 });
    const again = await writeIdv([{ name: 'n', type: scalarType('i32') }], [[1], [2], [3]], { rowsPerBlock: 2, compression: 1 });
    expect(small).toEqual(again);
  });
});
