import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fixture, readFixture } from '../../../../test/helpers/fixtures.js';
import { catRead, convertRead, flipsNeverPassSilently } from '../../../../test/helpers/integrity.js';
import { twoBlockXben } from '../../../../test/helpers/xben.js';
import { readXzLayout } from '../../codecs/xz/container.js';
import { SHOW_DAMAGED } from '../../integrity.js';
import { MemorySource } from '../../io/byteSource.js';
import { isLazy, type Cell, type FormatDocument, type StructNode } from '../../model.js';
import { crc32c } from '../../codecs/crc32c.js';
import { bundleHeader } from './bendlWrite.js';
import { benHandler } from './handler.js';

const open = (bytes: Uint8Array) => benHandler.open(new MemorySource(bytes), {});
const lines = (path: string) => readFileSync(fixture(path), 'utf8').split('\n').slice(0, -1);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const flipped = (bytes: Uint8Array, at: number) => {
  const out = bytes.slice();
  out[at]! ^= 0xff;
  return out;
};

/** The top rows of the structure tree by label, as the engine reads them for the webview. */
const top = (doc: FormatDocument) => {
  const c = doc.structure().children;
  return new Map((Array.isArray(c) ? (c as StructNode[]) : []).map((n) => [n.label.replace(/ \(.*/, ''), { value: n.value, mark: n.mark, note: n.note }]));
};
const drain = async (doc: FormatDocument) => {
  for await (const _ of doc.verify({})) void _;
};

describe('a flipped byte in checked bytes never passes silently', () => {
  it.each(['ben/grid4x4_chain.mkv_chain.xben', 'ben/independent/twodelta.xben'])(
    '%s (check None: the xz CRC32s cover headers, index and footer)',
    async (file) => {
      const r = await flipsNeverPassSilently(readFixture(file), 'f.xben', { maxPositions: 24 });
      expect(r.silent).toEqual([]);
      expect(r.caught).toBeGreaterThan(0);
    },
  );

  it('an XBEN whose blocks carry CRC64 checks', async () => {
    const { bytes } = await twoBlockXben();
    const r = await flipsNeverPassSilently(bytes, 'f.xben', { maxPositions: 32 });
    expect(r.silent).toEqual([]);
    expect(r.caught).toBeGreaterThan(0);
  });

  it.each(['ben/independent/flags_set.bendl', 'ben/spec-derived/spec_example_finalized.bendl'])('%s (header, asset and stream CRC32Cs)', async (file) => {
    const r = await flipsNeverPassSilently(readFixture(file), 'f.bendl', { maxPositions: 32 });
    expect(r.silent).toEqual([]);
    expect(r.caught).toBeGreaterThan(0);
  });
});

describe('xz block checks: samples of a block leave only after its check passed', () => {
  it('a failed CRC64 in block 1: cat gives the samples wholly in block 0, none decoded from block 1 before its check', async () => {
    const { bytes, inFirst, secondCheck } = await twoBlockXben();
    const truth = lines('ben/grid4x4_chain.jsonl');
    expect(inFirst).toBeGreaterThan(0);
    expect(inFirst).toBeLessThan(truth.length);
    const r = await catRead(await open(flipped(bytes, secondCheck)), 'jsonl');
    // The data of block 1 decodes perfectly; only its check fails, at its end: nothing of it may have left.
    expect(text(r.output)).toBe(
      truth
        .slice(0, inFirst)
        .map((l) => `${l}\n`)
        .join(''),
    );
    expect(r.error).toMatchObject({ field: 'xz block 1', code: 'corrupt' });
  });

  it('salvage round trip: the samples out plus the damaged block account for every sample, and they are the first ones', async () => {
    const { bytes, inFirst, secondCheck, secondBlock } = await twoBlockXben();
    const truth = lines('ben/grid4x4_chain.jsonl');
    const doc = await open(flipped(bytes, secondCheck));
    const r = await catRead(doc, 'jsonl', true);
    expect(r.error).toBeUndefined();
    const out = text(r.output).split('\n').slice(0, -1);
    expect(out).toEqual(truth.slice(0, inFirst));
    expect(r.outcome!.damage).toEqual([expect.objectContaining({ unit: 'xz block 1', range: secondBlock, rows: { from: inFirst + 1, count: undefined } })]);
    // An XBEN's count is unknown past the damage: the rows left out run from `from` to the end.
    expect(out.length + (truth.length - r.outcome!.damage[0]!.rows!.from + 1)).toBe(truth.length);
    const converted = await convertRead(doc.converters.find((c) => c.id === 'jsonl')!, true);
    expect(text(converted.output)).toBe(
      `\n${truth
        .slice(0, inFirst)
        .map((l) => `${l}\n`)
        .join('')}`,
    );
  });

  it('the samples table shows the held-back samples as damaged, and their values only when asked, labelled', async () => {
    const { bytes, inFirst, secondCheck } = await twoBlockXben();
    const doc = await open(flipped(bytes, secondCheck));
    const table = doc.tables.find((t) => t.id === 'samples')!;
    const rows = await table.page(0, 100);
    expect(rows).toHaveLength(48);
    expect(rows[inFirst - 1]!.cells[1]).toBeTypeOf('number');
    expect(rows[inFirst]!.cells[0]).toBe(inFirst + 1);
    expect(rows[inFirst]!.cells[1]).toMatchObject({ text: 'damaged', mark: 'error' });
    const shown = await (await table.withParams!({ [SHOW_DAMAGED.key]: true })).page(inFirst, 1);
    expect((shown[0]!.cells[1] as Exclude<Cell, null | string | number | bigint | boolean>).text).toMatch(/^damaged: \d+$/);
  });

  it('verify marks the xz stream whose block check fails in the structure tree, not the other one', async () => {
    const { bytes, secondCheck } = await twoBlockXben();
    const doc = await open(flipped(bytes, secondCheck));
    const marks = () => [...top(doc)].map(([label, n]) => [label, n.mark]);
    expect(marks()).toEqual([
      ['stream 0', undefined],
      ['stream 1', undefined],
    ]);
    await drain(doc);
    expect(marks()).toEqual([
      ['stream 0', undefined],
      ['stream 1', 'error'],
    ]);
    expect(top(doc).get('stream 1')!.note).toMatch(/^xz block 1: /);
    const good = await open(bytes);
    await drain(good);
    expect([...top(good)].map(([, n]) => n.mark)).toEqual([undefined, undefined]);
  });

  it("below the top rows, the block whose check failed is marked, with its stream's blocks list; the other stream's block is not", async () => {
    const { bytes, secondCheck, secondBlock } = await twoBlockXben();
    const doc = await open(flipped(bytes, secondCheck));
    /** Stream `s`'s 'blocks' node and its block 0, as the tree loads them when expanded (built afresh). */
    const blockRows = async (s: number) => {
      const stream = (doc.structure().children as StructNode[]).find((n) => n.label === `stream ${s}`)!;
      const blocks = (stream.children as StructNode[]).find((n) => n.label === 'blocks')!;
      const c = blocks.children;
      const [block] = isLazy(c!) ? await c.load(0, 10) : (c as StructNode[]);
      return { blocks: blocks.mark, block: block!.mark, note: block!.note, range: block!.range };
    };
    expect(await blockRows(1)).toMatchObject({ blocks: undefined, block: undefined });
    await drain(doc);
    expect(await blockRows(0)).toMatchObject({ blocks: undefined, block: undefined });
    // The block is found by its bytes (the index's unpadded size), which hold the failed check.
    expect(await blockRows(1)).toEqual({ blocks: 'error', block: 'error', note: expect.stringMatching(/^xz block 1: /), range: secondBlock });
  });
});

describe('BENDL CRC32Cs', () => {
  const finalized = () => readFixture('ben/spec-derived/spec_example_finalized.bendl');
  const streamByte = async (bytes: Uint8Array) => {
    const info = (await open(bytes)).info() as { streamOffset: number; streamLength: number };
    return info.streamOffset + Math.floor(info.streamLength / 2);
  };

  it('a flipped stream byte: strict cat and conversions stop before any sample; salvage leaves every sample out and lists them all', async () => {
    const bytes = finalized();
    const doc = await open(flipped(bytes, await streamByte(bytes)));
    const strict = await catRead(doc, 'jsonl');
    expect(strict.output).toHaveLength(0);
    expect(strict.error).toMatchObject({ code: 'checksum', field: 'stream' });
    expect((await convertRead(doc.converters.find((c) => c.id === 'stream')!)).error).toMatchObject({ code: 'checksum', field: 'stream' });
    const salvaged = await catRead(doc, 'jsonl', true);
    expect(salvaged.output).toHaveLength(0);
    const total = lines('ben/spec-derived/v1_source.jsonl').length;
    expect(salvaged.outcome!.damage).toEqual([expect.objectContaining({ unit: 'stream', rows: { from: 1, count: total } })]);
  });

  it('the samples and frames tables of a bundle whose stream CRC32C fails show every value read from it as damaged', async () => {
    const bytes = finalized();
    const doc = await open(flipped(bytes, await streamByte(bytes)));
    const rows = await doc.tables.find((t) => t.id === 'samples')!.page(0, 10);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.cells.slice(1)).toEqual(r.cells.slice(1).map(() => expect.objectContaining({ text: 'damaged', mark: 'error' })));
    // The frames table shows where each frame is, and what its header says only on "show anyway".
    const frames = doc.tables.find((t) => t.id === 'frames')!;
    const [first] = await frames.page(0, 1);
    expect(first!.cells.slice(0, 2)).toEqual([0, 255 + 17]);
    expect(first!.cells[2]).toMatchObject({ text: 'damaged', mark: 'error' });
    const [shown] = await (await frames.withParams!({ [SHOW_DAMAGED.key]: true })).page(0, 1);
    expect(shown!.cells[2]).toMatchObject({ text: expect.stringMatching(/^damaged: \d+$/) });
    const [good] = await (await open(bytes)).tables.find((t) => t.id === 'frames')!.page(0, 1);
    expect(good!.cells[2]).toBeTypeOf('number');
  });

  it('plots and the plan view of a bundle whose stream CRC32C fails refuse to draw; the undamaged bundle draws them', async () => {
    const bytes = finalized();
    const doc = await open(flipped(bytes, await streamByte(bytes)));
    const good = await open(bytes);
    const planPanels = good.panels!.filter((p) => !['overview', 'metadata', 'permutation'].includes(p.id));
    expect(planPanels.length).toBeGreaterThan(0);
    for (const p of planPanels) {
      await expect(p.data({})).resolves.toBeDefined();
      await expect(doc.panels!.find((q) => q.id === p.id)!.data({})).rejects.toMatchObject({ code: 'checksum', field: 'stream' });
    }
  });

  it('a bundle whose XBEN stream fails before its first sample: a salvaging Recover keeps every intact asset and lists all samples', async () => {
    const bytes = readFixture('ben/independent/flags_set.bendl');
    const doc = await open(flipped(bytes, await streamByte(bytes)));
    const recover = doc.converters.find((c) => c.id === 'recover')!;
    expect((await convertRead(recover)).error).toMatchObject({ code: 'checksum', field: 'stream' });
    const r = await convertRead(recover, true);
    expect(r.outcome!.damage).toEqual([expect.objectContaining({ unit: 'stream', rows: { from: 1, count: 5 } })]);
    const rec = await open(r.output.subarray(1)); // convertRead names the single file "" on a line of its own
    const assets = (d: FormatDocument) => (d.info() as { assets: { name: string }[] }).assets.map((a) => a.name);
    expect(assets(rec)).toEqual(assets(await open(bytes)));
    expect(rec.info()).toMatchObject({ finalized: true, sampleCount: 0n });
  });

  it('a flipped header byte fails its tail CRC32C: every read path stops; salvage lists the header and goes on', async () => {
    // flags_set.bendl has the newest layout: a CRC32C of the header in its tail.
    const doc = await open(flipped(readFixture('ben/independent/flags_set.bendl'), 57)); // the sample count's second byte
    expect((await catRead(doc, 'jsonl')).error).toMatchObject({ code: 'checksum', field: 'header' });
    expect((await convertRead(doc.converters.find((c) => c.id === 'assets')!)).error).toMatchObject({ code: 'checksum', field: 'header' });
    const salvaged = await catRead(doc, 'jsonl', true);
    expect(text(salvaged.output)).toBe(readFileSync(fixture('ben/independent/source.jsonl'), 'utf8'));
    expect(salvaged.outcome!.damage).toEqual([expect.objectContaining({ unit: 'header', range: { offset: 0, length: 72 } })]);
  });

  it('a damaged asset: extraction salvages the others and names it with its bytes; the assets table marks it', async () => {
    const bytes = finalized();
    const doc0 = await open(bytes);
    const assets = (doc0.info() as { assets: { name: string; offset: number; length: number }[] }).assets;
    const meta = assets.find((a) => a.name === 'metadata.json')!;
    const doc = await open(flipped(bytes, meta.offset + 1));
    const good = await convertRead(doc0.converters.find((c) => c.id === 'assets')!);
    const r = await convertRead(doc.converters.find((c) => c.id === 'assets')!, true);
    expect(r.outcome!.damage).toEqual([expect.objectContaining({ unit: 'asset metadata.json', range: { offset: meta.offset, length: meta.length } })]);
    const table = await doc.tables.find((t) => t.id === 'assets')!.page(0, 10);
    expect(table.map((r) => [r.cells[0], r.mark])).toEqual(assets.map((a) => [a.name, a.name === 'metadata.json' ? 'error' : undefined]));
    expect(table.find((r) => r.cells[0] === 'metadata.json')!.cells[6]).toMatchObject({ text: 'damaged', mark: 'error' });
    // Every other asset comes out byte for byte as from the undamaged file (files named, in name order).
    const g = text(good.output);
    expect(text(r.output)).toBe(g.slice(0, g.indexOf('metadata.json\n')) + g.slice(g.indexOf('notes.txt\n')));
  });

  it('the stream node is marked once verify has computed its failing CRC32C; the tree built before says it too, and keeps its values', async () => {
    const bytes = finalized();
    const at = await streamByte(bytes);
    const bad = flipped(bytes, at);
    const doc = await open(bad);
    const tree = doc.structure();
    expect(top(doc).get('stream')).toMatchObject({ mark: undefined, note: undefined });
    await drain(doc);
    // The stored CRC32C is the header's bytes 20..24; the computed one is over the flipped stream bytes.
    const info = doc.info() as { streamOffset: number; streamLength: number };
    const stored = new DataView(bad.buffer, bad.byteOffset).getUint32(20, true);
    const computed = crc32c(bad.subarray(info.streamOffset, info.streamOffset + info.streamLength));
    expect(computed).not.toBe(stored);
    const hex8 = (n: number) => `0x${n.toString(16).padStart(8, '0')}`;
    expect(top(doc).get('stream')).toMatchObject({ mark: 'error', note: `CRC32C fails: stored ${hex8(stored)}, computed ${hex8(computed)}` });
    const before = (tree.children as StructNode[]).find((n) => n.label.startsWith('stream'))!;
    expect(before.mark).toBe('error');
    // Only the stream failed: its value (the frames) is the undamaged bundle's, the assets stay unmarked.
    const good = await open(bytes);
    await drain(good);
    expect(top(doc).get('stream')!.value).toBe(top(good).get('stream')!.value);
    for (const [label, n] of top(doc)) if (label.startsWith('asset')) expect(n.mark, label).toBeUndefined();
    for (const [label, n] of top(good)) expect(n.mark, label).toBeUndefined();
  });

  it('a bundle without a valid stream CRC32C: verify meeting a failed xz block check marks the XBEN stream node', async () => {
    const bytes = readFixture('ben/independent/flags_set.bendl');
    const info = (await open(bytes)).info() as { streamOffset: number; streamLength: number };
    // The same bundle with flag bit 0 clear (the header rebuilt from its own fields): only the xz checks guard the stream.
    const v = new DataView(bytes.buffer, bytes.byteOffset);
    const header = bundleHeader({
      finalized: true,
      format: 'xben',
      flags: 0,
      streamChecksum: v.getUint32(20, true),
      directoryOffset: Number(v.getBigUint64(24, true)),
      directoryLength: Number(v.getBigUint64(32, true)),
      streamOffset: info.streamOffset,
      streamLength: info.streamLength,
      sampleCount: v.getBigInt64(56, true),
    });
    const unflagged = bytes.slice();
    unflagged.set(header, 0);
    const block = (await readXzLayout(new MemorySource(unflagged.subarray(info.streamOffset, info.streamOffset + info.streamLength)))).streams[0]!.blocks[0]!;
    // The last byte of the block's unpadded size is its check's last byte.
    const doc = await open(flipped(unflagged, info.streamOffset + block.offset + block.unpaddedSize - 1));
    expect(top(doc).get('stream')?.mark).toBeUndefined();
    await drain(doc);
    expect(top(doc).get('stream')).toMatchObject({ mark: 'error', note: expect.stringMatching(/^xz (block 0|data): /) });
    // Below it, the xz stream and the block whose check failed, located in the bundle's bytes.
    const xz = (doc.structure().children as StructNode[]).find((n) => n.label.startsWith('stream'))!;
    const stream0 = (xz.children as StructNode[])[0]!;
    const blocks = (stream0.children as StructNode[]).find((n) => n.label === 'blocks')!;
    const c = blocks.children!;
    const [first] = isLazy(c) ? await c.load(0, 1) : c;
    expect([stream0.mark, blocks.mark, first!.mark, first!.range]).toEqual([
      'error',
      'error',
      'error',
      { offset: info.streamOffset + block.offset, length: block.unpaddedSize },
    ]);
    const good = await open(unflagged);
    await drain(good);
    expect(top(good).get('stream')?.mark).toBeUndefined();
  });

  it('an asset node is marked once the assets table has checked its CRC32C; the others are not', async () => {
    const bytes = finalized();
    const meta = ((await open(bytes)).info() as { assets: { name: string; offset: number }[] }).assets.find((a) => a.name === 'metadata.json')!;
    const doc = await open(flipped(bytes, meta.offset + 1));
    expect(top(doc).get('asset metadata.json')?.mark).toBeUndefined();
    await doc.tables.find((t) => t.id === 'assets')!.page(0, 10);
    const marked = [...top(doc)].filter(([, n]) => n.mark === 'error').map(([label]) => label);
    expect(marked).toEqual(['asset metadata.json']);
    expect(top(doc).get('asset metadata.json')!.note).toMatch(/^CRC32C fails: stored 0x[0-9a-f]{8}, computed 0x[0-9a-f]{8}$/);
  });
});

