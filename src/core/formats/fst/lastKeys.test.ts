import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, listFixtures, openFixture, readFixture } from '../../../../test/helpers/fixtures.js';
import { FormatError } from '../../errors.js';
import { MemorySource } from '../../io/byteSource.js';
import type { Row } from '../../model.js';
import { readLayout } from './header.js';
import { escapeKey } from './keyText.js';
import { lastKeys } from './lastKeys.js';
import { toDecimal } from './node.js';
import { fstHandler } from './handler.js';
import { FstReader } from './reader.js';

const handlerOpen = (bytes: Uint8Array) => fstHandler.open(new MemorySource(bytes), { name: 'x.fst' });

const truthLines = (file: string) => {
  const text = readFileSync(fixture(file.replace(/\.(fst|vellum)\d\.fst$/, '.tsv')), 'utf8');
  return text === '' ? [] : text.slice(0, -1).split('\n');
};

async function readerOf(file: string): Promise<FstReader> {
  const src = new MemorySource(readFixture(file));
  return new FstReader(src, await readLayout(src));
}

const files = listFixtures('fst', ['.fst']).filter((f) => !f.includes('/corrupt/'));

describe('keys from the end (walking the largest transitions first)', () => {
  it.each(files.map((f) => [f]))('%s: every tail slice equals the ground truth', async (file) => {
    const truth = truthLines(file);
    const reader = await readerOf(file);
    const n = truth.length;
    for (const [skip, take] of [
      [0, 1],
      [0, 20],
      [1, 3],
      [Math.floor(n / 2), 7],
      [Math.max(0, n - 5), 10],
      [n, 4],
    ] as const) {
      const keys = await lastKeys(reader, skip, take);
      const want = truth.slice(Math.max(0, n - skip - take), Math.max(0, n - skip));
      expect(
        keys.map((k) => `${escapeKey(k.key, k.key.length)}\t${toDecimal(k.hi, k.lo)}`),
        `skip ${skip} take ${take}`,
      ).toEqual(want);
    }
  });

  it('damaged files give a located FormatError, never a hang', async () => {
    for (const file of listFixtures('fst/corrupt', ['.fst'])) {
      let reader: FstReader;
      try {
        reader = await readerOf(file);
      } catch (e) {
        expect(e, file).toBeInstanceOf(FormatError);
        continue;
      }
      const got = await lastKeys(reader, 0, 1_000_000).catch((e: unknown) => e);
      if (got instanceof Error) expect(got, file).toBeInstanceOf(FormatError);
      else expect(Array.isArray(got), file).toBe(true);
    }
  });
});

describe('the keys table near its end', () => {
  const text = (rows: readonly Row[]) => rows.map((r) => `${r.cells[0]}\t${r.cells[1]}`);

  it('serves the last pages of the 300,000-key map, then pages forwards and backwards around them', async () => {
    const doc = await openFixture('fst/medium.map.fst3.fst');
    const truth = truthLines('fst/medium.map.fst3.fst');
    const table = doc.tables[0]!;
    for (const from of [299_950, 299_999, 290_000, 299_900, 0, 200_000, 299_960]) {
      expect(text(await table.page(from, 50)), `from ${from}`).toEqual(truth.slice(from, from + 50));
    }
  });

  it('counting indexes the keys once: pages anywhere stay right and a second count walks nothing', async () => {
    const doc = await openFixture('fst/medium.map.fst3.fst');
    const truth = truthLines('fst/medium.map.fst3.fst');
    const table = doc.tables[0]!;
    expect(table.countIndexes).toBe(true);
    let reports = 0;
    expect(await table.count!({ progress: () => void reports++ })).toBe(300_000);
    expect(reports).toBeGreaterThan(0);
    reports = 0;
    expect(await table.count!({ progress: () => void reports++ })).toBe(300_000);
    expect(reports).toBe(0);
    for (const from of [150_000, 1_023, 250_001, 77_777]) expect(text(await table.page(from, 30)), `from ${from}`).toEqual(truth.slice(from, from + 30));
  });

  it('walks forwards on version 1 files, whose footer may count repeated vellum keys', async () => {
    // A vellum map whose footer claims 3 keys more than it holds (as repeated inserts make it).
    const bytes = readFixture('fst/wide.map.vellum1.fst').slice();
    const truth = truthLines('fst/wide.map.vellum1.fst');
    const footer = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 16, 16);
    footer.setBigUint64(0, BigInt(truth.length + 3), true);
    const doc = await handlerOpen(bytes);
    const table = doc.tables[0]!;
    expect(table.rowCount().known).toBe(truth.length + 3);
    // Counted from the (wrong) end, these rows would be the last 10 keys; walked, they are the last 7.
    expect(text(await table.page(truth.length - 7, 10))).toEqual(truth.slice(-7));
  });
});
