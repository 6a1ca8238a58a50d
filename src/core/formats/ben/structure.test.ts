import { describe, expect, it } from 'vitest';
import { FormatError } from '../../errors.js';
import { MemorySource } from '../../io/byteSource.js';
import type { Check, FormatDocument } from '../../model.js';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { benHandler } from './handler.js';

async function open(path: string): Promise<FormatDocument> {
  return benHandler.open(new MemorySource(readFixture(path)), {});
}

const framesTable = (doc: FormatDocument) => doc.tables.find((t) => t.id === 'frames')!;

async function checks(path: string): Promise<Check[]> {
  const out: Check[] = [];
  for await (const c of (await open(path)).verify({})) out.push(c);
  return out;
}

/** Frames and expanded samples from ben/MANIFEST.md (made by the reference v0.3.0). */
const STREAMS: [string, string, number, number][] = [
  ['ben/v1_source.standard.ben', 'standard', 5, 5],
  ['ben/v1_source.mkv_chain.ben', 'mkv_chain', 4, 5],
  ['ben/grid4x4_chain.standard.ben', 'standard', 48, 48],
  ['ben/grid4x4_chain.mkv_chain.ben', 'mkv_chain', 37, 48],
  ['ben/edge_small_example.mkv_chain.ben', 'mkv_chain', 6, 6],
  ['ben/edge_small_example.standard.ben', 'standard', 6, 6],
  ['ben/independent/twodelta.ben', 'two_delta', 4, 5],
];

describe('BEN stream structure', () => {
  it.each(STREAMS)('%s: %s, %i frames, %i samples', async (file, variant, frames, samples) => {
    const doc = await open(file);
    expect(doc.info()).toMatchObject({ container: 'ben', variant, frames, samples, counted: true });
    expect((await checks(file)).filter((c) => c.status === 'fail')).toEqual([]);
    const rows = await framesTable(doc).page(0, 1000);
    expect(rows).toHaveLength(frames);
    expect(rows[0]!.range).toMatchObject({ offset: 17 });
  });

  it('a stream counted in the background: summary and the frames node say "not counted", then the final counts once the count ends', async () => {
    // 37 frames, 48 samples (the manifest) repeated 2 000 times after the banner: 1.1 MB, past
    // the size an open counts at once. MkvChain frames stand alone, so the copies are a valid stream.
    const one = readFixture('ben/grid4x4_chain.mkv_chain.ben');
    const big = new Uint8Array(17 + 2000 * (one.length - 17));
    big.set(one.subarray(0, 17));
    for (let i = 0; i < 2000; i++) big.set(one.subarray(17), 17 + i * (one.length - 17));
    const doc = await benHandler.open(new MemorySource(big), {});
    const shown = () => Object.fromEntries(doc.summary.filter((f) => f.name === 'frames' || f.name === 'samples').map((f) => [f.name, f.display]));
    const framesNode = () => {
      const children = doc.structure().children;
      return Array.isArray(children) ? children.find((c) => c.label === 'frames') : undefined;
    };
    const node = framesNode()!;
    expect(shown()).toEqual({ frames: 'not counted', samples: 'not counted' });
    expect(node.value).toBe('not counted');
    await framesTable(doc).count!({});
    expect(shown()).toEqual({ frames: String(37 * 2000), samples: String(48 * 2000) });
    // The node the viewer already holds reads its value when shown, so it is final too.
    expect(node.value).toBe('74000 frames, 96000 samples');
    expect(framesNode()!.value).toBe(node.value);
  });

  it('pages frames from any position without changing them', async () => {
    const doc = await open('ben/grid4x4_chain.mkv_chain.ben');
    const all = await framesTable(doc).page(0, 100);
    for (const from of [0, 5, 17, 36]) expect(await framesTable(doc).page(from, 3)).toEqual(all.slice(from, from + 3));
  });

  it('TwoDelta frames: snapshot, delta (pair 1/2, count 2), snapshot, delta (pair 2/1)', async () => {
    const rows = await framesTable(await open('ben/independent/twodelta.ben')).page(0, 10);
    expect(rows.map((r) => r.cells[2])).toEqual(['snapshot', 'delta', 'snapshot', 'delta']);
    expect(rows.map((r) => r.cells[6])).toEqual([1, 2, 1, 1]);
  });

  it('rejects an unknown banner at offset 0', async () => {
    const error = await open('ben/negative/bad_banner.standard.ben').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatError);
    expect(error).toMatchObject({ code: 'bad-magic', offset: 0, field: 'banner' });
  });

  it('reports the truncated frame 47 and keeps the 47 frames before it', async () => {
    const doc = await open('ben/negative/trunc_midframe.standard.ben');
    expect(doc.info()).toMatchObject({ frames: 47, samples: 47 });
    expect(await checks('ben/negative/trunc_midframe.standard.ben')).toContainEqual(expect.objectContaining({ status: 'fail', offset: 617 }));
  });

  it('rejects a repeat count of 0 with the offset of the count', async () => {
    expect(await checks('ben/negative/zero_count.mkv_chain.ben')).toContainEqual(
      expect.objectContaining({ status: 'fail', offset: 24, field: 'frame 0 count' }),
    );
  });
});

