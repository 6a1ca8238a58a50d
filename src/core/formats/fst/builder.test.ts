import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listFixtures, readFixture } from '../../../../test/helpers/fixtures.js';
import { MemorySource, type ByteSource } from '../../io/byteSource.js';
import type { Check, OutputTarget, ScratchSpace, TaskContext } from '../../model.js';
import { FstBuilder, type WriteVersion } from './builder.js';
import { fstHandler } from './handler.js';
import { fstImporters, importText, type ImportOptions, type TextInput } from './importText.js';
import { compareBytes, escapeKey, parseKey } from './keyText.js';

/** An OutputTarget collecting bytes in memory. */
function memoryTarget(): OutputTarget & { bytes(): Uint8Array } {
  const chunks: Uint8Array[] = [];
  return {
    file: async () => ({ write: async (c) => void chunks.push(c.slice()) }),
    bytes: () => Uint8Array.from(chunks.flatMap((c) => [...c])),
  };
}

/** Scratch files in memory, counting how many were made. */
function memoryScratch(): ScratchSpace & { made: number } {
  const space = {
    made: 0,
    async create() {
      space.made++;
      const chunks: Uint8Array[] = [];
      return {
        write: async (c: Uint8Array) => void chunks.push(c.slice()),
        finish: async (): Promise<ByteSource> => new MemorySource(Uint8Array.from(chunks.flatMap((c) => [...c]))),
      };
    },
  };
  return space;
}

const text = (s: string) => new MemorySource(new TextEncoder().encode(s));

async function importString(s: string, input: TextInput, opts: Partial<ImportOptions> = {}, ctx: TaskContext = {}): Promise<Uint8Array> {
  const target = memoryTarget();
  await importText(text(s), input, { kind: 'map', version: 3, duplicates: 'error', ...opts }, target, ctx);
  return target.bytes();
}

async function cat(bytes: Uint8Array): Promise<string> {
  const doc = await fstHandler.open(new MemorySource(bytes), {});
  const chunks: Uint8Array[] = [];
  await doc.cat!.run('tsv', {}, { write: async (c) => void chunks.push(c.slice()) }, {});
  return new TextDecoder().decode(Uint8Array.from(chunks.flatMap((c) => [...c])));
}

async function checks(bytes: Uint8Array): Promise<Check[]> {
  const out: Check[] = [];
  for await (const c of (await fstHandler.open(new MemorySource(bytes), {})).verify({})) out.push(c);
  return out;
}

describe('TSV → fst reproduces every reference file byte for byte', () => {
  const files = listFixtures('fst', ['.fst']).filter((f) => !f.includes('/corrupt/'));

  it.each(files.map((f) => [f]))('%s', async (file) => {
    const m = /([^/]+)\.(map|set)\.(fst|vellum)(\d)\.fst$/.exec(file)!;
    const tsv = readFixture(`fst/${m[1]}.${m[2]}.tsv`);
    const importer = fstImporters.find((i) => i.accepts.includes('.tsv'))!;
    const target = memoryTarget();
    await importer.run(new MemorySource(tsv), target, {}, { kind: m[2]!, version: m[4]! });
    expect(Buffer.from(target.bytes()).equals(Buffer.from(readFixture(file)))).toBe(true);
  });

  it('rewrites wide.map v3 as v1 (vellum) and v2 exactly as those producers wrote it', async () => {
    const doc = await fstHandler.open(new MemorySource(readFixture('fst/wide.map.fst3.fst')), {});
    const fst = doc.converters.find((c) => c.id === 'fst')!;
    for (const [version, file] of [
      ['1', 'fst/wide.map.vellum1.fst'],
      ['2', 'fst/wide.map.fst2.fst'],
    ] as const) {
      const target = memoryTarget();
      await fst.run(target, {}, { version });
      expect(Buffer.from(target.bytes()).equals(Buffer.from(readFixture(file))), file).toBe(true);
    }
  });
});

