import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, openFixture, readFixture } from '../../../../test/helpers/fixtures.js';
import { catRead, convertRead, flipsNeverPassSilently } from '../../../../test/helpers/integrity.js';
import { convertersOf } from '../../dump.js';
import { coveredRanges, SHOW_DAMAGED } from '../../integrity.js';
import { MemorySource } from '../../io/byteSource.js';
import type { FormatDocument, Row } from '../../model.js';
import { openDocument } from '../../open.js';

/**
 * Issue 17 for fst: the v3 CRC is checked before any key leaves cat, a converter, the keys table or
 * a search; a salvage gives the keys whose nodes read cleanly, in order, and names what it left out.
 */
const truthOf = (name: string) =>
  readFileSync(fixture(`fst/${name}.tsv`), 'utf8')
    .split('\n')
    .filter(Boolean);
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

async function openBytes(bytes: Uint8Array): Promise<FormatDocument> {
  const o = await openDocument(new MemorySource(bytes), { name: 'x.fst' });
  if (o.kind !== 'opened') throw new Error(o.reason);
  return o.doc;
}

/** wide.map.fst2 with byte 17 flipped: the damage of corrupt/wide.map.fst3.flip-first-node-byte.fst, without a CRC. */
function wideV2WithBadNode(): Uint8Array {
  const bytes = readFixture('fst/wide.map.fst2.fst');
  bytes[17]! ^= 0xff;
  return bytes;
}

/**
 * The keys through node @18 in the wide fixture: the 40 keys `v?tail` (the deep-verify test counts
 * 40 keys lost below it), taken from the ground truth.
 */
const THROUGH_NODE_18 = /^v([^\\]|\\x5c)tail\t/;

describe('fst v3: a flipped byte the CRC covers never leaves a strict read path silently', () => {
  it.each(['small.map', 'small.set', 'wide.map', 'wide.set', 'tiny.map', 'one.map', 'emptykey42.map', 'empty.map'])('%s.fst3', async (name) => {
    const r = await flipsNeverPassSilently(readFixture(`fst/${name}.fst3.fst`), `${name}.fst3.fst`, { maxPositions: 48 });
    expect(r.silent).toEqual([]);
    expect(r.caught).toBeGreaterThan(0);
  });
});

describe('fst coverage', () => {
  it('v3: the CRC-32C in the footer covers every byte before it', async () => {
    const bytes = readFixture('fst/small.map.fst3.fst');
    const c = await (await openBytes(bytes)).coverage!();
    expect(c.parts).toEqual([expect.objectContaining({ check: 'CRC-32C in the footer' })]);
    expect(coveredRanges(c)).toEqual([{ offset: 0, length: bytes.length - 4 }]);
  });

  it.each(['small.map.fst1', 'small.map.fst2', 'small.map.vellum1'])('%s: no check covers the nodes', async (name) => {
    const bytes = readFixture(`fst/${name}.fst`);
    const c = await (await openBytes(bytes)).coverage!();
    expect(c.parts).toEqual([{ part: 'FST nodes', check: null, ranges: [{ offset: 0, length: bytes.length }] }]);
    expect(coveredRanges(c)).toEqual([]);
  });
});

describe('fst v3 with a failed CRC, read strictly', () => {
  it('cat and every fst converter fail at the stored checksum, before writing anything', async () => {
    const bytes = readFixture('fst/corrupt/small.map.fst3.flip-crc.fst');
    const doc = await openBytes(bytes);
    for (const format of ['tsv', 'jsonl'] as const) {
      const r = await catRead(doc, format);
      expect(r.error, format).toMatchObject({ code: 'checksum', offset: bytes.length - 4 });
      expect(r.error!.message).toMatch(/CRC-32C: stored 0x[0-9a-f]{8}, computed 0x[0-9a-f]{8}/);
      expect(r.output.length).toBe(0);
    }
    for (const c of doc.converters) expect((await convertRead(c)).error, c.id).toMatchObject({ code: 'checksum', offset: bytes.length - 4 });
  });
});

