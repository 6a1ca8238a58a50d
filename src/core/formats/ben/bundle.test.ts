import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BEN_BUNDLES } from '../../../../test/helpers/benFixtures.js';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { crc32c } from '../../codecs/crc32c.js';
import { CollectingLog } from '../../integrity.js';
import { MemorySource } from '../../io/byteSource.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { Check, FormatDocument, OutputTarget, TaskContext } from '../../model.js';
import { bundleHeader, directoryBytes } from './bendlWrite.js';
import { benHandler } from './handler.js';
import { MemorySink } from './testing.js';

const open = (bytes: Uint8Array) => benHandler.open(new MemorySource(bytes), {});

async function checks(doc: FormatDocument): Promise<Check[]> {
  const out: Check[] = [];
  for await (const c of doc.verify({})) out.push(c);
  return out;
}

/** Runs a converter into memory; files named in options come from `files`. */
async function convert(
  doc: FormatDocument,
  id: string,
  options: Record<string, string | number> = {},
  files: Record<string, Uint8Array> = {},
  ctx: TaskContext = {},
): Promise<Uint8Array> {
  const sink = new MemorySink();
  const target: OutputTarget = { file: async () => sink };
  const openPath = async (p: string): Promise<ByteSource> => new MemorySource(files[p] ?? readFixture(p));
  await doc.converters.find((c) => c.id === id)!.run(target, { ...ctx, openPath }, options);
  return sink.bytes();
}

async function cat(doc: FormatDocument): Promise<string> {
  const sink = new MemorySink();
  await doc.cat!.run('jsonl', {}, sink, {});
  return sink.text();
}

const text = (path: string) => new TextDecoder().decode(readFixture(path));