describe('coverage', () => {
  const parts = async (doc: FormatDocument) => (await doc.coverage!()).parts.map((p) => [p.part, p.check]);

  it('BEN frames carry no checksum; an XBEN with check None covers only its container; a finalized bundle covers header, assets and stream', async () => {
    expect(await parts(await open(readFixture('ben/grid4x4_chain.standard.ben')))).toEqual([['BEN frames', null]]);
    expect(await parts(await open(readFixture('ben/grid4x4_chain.mkv_chain.xben')))).toEqual([
      ['xz stream headers, block headers, index and footer', 'their CRC32s'],
      ['xz blocks (check None)', null],
    ]);
    expect(await parts(await open((await twoBlockXben()).bytes))).toContainEqual(['xz blocks', 'xz block checks (CRC64)']);
    const bundle = await parts(await open(readFixture('ben/independent/flags_set.bendl')));
    expect(bundle).toContainEqual(['BENDL header', 'header CRC32C in its tail']);
    expect(bundle).toContainEqual(['asset graph.json', 'CRC32C in its directory entry']);
    expect(bundle).toContainEqual(['stream', 'stream CRC32C in the header']);
    expect(bundle).toContainEqual(['BENDL directory', null]);
    expect(await parts(await open(readFixture('ben/spec-derived/spec_example_finalized.bendl')))).toContainEqual(['BENDL header (older v1 layout)', null]);
    expect(await parts(await open(readFixture('ben/spec-derived/spec_example_unfinalized.bendl')))).toContainEqual(['BEN frames', null]);
  });
});