describe('fst salvage: the keys whose nodes read cleanly, in order', () => {
  it('v3 with an undecodable node: the ground truth minus exactly the 40 keys through it; the CRC and the node are each reported once', async () => {
    const doc = await openFixture('fst/corrupt/wide.map.fst3.flip-first-node-byte.fst');
    const truth = truthOf('wide.map');
    const r = await catRead(doc, 'tsv', true);
    expect(r.error).toBeUndefined();
    expect(text(r.output)).toBe(
      truth
        .filter((l) => !THROUGH_NODE_18.test(l))
        .map((l) => `${l}\n`)
        .join(''),
    );
    expect(truth.filter((l) => THROUGH_NODE_18.test(l))).toHaveLength(40);
    expect(r.outcome!.damage).toEqual([
      expect.objectContaining({ unit: 'file', code: 'checksum', range: { offset: 0, length: 4453 } }),
      expect.objectContaining({ unit: expect.stringMatching(/^node @18 /), offset: 18, code: 'corrupt', rows: { from: 2 } }),
    ]);
  });

  it('v2 (no CRC): the same keys, one damaged node reported, and every converter salvages what cat does', async () => {
    const doc = await openBytes(wideV2WithBadNode());
    const want = truthOf('wide.map').filter((l) => !THROUGH_NODE_18.test(l));
    const cat = await catRead(doc, 'tsv', true);
    expect(text(cat.output)).toBe(want.map((l) => `${l}\n`).join(''));
    expect(cat.outcome!.damage).toEqual([expect.objectContaining({ offset: 18, code: 'corrupt' })]);
    const tsv = await convertRead(doc.converters.find((c) => c.id === 'tsv')!, true);
    expect(text(tsv.output)).toBe(`\n${want.map((l) => `${l}\n`).join('')}`);
    // The salvaged keys rewritten as an fst read back as the same keys.
    const fst = await convertRead(doc.converters.find((c) => c.id === 'fst')!, true);
    expect(fst.outcome!.damage).toHaveLength(1);
    const back = await catRead(await openBytes(fst.output.subarray(1)), 'tsv');
    expect(text(back.output)).toBe(text(cat.output));
    const dot = await convertRead(doc.converters.find((c) => c.id === 'dot')!, true);
    expect(dot.outcome!.damage).toEqual([expect.objectContaining({ unit: 'state @18', offset: 18 })]);
  });

  it('a root node that does not decode: cat fails at it (damage, not an undecodable format); a salvage has no key and names it', async () => {
    const bytes = readFixture('fst/small.map.fst2.fst');
    // The footer's root address is 314 (the last node byte); a state byte 0x3f after a count byte 0xff
    // makes an AnyTrans node with 255 transitions whose pack sizes byte (0x4a) asks for more bytes than exist.
    bytes[314] = 0x3f;
    bytes[313] = 0xff;
    const doc = await openBytes(bytes);
    expect((await catRead(doc, 'tsv')).error).toMatchObject({ offset: 314 });
    const salvaged = await catRead(doc, 'tsv', true);
    expect(salvaged.output.length).toBe(0);
    expect(salvaged.outcome!.damage).toEqual([expect.objectContaining({ unit: expect.stringContaining('root node'), offset: 314, rows: { from: 0 } })]);
  });

  it('v2 read strictly stops at the node, with its field and offset', async () => {
    const doc = await openBytes(wideV2WithBadNode());
    expect((await catRead(doc, 'tsv')).error).toMatchObject({ code: 'corrupt', offset: 18, field: 'node @18' });
    for (const c of convertersOf(doc, 'x.fst', 0).filter((c) => c.id !== 'dump')) expect((await convertRead(c)).error, c.id).toMatchObject({ offset: 18 });
  });
});

describe('fst keys table, panels and searches when the CRC fails', () => {
  const cellsOf = (rows: readonly Row[]) => rows.map((r) => r.cells);

  it('every cell is "damaged" (reason as tooltip); show-anyway gives the decoded value, labelled', async () => {
    const good = await openFixture('fst/small.map.fst3.fst');
    const bad = await openFixture('fst/corrupt/small.map.fst3.flip-crc.fst');
    const table = bad.tables.find((t) => t.id === 'keys')!;
    expect(table.params).toContainEqual(SHOW_DAMAGED);
    const want = await good.tables.find((t) => t.id === 'keys')!.page(0, 20);
    const rows = await table.page(0, 20);
    expect(rows).toHaveLength(want.length);
    for (const row of rows) {
      expect(row.mark).toBe('error');
      for (const c of row.cells) expect(c).toMatchObject({ text: 'damaged', title: expect.stringContaining('CRC-32C'), mark: 'error' });
    }
    const anyway = await (await table.withParams!({ [SHOW_DAMAGED.key]: true })).page(0, 20);
    expect(cellsOf(anyway)).toEqual(cellsOf(want).map((cells) => cells.map((c) => expect.objectContaining({ text: `damaged: ${String(c)}`, mark: 'error' }))));
  });

  it('the undamaged file pages plain values', async () => {
    const rows = await (await openFixture('fst/small.map.fst3.fst')).tables.find((t) => t.id === 'keys')!.page(0, 20);
    expect(rows.map((r) => r.cells[0])).toEqual(truthOf('small.map').map((l) => l.split('\t')[0]));
  });

  it('the automaton, node and dot panels are labelled damaged; those of the undamaged file are not', async () => {
    const bad = await openFixture('fst/corrupt/small.map.fst3.flip-crc.fst');
    const good = await openFixture('fst/small.map.fst3.fst');
    const data = async (doc: FormatDocument, id: string) => JSON.stringify(await doc.panels!.find((p) => p.id === id)!.data({}));
    for (const id of ['automaton', 'node', 'dot']) {
      const shown = await data(bad, id);
      expect(shown, id).toContain("the file's masked CRC-32C: stored 0x308afb0f, computed 0xb08afb0f");
      expect(shown, id).toContain('damaged');
      expect(await data(good, id), id).not.toContain('damaged');
    }
  });

  it('search results are damaged cells too', async () => {
    const bad = await openFixture('fst/corrupt/small.map.fst3.flip-crc.fst');
    const prefix = bad.searches!.find((s) => s.id === 'prefix')!;
    expect(prefix.params).toContainEqual(SHOW_DAMAGED);
    const rows: Row[] = [];
    await prefix.run({ prefix: '' }, {}, (r) => rows.push(...r));
    expect(rows).toHaveLength(20);
    for (const row of rows) expect(row.cells[1]).toMatchObject({ text: 'damaged' });
  });
});