describe('XBEN container structure', () => {
  it.each(['ben/v1_source.standard.xben', 'ben/grid4x4_chain.mkv_chain.xben', 'ben/edge_small_example.mkv_chain.xben', 'ben/independent/twodelta.xben'])(
    '%s: one xz stream, one block, check None, CRC32s valid',
    async (file) => {
      const doc = await open(file);
      expect(doc.info()).toMatchObject({ container: 'xben', check: 'None', streams: 1, blocks: 1 });
      expect((await checks(file)).filter((c) => c.status === 'fail')).toEqual([]);
    },
  );

  it('knows the uncompressed size of the BEN32 body from the index (v1_source: 85 bytes)', async () => {
    expect((await open('ben/v1_source.standard.xben')).info()).toMatchObject({ uncompressedSize: 85n });
    expect((await open('ben/independent/twodelta.xben')).info()).toMatchObject({
      uncompressedSize: BigInt(readFixture('ben/independent/twodelta.xben.body').length),
    });
  });

  it('reports the missing index and footer of a truncated .xben', async () => {
    expect(await checks('ben/negative/trunc.mkv_chain.xben')).toContainEqual(expect.objectContaining({ status: 'fail', field: 'stream footer magic' }));
  });
});

describe('BENDL bundle structure', () => {
  it('older v1 layout (spec-derived, finalized): header, 3 assets, BEN stream, every CRC32C', async () => {
    const doc = await open('ben/spec-derived/spec_example_finalized.bendl');
    expect(doc.info()).toMatchObject({
      container: 'bendl',
      layout: 'older',
      finalized: true,
      assignmentFormat: 'ben',
      sampleCount: 5n,
      streamOffset: 0xff,
      streamLength: 53,
    });
    const assets = (doc.info() as { assets: { name: string; type: number; flags: number; offset: number; length: number }[] }).assets;
    expect(assets.map((a) => [a.name, a.type, a.flags])).toEqual([
      ['graph.json', 2, 7],
      ['metadata.json', 1, 5],
      ['notes.txt', 4, 4],
    ]);
    expect(assets[0]).toMatchObject({ offset: 0x40, length: 0x68 });
    const found = await checks('ben/spec-derived/spec_example_finalized.bendl');
    expect(found.filter((c) => c.status === 'fail')).toEqual([]);
    expect(found).toContainEqual(expect.objectContaining({ name: 'header checksum', status: 'warn' }));
    expect(found).toContainEqual(expect.objectContaining({ name: 'stream checksum', status: 'pass' }));
    expect(found).toContainEqual(expect.objectContaining({ name: 'sample count', status: 'pass' }));
  });

  it('older v1 layout, unfinalized: stream recovered from 0xff to EOF, no directory', async () => {
    const doc = await open('ben/spec-derived/spec_example_unfinalized.bendl');
    expect(doc.info()).toMatchObject({ layout: 'older', finalized: false, sampleCount: null, streamOffset: 0xff, streamLength: 53, assets: [] });
    expect(doc.info()).toMatchObject({ stream: { frames: 5, samples: 5 } });
    expect((await checks('ben/spec-derived/spec_example_unfinalized.bendl')).filter((c) => c.status === 'fail')).toEqual([]);
  });

  it('newest layout with the header tail (independent flags_set.bendl)', async () => {
    const doc = await open('ben/independent/flags_set.bendl');
    expect(doc.info()).toMatchObject({ layout: 'newest', finalized: true, assignmentFormat: 'xben', sampleCount: 5n, streamOffset: 390, streamLength: 104 });
    expect((doc.info() as { assets: unknown[] }).assets).toEqual([
      expect.objectContaining({ name: 'graph.json', flags: 7, offset: 72, length: 236 }),
      expect.objectContaining({ name: 'metadata.json', flags: 5, offset: 308, length: 82 }),
    ]);
    const found = await checks('ben/independent/flags_set.bendl');
    expect(found.filter((c) => c.status === 'fail')).toEqual([]);
    expect(found).toContainEqual(expect.objectContaining({ name: 'header checksum', status: 'pass' }));
  });

  it('a damaged header byte breaks the header checksum of a newest-layout bundle', async () => {
    const bytes = readFixture('ben/independent/flags_set.bendl').slice();
    bytes[56] = 6;
    const doc = await benHandler.open(new MemorySource(bytes), {});
    const found: Check[] = [];
    for await (const c of doc.verify({})) found.push(c);
    expect(found).toContainEqual(expect.objectContaining({ name: 'header checksum', status: 'fail', offset: 64 }));
  });
});