describe('text inputs', () => {
  const small = new TextDecoder().decode(readFixture('fst/small.map.tsv'));
  const reference = readFixture('fst/small.map.fst3.fst');

  it('CSV and JSON lines give the same bytes as TSV for the same keys', async () => {
    const doc = await fstHandler.open(new MemorySource(reference), {});
    const chunks: Uint8Array[] = [];
    await doc.cat!.run('jsonl', {}, { write: async (c) => void chunks.push(c.slice()) }, {});
    const jsonl = new TextDecoder().decode(Uint8Array.from(chunks.flatMap((c) => [...c])));
    expect(Buffer.from(await importString(jsonl, 'jsonl')).equals(Buffer.from(reference))).toBe(true);
    // CSV carries raw bytes: only keys that are valid UTF-8 text survive a JS string, so build one from the UTF-8 keys.
    const rows = small
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => l.split('\t') as [string, string])
      .filter(([k]) => !/\\x(8|9|a|b|f)/.test(k));
    const csv = rows.map(([k, v]) => `"${new TextDecoder().decode(parseKey(k)).replace(/"/g, '""')}",${v}`).join('\r\n');
    const tsv = rows.map(([k, v]) => `${k}\t${v}`).join('\n');
    expect(Buffer.from(await importString(csv, 'csv')).equals(Buffer.from(await importString(tsv, 'tsv')))).toBe(true);
  });

  it('unsorted input is sorted with bounded memory, spilling runs to scratch files', async () => {
    const lines = small.replace(/\n$/, '').split('\n');
    const shuffled = [...lines].reverse().join('\n');
    const scratch = memoryScratch();
    const bytes = await importString(shuffled, 'tsv', { sortBudget: 600 }, { scratch });
    expect(scratch.made).toBeGreaterThan(2);
    expect(Buffer.from(bytes).equals(Buffer.from(reference))).toBe(true);
    await expect(importString(shuffled, 'tsv', { sortBudget: 600 })).rejects.toThrow(/sort it first/);
  });

  it('merges repeated keys as asked, and refuses them by default', async () => {
    const input = 'b\t5\na\t1\nb\t3\nb\t9\n';
    await expect(importString(input, 'tsv')).rejects.toThrow(/appears more than once/);
    for (const [policy, value] of [
      ['first', '5'],
      ['last', '9'],
      ['min', '3'],
      ['max', '9'],
    ] as const) {
      expect(await cat(await importString(input, 'tsv', { duplicates: policy })), policy).toBe(`a\t1\nb\t${value}\n`);
    }
    expect(await cat(await importString('x\nb\nx\n', 'lines', { kind: 'set' }))).toBe('b\t0\nx\t0\n');
  });

  it('names the line of a bad value or key', async () => {
    await expect(importString('a\t1\nb\t18446744073709551616\n', 'tsv')).rejects.toMatchObject({ offset: 4, field: 'line' });
    await expect(importString('a\\q\t1\n', 'tsv')).rejects.toThrow(/backslash/);
    await expect(importString('{"key":"a","value":9007199254740993}\n', 'jsonl')).rejects.toThrow(/decimal strings/);
  });
});

describe('builder round trips (property-based)', () => {
  const entries = fc.uniqueArray(fc.record({ key: fc.uint8Array({ maxLength: 12 }), value: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }) }), {
    selector: (e) => escapeKey(e.key),
    maxLength: 120,
  });

  it('any sorted map, any version: reads back identically, verifies, and every key is found', async () => {
    await fc.assert(
      fc.asyncProperty(entries, fc.constantFrom<WriteVersion>(1, 2, 3), async (list, version) => {
        const sorted = [...list].sort((a, b) => compareBytes(a.key, b.key));
        const b = new FstBuilder(version);
        for (const e of sorted) b.insert(e.key, e.value);
        const bytes = Uint8Array.from([...b.takeBytes(), ...b.finish()]);
        expect(await cat(bytes)).toBe(sorted.map((e) => `${escapeKey(e.key)}\t${e.value}\n`).join(''));
        const found = await checks(bytes);
        expect(found.filter((c) => c.status === 'fail' || c.status === 'warn')).toEqual([]);
        const doc = await fstHandler.open(new MemorySource(bytes), {});
        const get = doc.searches!.find((s) => s.id === 'get')!;
        for (const e of sorted.slice(0, 10)) {
          const rows: unknown[] = [];
          await get.run({ key: escapeKey(e.key) }, {}, (r) => rows.push(...r.map((x) => x.cells[1])));
          expect(rows).toEqual([e.value]);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('keys out of order and repeated map keys are refused with the key named', () => {
    const b = new FstBuilder(3);
    b.insert(Uint8Array.of(2), 1n);
    expect(() => b.insert(Uint8Array.of(1), 1n)).toThrow(/must be sorted/);
    expect(() => b.insert(Uint8Array.of(2), 1n)).toThrow(/duplicate key \\x02/);
  });
});
