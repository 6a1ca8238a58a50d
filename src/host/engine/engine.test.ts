import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../test/helpers/fixtures.js';
import { THREAD_MEMORY, type CheckDTO, type CountResultDTO, type TopDTO } from '../../protocol/protocol.js';
import { engineHandlers } from './engine.js';
import { IndexStore } from './indexStore.js';
import { nodePlatform } from './nodePlatform.js';
import { caseFile } from '../../core/formats/bindu/cases.testkit.js';
import { readContainer } from '../../core/formats/bindu/container.js';
import { frameLength } from '../../core/formats/bindu/model.js';
import { frame } from '../../core/formats/bindu/frames.js';
import { MemorySource } from '../../core/io/byteSource.js';
import { breakBlock } from '../../core/formats/idv/testFiles.js';
import { sevenRows } from '../../core/formats/idv/twoColumns.testkit.js';

const ctx = { signal: new AbortController().signal, emit: () => undefined };

describe('the engine', () => {
  it('a finished count returns the summary and top rows the count settled', async () => {
    const engine = engineHandlers(nodePlatform);
    const path = fixture('ben/grid4x4_chain.mkv_chain.ben');
    const opened = await engine.open({ doc: 'd', path, name: 'grid4x4_chain.mkv_chain.ben' }, ctx);
    if (opened.kind !== 'opened') throw new Error('did not open');
    // A file this small is counted at open; a large one is not, and the count settles it later.
    const table = opened.doc.tables[0]!;
    const counted: CountResultDTO = await engine.count({ doc: 'd', table: table.id }, ctx);
    expect(counted.complete).toBe(true);
    // 48 samples in 37 frames: the fixture's JSONL has 48 lines (checked independently here).
    const lines = readFileSync(fixture('ben/grid4x4_chain.jsonl'), 'utf8').trim().split('\n').length;
    expect(lines).toBe(48);
    const samples = counted.summary?.find((f) => f.name === 'samples');
    expect(samples?.value).toBe(String(lines));
    expect(counted.top?.root.label).toBe(opened.doc.root.label);
    await engine.close({ doc: 'd' }, ctx);
  });

  it('verify marks the failed CRC in its own top rows; `top` after a table page says the same', async () => {
    const engine = engineHandlers(nodePlatform);
    const crcRow = (top: TopDTO | undefined) => top?.children.find((n) => n.label === 'checksum (masked CRC-32C)');
    const opened = await engine.open({ doc: 'v', path: fixture('fst/corrupt/small.map.fst3.flip-crc.fst'), name: 'x.fst' }, ctx);
    if (opened.kind !== 'opened') throw new Error('did not open');
    expect(opened.doc.root.childCount).toBeGreaterThan(0);
    expect(crcRow(await engine.top({ doc: 'v' }, ctx))?.mark).toBeUndefined();
    const verified = await engine.verify({ doc: 'v' }, ctx);
    expect(verified.ok).toBe(false);
    const top = await engine.top({ doc: 'v' }, ctx);
    // 814414607 and 2961898255 from fixtures/fst/corrupt/EXPECTED.tsv, in hex.
    expect(crcRow(top)).toMatchObject({ mark: 'error', note: 'CRC-32C fails: stored 0x308afb0f, computed 0xb08afb0f' });
    expect(top.root.label).toBe(opened.doc.root.label);
    await engine.close({ doc: 'v' }, ctx);

    // A fresh session: the keys table's first page runs the CRC, and `top` then marks the row.
    await engine.open({ doc: 'p', path: fixture('fst/corrupt/small.map.fst3.flip-crc.fst'), name: 'x.fst' }, ctx);
    await engine.page({ doc: 'p', table: opened.doc.tables[0]!.id, from: 0, count: 5 }, ctx);
    expect(crcRow(await engine.top({ doc: 'p' }, ctx))?.mark).toBe('error');
    // The intact file: verified, nothing marked.
    await engine.open({ doc: 'g', path: fixture('fst/small.map.fst3.fst'), name: 'y.fst' }, ctx);
    const good = await engine.verify({ doc: 'g' }, ctx);
    expect(good.ok).toBe(true);
    const goodTop = await engine.top({ doc: 'g' }, ctx);
    expect(goodTop.children.filter((n) => n.mark === 'error')).toEqual([]);
    expect(crcRow(goodTop)).toBeDefined();
    await engine.close({ doc: 'p' }, ctx);
    await engine.close({ doc: 'g' }, ctx);
  });

  it('an IDV block a table page found damaged marks the root in the next top rows, and its leaf when the lookup table is expanded', async () => {
    const good = await sevenRows(1);
    const broken = await breakBlock(good, 1, 1);
    const engine = engineHandlers(nodePlatform);
    const opened = await engine.open({ doc: 'i', bytes: broken.bytes.slice().buffer, name: 'x.idv' }, ctx);
    if (opened.kind !== 'opened') throw new Error('did not open');
    expect((await engine.top({ doc: 'i' }, ctx)).root.mark).toBeUndefined();
    const rowsTable = opened.doc.tables.find((t) => t.id === 'rows')!;
    await engine.page({ doc: 'i', table: rowsTable.id, from: 0, count: 7 }, ctx);
    const top = await engine.top({ doc: 'i' }, ctx);
    expect(top.root).toMatchObject({ mark: 'error', note: expect.stringMatching(/^block 1 of column 1 \(b\) is damaged: /) });
    // Down the tree as the webview expands it: table of contents, column 1, lookup table, block 1.
    const down = async (id: string, label: string) => (await engine.children({ doc: 'i', node: id, from: 0, count: 50 }, ctx)).find((n) => n.label === label)!;
    const toc = top.children.find((n) => n.label === 'table of contents')!;
    const column = await down(toc.id, 'column 1: b');
    expect(column.mark).toBe('error');
    const block = await down((await down(column.id, 'lookup table')).id, 'block 1');
    expect(block).toMatchObject({ mark: 'error', range: broken.range });
    await engine.close({ doc: 'i' }, ctx);
  });
});

