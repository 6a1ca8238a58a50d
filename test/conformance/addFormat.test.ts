import { describe, expect, it } from 'vitest';
import { convertersOf } from '../../src/core/dump.js';
import { FormatError } from '../../src/core/errors.js';
import { BinReader } from '../../src/core/io/binReader.js';
import { MemorySource, type ByteSource } from '../../src/core/io/byteSource.js';
import type { FormatDocument, FormatHandler, Importer } from '../../src/core/model.js';
import { openDocument } from '../../src/core/open.js';
import { catDocument, convertDocument } from '../../src/core/ops/read.js';
import { detect, handlers, importersFor, probe } from '../../src/core/registry.js';
import { memoryTarget } from '../helpers/documents.js';
import { claimedExtensions, familiesWithoutFixtures, menuClauses, viewerExtensions } from '../helpers/families.js';

/**
 * DESIGN.md's "How to add a format", followed with a throwaway format: "tally" is the magic
 * "TALY", a u32le count and that many u32le values. Added to the handler list and nowhere else,
 * it must be detected, opened, printed by cat and dumped, offer its importer, and be named by
 * every family-list check that still wants a hand-written edit (package.json, fixtures).
 */
const MAGIC = [0x54, 0x41, 0x4c, 0x59]; // "TALY"

function tallyBytes(values: readonly number[], magic = MAGIC): Uint8Array {
  const out = new Uint8Array(8 + 4 * values.length);
  const view = new DataView(out.buffer);
  out.set(magic, 0);
  view.setUint32(4, values.length, true);
  values.forEach((v, i) => view.setUint32(8 + 4 * i, v, true));
  return out;
}

async function openTally(src: ByteSource): Promise<FormatDocument> {
  const r = new BinReader(await src.read(0, src.size));
  const magic = r.bytesOf(4, 'magic');
  if (!MAGIC.every((c, i) => magic[i] === c)) throw new FormatError('bad-magic', 'not "TALY"', { offset: 0, field: 'magic' });
  const count = r.u32le('count');
  const values = Array.from({ length: count }, (_, i) => r.u32le(`value ${i}`));
  return {
    format: 'tally',
    title: `tally of ${count}`,
    summary: [{ name: 'count', value: count, range: { offset: 4, length: 4 } }],
    warnings: [],
    structure: () => ({ label: 'tally', children: values.map((v, i) => ({ label: `value ${i}`, value: String(v), range: { offset: 8 + 4 * i, length: 4 } })) }),
    tables: [],
    converters: [],
    async *verify() {},
    cat: {
      formats: ['jsonl'],
      async run(_format, range, out) {
        const from = range.from ?? 0;
        for (const v of values.slice(from, from + (range.count ?? values.length))) await out.write(new TextEncoder().encode(`{"value":${v}}\n`));
      },
    },
    info: () => ({ count }),
    coverage: async () => ({ parts: [{ part: 'values', check: null, ranges: [{ offset: 0, length: src.size }] }] }),
  };
}

/** Decimal lines to a tally file. */
const tallyImporter: Importer = {
  id: 'tally',
  label: 'Tally',
  extension: '.tally',
  output: 'file',
  accepts: ['.tallytxt'],
  async run(src, target) {
    const lines = new TextDecoder()
      .decode(await src.read(0, src.size))
      .split('\n')
      .filter((l) => l !== '');
    await (await target.file()).write(tallyBytes(lines.map(Number)));
    return { summary: `${lines.length} values` };
  },
};

const tallyHandler = {
  id: 'tally' as const,
  label: 'Tally (a throwaway test format)',
  extensions: ['.tally'],
  sniff: (p) => (MAGIC.every((c, i) => p.head[i] === c) ? 'yes' : 'no'),
  open: (src) => openTally(src),
  importers: async () => [tallyImporter],
} satisfies FormatHandler;

const withTally: readonly FormatHandler[] = [...handlers, tallyHandler];
const sample = tallyBytes([7, 300, 65536]);

async function opened(bytes: Uint8Array, name: string, format?: string): Promise<FormatDocument> {
  const outcome = await openDocument(new MemorySource(bytes), { name, format, handlers: withTally });
  if (outcome.kind !== 'opened') throw new Error(outcome.reason);
  expect(outcome.handler).toBe(tallyHandler);
  return outcome.doc;
}

describe('a format added to the handler list alone', () => {
  it('is detected by its content, and by nothing else', async () => {
    const p = await probe(new MemorySource(sample), 'data.bin');
    expect(detect(p, withTally).map((d) => [d.handler.id, d.verdict])).toEqual([['tally', 'yes']]);
    expect(detect(p)).toEqual([]);
  });

  it('opens by content under any name, and with --as', async () => {
    expect((await opened(sample, 'data.bin')).format).toBe('tally');
    expect((await opened(sample, 'data.bin', 'tally')).title).toBe('tally of 3');
  });

  it('a damaged file named with its extension gets its reader’s located error', async () => {
    const badMagic = await openDocument(new MemorySource(tallyBytes([1], [0x54, 0x41, 0x4c, 0x58])), { name: 'x.tally', handlers: withTally });
    expect(badMagic).toMatchObject({ kind: 'unrecognised', handler: tallyHandler, error: { code: 'bad-magic', offset: 0, field: 'magic' } });
    // count 3 but one value: the second value would start at 4 (magic) + 4 (count) + 4 = 12.
    const truncated = await openDocument(new MemorySource(sample.subarray(0, 12)), { name: 'x.tally', handlers: withTally });
    expect(truncated).toMatchObject({ kind: 'unrecognised', error: { code: 'truncated', offset: 12, field: 'value 1' } });
  });

  it('cat through ops/read.ts prints the range of values asked for', async () => {
    const target = memoryTarget();
    const read = await catDocument(await opened(sample, 'a.tally'), 'jsonl', { from: 1, count: 2 }, await target.file(), {});
    expect(new TextDecoder().decode(target.files.get(''))).toBe('{"value":300}\n{"value":65536}\n');
    expect(read).toEqual({ damage: [], omissions: [] });
  });

  it('gets the dump converter every document has', async () => {
    const doc = await opened(sample, 'a.tally');
    const dump = convertersOf(doc, 'a.tally', sample.length).find((c) => c.id === 'dump')!;
    const target = memoryTarget();
    await convertDocument(dump, {}, {}, (run) => run(target));
    const text = new TextDecoder().decode(target.files.get(''));
    for (const line of ['value 0', '65536', 'tally']) expect(text).toContain(line);
  });

  it('offers its importer for its input extension', async () => {
    // Other families' importers of any file (`*`) are offered too; only this one is new.
    const ids = async (list?: readonly FormatHandler[]) => (await importersFor('numbers.tallytxt', list)).map((c) => `${c.handler.id}/${c.importer.id}`);
    expect(await ids(withTally)).toEqual([...(await ids()), 'tally/tally']);
    const target = memoryTarget();
    await tallyImporter.run(new MemorySource(new TextEncoder().encode('7\n300\n65536\n')), target, {}, {});
    expect(target.files.get('')).toEqual(sample);
  });

  it('is named by the family-list checks that still want an edit by hand', () => {
    const claimed = claimedExtensions(withTally);
    expect(claimed).toContain('.tally');
    expect(viewerExtensions()).not.toContain('.tally');
    expect(viewerExtensions()).not.toEqual(claimed);
    for (const c of menuClauses()) expect(c.extensions, c.when).not.toEqual(claimed);
    expect(familiesWithoutFixtures(withTally)).toEqual(['tally']);
  });
});