describe('BENDL writing (newest layout) and reading back', () => {
  it('rebuilds the independent flags_set.bendl: same header fields, same xz graph asset bytes, same plans', async () => {
    const ref = readFixture('ben/independent/flags_set.bendl');
    const assets = new MemorySink();
    const refDoc = await open(ref);
    await refDoc.converters.find((c) => c.id === 'assets')!.run({ file: async () => assets }, {}, {});
    const jsonl = await open(readFixture('ben/v1_source.standard.ben'));
    const graph = (await open(ref)).converters.find((c) => c.id === 'assets')!;
    const parts: Record<string, MemorySink> = {};
    await graph.run({ file: async (name) => (parts[name!] = new MemorySink()) }, {}, {});
    const out = await convert(
      jsonl,
      'bendl',
      { stream: 'xben', variant: 'standard', preset: 6, graph: 'g', metadata: 'm' },
      { g: parts['graph.json']!.bytes(), m: parts['metadata.json']!.bytes() },
    );
    // Assets start at 72 in both and the graph's xz bytes (preset 6, CRC64) are identical.
    expect(out.subarray(0, 13)).toEqual(ref.subarray(0, 13));
    expect(out.subarray(72, 390)).toEqual(ref.subarray(72, 390));
    const doc = await open(out);
    expect(doc.info()).toMatchObject({ layout: 'newest', finalized: true, assignmentFormat: 'xben', sampleCount: 5n, variant: 'standard' });
    expect((await checks(doc)).filter((c) => c.status !== 'pass')).toEqual([]);
    expect(await cat(doc)).toBe(text('ben/independent/source.jsonl'));
    // The header tail is the CRC32C of the header.
    expect(new DataView(out.buffer, out.byteOffset).getUint32(64, true)).toBe(crc32c(out.subarray(0, 64)));
  });

  it('every spec-derived and independent bundle decodes to its ground truth', async () => {
    for (const [file, truth] of BEN_BUNDLES) expect(await cat(await open(readFixture(file))), file).toBe(text(truth));
  });

  it('takes the sample count of a finalized bundle from its header, before any scan', async () => {
    const doc = await open(readFixture('ben/independent/flags_set.bendl'));
    expect(doc.tables.find((t) => t.id === 'samples')!.rowCount()).toEqual({ known: 5, complete: true });
  });

  it('round trips JSONL → BENDL (BEN and XBEN, every variant) → JSONL on random ensembles, with a custom asset', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.integer({ min: 0, max: 65535 }), { minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom('standard', 'mkv_chain', 'two_delta'),
        fc.constantFrom('ben', 'xben'),
        fc.uint8Array({ maxLength: 2000 }),
        async (plans, variant, stream, custom) => {
          const jsonl = plans.map((a, i) => `{"assignment":[${a.join(',')}],"sample":${i + 1}}\n`).join('');
          const importer = (await benHandler.importers!()).find((i) => i.id === 'bendl')!;
          const sink = new MemorySink();
          await importer.run(
            new MemorySource(new TextEncoder().encode(jsonl)),
            { file: async () => sink },
            { openPath: async () => new MemorySource(custom) },
            { stream, variant, preset: 0, assets: 'dir/extra.bin' },
          );
          const doc = await open(sink.bytes());
          expect(await cat(doc)).toBe(jsonl);
          expect((await checks(doc)).filter((c) => c.status === 'fail')).toEqual([]);
          const extracted: Record<string, MemorySink> = {};
          await doc.converters.find((c) => c.id === 'assets')!.run({ file: async (n) => (extracted[n!] = new MemorySink()) }, {}, {});
          expect(extracted['extra.bin']!.bytes()).toEqual(custom);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('recompresses a bundle BEN ↔ XBEN keeping its assets byte for byte', async () => {
    const src = await open(readFixture('ben/spec-derived/spec_example_finalized.bendl'));
    const x = await open(await convert(src, 'bendl', { stream: 'xben', preset: 1 }));
    expect(x.info()).toMatchObject({ assignmentFormat: 'xben', sampleCount: 5n });
    const back = await open(await convert(x, 'bendl', { stream: 'ben' }));
    expect(await cat(back)).toBe(text('ben/spec-derived/v1_source.jsonl'));
    const names = (d: FormatDocument) =>
      (d.info() as { assets: { name: string; flags: number; checksum: number }[] }).assets.map((a) => [a.name, a.flags, a.checksum]);
    expect(names(back)).toEqual(names(src));
    // The stream is the same BEN bytes the source embedded (Standard packing is deterministic).
    const stream = async (d: FormatDocument) => convert(d, 'stream');
    expect(await stream(back)).toEqual(await stream(src));
  });
});

describe('damage and recovery', () => {
  it('an unfinalized bundle: reported incomplete, 5 samples read to EOF, Recover writes a finalized bundle', async () => {
    const doc = await open(readFixture('ben/spec-derived/spec_example_unfinalized.bendl'));
    expect(doc.warnings).toContainEqual(expect.objectContaining({ name: 'finalized', status: 'warn' }));
    expect(doc.converters[0]!.id).toBe('recover');
    const rec = await open(await convert(doc, 'recover'));
    expect(rec.info()).toMatchObject({ layout: 'newest', finalized: true, sampleCount: 5n });
    expect(await cat(rec)).toBe(text('ben/spec-derived/v1_source.jsonl'));
  });

  it('a bundle cut mid-stream: the good prefix and every intact asset survive recovery; the original is untouched', async () => {
    const whole = readFixture('ben/spec-derived/spec_example_finalized.bendl');
    // Unfinalize the header and cut the last frame (7 bytes at 301) after 4 bytes: a crashed writer.
    const cut = whole.slice(0, 0xff + 53 - 3);
    cut[12] = 0;
    new DataView(cut.buffer).setBigInt64(56, -1n, true);
    new DataView(cut.buffer).setBigUint64(24, 0n, true);
    new DataView(cut.buffer).setBigUint64(32, 0n, true);
    const before = cut.slice();
    const doc = await open(cut);
    const found = await checks(doc);
    expect(found).toContainEqual(expect.objectContaining({ name: 'decode', status: 'fail', offset: 301, field: 'frame 4 header' }));
    // Recover is a salvage: run strict it stops at the cut frame; salvaging, it lists it.
    await expect(convert(doc, 'recover')).rejects.toMatchObject({ offset: 301, field: 'frame 4 header' });
    const log = new CollectingLog(true);
    const rec = await open(await convert(doc, 'recover', {}, {}, { integrity: log }));
    expect(await cat(rec)).toBe(text('ben/v1_source.jsonl').split('\n').slice(0, 4).join('\n') + '\n');
    expect(log.damage).toEqual([expect.objectContaining({ unit: 'frame 4', offset: 301, rows: { from: 5, count: undefined } })]);
    expect(cut).toEqual(before);
  });

  it('a damaged asset fails its CRC in verify and is left out of a recovery', async () => {
    const bytes = readFixture('ben/spec-derived/spec_example_finalized.bendl').slice();
    bytes[0x40 + 0x68 + 3]! ^= 1; // inside metadata.json, right after the graph
    const doc = await open(bytes);
    expect(await checks(doc)).toContainEqual(expect.objectContaining({ name: 'asset metadata.json', status: 'fail' }));
    const log = new CollectingLog(true);
    const recovered = await convert(doc, 'recover', {}, {}, { integrity: log });
    expect(log.damage).toEqual([expect.objectContaining({ unit: 'asset metadata.json', code: 'checksum', offset: 0x40 + 0x68 })]);
    expect(await cat(await open(recovered))).toBe(text('ben/spec-derived/v1_source.jsonl'));
    expect((await open(recovered)).info()).toMatchObject({
      assets: [expect.objectContaining({ name: 'graph.json' }), expect.objectContaining({ name: 'notes.txt' })],
    });
  });

  it('a wrong sample count in a finalized header fails against the decoded count', async () => {
    const bytes = readFixture('ben/spec-derived/spec_example_finalized.bendl').slice();
    bytes[56] = 6;
    expect(await checks(await open(bytes))).toContainEqual(expect.objectContaining({ name: 'sample count', status: 'fail', offset: 56 }));
  });
});

describe('appended bundles (spec §6: assets after the stream, an orphaned old directory)', () => {
  it('reads through the header: the appended asset is found, the old directory is shown as unreferenced bytes', async () => {
    const importer = (await benHandler.importers!()).find((i) => i.id === 'bendl')!;
    const sink = new MemorySink();
    await importer.run(
      new MemorySource(readFixture('ben/v1_source.jsonl')),
      { file: async () => sink },
      { openPath: async () => new MemorySource(readFixture('ben/grid4x4_graph.json')) },
      { graph: 'g', variant: 'standard' },
    );
    const base = sink.bytes();
    const doc = await open(base);
    const info = doc.info() as {
      assets: { name: string; type: number; flags: number; offset: number; length: number; checksum: number }[];
      streamOffset: number;
      streamLength: number;
    };
    const oldDirEnd = base.length;
    // What `bendl append` does: the payload after the old directory, a whole new directory, then the header.
    const extra = new TextEncoder().encode('trailing custom asset');
    const entries = [
      ...info.assets.map((a) => ({ name: a.name, type: a.type, flags: a.flags, offset: a.offset, length: a.length, crc: a.checksum })),
      { name: 'extra.bin', type: 4, flags: 0x84, offset: oldDirEnd, length: extra.length, crc: crc32c(extra) },
    ];
    const dir = directoryBytes(entries);
    const header = bundleHeader({
      finalized: true,
      format: 'ben',
      flags: 1 | 2, // bit1 is reserved: readers ignore it
      streamChecksum: new DataView(base.buffer, base.byteOffset).getUint32(20, true),
      directoryOffset: oldDirEnd + extra.length,
      directoryLength: dir.length,
      streamOffset: info.streamOffset,
      streamLength: info.streamLength,
      sampleCount: 5n,
    });
    const appended = new Uint8Array(oldDirEnd + extra.length + dir.length);
    appended.set(base);
    appended.set(header, 0);
    appended.set(extra, oldDirEnd);
    appended.set(dir, oldDirEnd + extra.length);
    const doc2 = await open(appended);
    const found = await checks(doc2);
    expect(found.filter((c) => c.status === 'fail')).toEqual([]);
    const oldDir = info.streamOffset + info.streamLength;
    expect(found).toContainEqual(expect.objectContaining({ name: 'unreferenced bytes', offset: oldDir }));
    expect(found).toContainEqual(expect.objectContaining({ name: 'asset extra.bin', status: 'pass' }));
    expect(await cat(doc2)).toBe(text('ben/v1_source.jsonl'));
    const extracted: Record<string, MemorySink> = {};
    await doc2.converters.find((c) => c.id === 'assets')!.run({ file: async (n) => (extracted[n!] = new MemorySink()) }, {}, {});
    expect(new TextDecoder().decode(extracted['extra.bin']!.bytes())).toBe('trailing custom asset');
    const tree = doc2.structure().children as { label: string; range?: { offset: number } }[];
    expect(tree.find((n) => n.label === 'unreferenced bytes')?.range?.offset).toBe(oldDir);
  });
});