describe('the engine keeps', () => {
  it('a second open of a file starts from the index the first one saved: final counts and a seek without a walk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'binlens-engine-'));
    try {
      // 5 000 random plans of 300 nodes, one frame each (2 MB): past the first frame index checkpoint.
      let seed = 1;
      const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16;
      const plans = Array.from({ length: 5000 }, () => Array.from({ length: 300 }, () => 1 + (next() % 8)));
      const jsonl = join(dir, 'plans.jsonl');
      writeFileSync(jsonl, plans.map((a, k) => JSON.stringify({ assignment: a, sample: k + 1 })).join('\n') + '\n');
      const ben = join(dir, 'plans.ben');
      const engine = engineHandlers({ ...nodePlatform, indexes: new IndexStore(join(dir, 'indexes')) });
      await engine.import({ input: jsonl, importer: 'ben', out: ben, options: { variant: 'mkv_chain' }, force: false }, ctx);

      const first = await engine.open({ doc: 'a', path: ben, name: 'plans.ben' }, ctx);
      if (first.kind !== 'opened') throw new Error('did not open');
      const samples = (d: typeof first.doc) => d.summary.find((f) => f.name === 'samples')?.value;
      // A stream over 1 MiB is counted in the background, so the first open does not know yet.
      expect(statSync(ben).size).toBeGreaterThan(1 << 20);
      expect(samples(first.doc)).not.toBe('5000');
      await engine.count({ doc: 'a', table: first.doc.tables[0]!.id }, ctx);
      await engine.close({ doc: 'a' }, ctx);

      const second = await engine.open({ doc: 'b', path: ben, name: 'plans.ben' }, ctx);
      if (second.kind !== 'opened') throw new Error('did not open');
      expect(samples(second.doc)).toBe('5000');
      const last = await engine.page({ doc: 'b', table: second.doc.tables[0]!.id, from: 4999, count: 1 }, ctx);
      expect(last[0]?.cells).toContain(5000);
      await engine.close({ doc: 'b' }, ctx);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("counts a document's caches (file pages, decoded IDV blocks, fst node windows) and gives them back on `trim`; pages read the same afterwards", async () => {
    const engine = engineHandlers(nodePlatform);
    for (const rel of ['idv/mlnet-testdata/datatypes.idv', 'fst/medium.map.fst3.fst']) {
      const path = fixture(rel);
      const opened = await engine.open({ doc: 'p/d', path, name: rel.split('/').pop()! }, ctx);
      if (opened.kind !== 'opened') throw new Error('did not open');
      const table = opened.doc.tables[0]!;
      const page = () => engine.page({ doc: 'p/d', table: table.id, from: 0, count: 20 }, ctx);
      const before = await page();
      // What the thread holds for all documents (the FST walk's WebAssembly memory) is counted apart, under THREAD_MEMORY.
      const documents = async () => (await engine.memory({}, ctx)).filter((h) => h.doc !== THREAD_MEMORY);
      const held = await documents();
      expect(held.map((h) => h.doc)).toEqual(['p/d']);
      // More than the one 16 KiB file page a first screen of these small files reads.
      expect(held[0]!.bytes, rel).toBeGreaterThan(16 * 1024);
      await engine.trim({ doc: 'p/d' }, ctx);
      expect((await documents())[0]!.bytes, rel).toBe(0);
      expect(await page()).toEqual(before);
      await engine.close({ doc: 'p/d' }, ctx);
    }
  });
});

describe("a verify's findings in another document of the file (an editor's Verify runs on a job thread)", () => {
  it("a verify on a job thread hands its failures to the editor's document: the editor's top rows mark the frame without a verify in it", async () => {
    // A bindu past 8 MiB (no CRC is checked at open) whose 8 MiB skippable padding frame has a wrong
    // stored CRC: no table page reads that frame, only verify does.
    const good = await caseFile([frame(0x09, 1, new Uint8Array(8 << 20))]);
    const padding = (await readContainer(new MemorySource(good))).frames.find((f) => f.type === 0x09)!;
    const bytes = good.slice();
    bytes[padding.offset + frameLength(padding) - 1]! ^= 0x01;
    const engine = engineHandlers(nodePlatform);
    const row = (top: TopDTO) => top.children.find((n) => n.range?.offset === padding.offset);
    const opened = await engine.open({ doc: 'editor', bytes: bytes.slice().buffer, name: 'x.bindu' }, ctx);
    if (opened.kind !== 'opened') throw new Error('did not open');
    await engine.page({ doc: 'editor', table: opened.doc.tables[0]!.id, from: 0, count: 10 }, ctx);
    expect(row(await engine.top({ doc: 'editor' }, ctx))).toMatchObject({ label: 'reserved core type 0x09 frame', mark: 'warn' });
    expect((await engine.top({ doc: 'editor' }, ctx)).root.mark).toBeUndefined();
    // The job's own open of the file verifies it; its failed checks are what the host hands on.
    await engine.open({ doc: 'job', bytes: bytes.slice().buffer, name: 'x.bindu' }, ctx);
    const failed: CheckDTO[] = [];
    const verified = await engine.verify({ doc: 'job' }, { ...ctx, emit: (e) => void (e.check?.status === 'fail' && failed.push(e.check)) });
    expect(verified.ok).toBe(false);
    const crc = failed.find((c) => c.offset !== undefined && c.offset >= padding.offset && c.offset < padding.offset + frameLength(padding));
    expect(crc).toBeDefined();
    await engine.close({ doc: 'job' }, ctx);
    const marked = await engine.findings({ doc: 'editor', checks: failed }, ctx);
    const note = `${crc!.name}: ${crc!.detail}`;
    expect(row(marked)).toMatchObject({ label: 'reserved core type 0x09 frame', mark: 'error', note });
    expect(marked.root).toMatchObject({ mark: 'error', note: expect.stringContaining(failed[0]!.detail) });
    // The rows before the damaged frame stay as they were; asked again, the marks hold.
    expect(marked.children.filter((n) => n.range && n.range.offset + n.range.length <= padding.offset).every((n) => n.mark !== 'error')).toBe(true);
    expect(row(await engine.top({ doc: 'editor' }, ctx))).toMatchObject({ mark: 'error', note });
    // A new open of the file (it changed on disk) starts without them.
    await engine.open({ doc: 'editor', bytes: bytes.slice().buffer, name: 'x.bindu' }, ctx);
    expect(row(await engine.top({ doc: 'editor' }, ctx))?.mark).toBe('warn');
    await engine.close({ doc: 'editor' }, ctx);
  });
});
