import { describe, expect, it } from 'vitest';
import { openBytes } from '../../../../test/helpers/diff.js';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { catRead, convertRead, flipsNeverPassSilently } from '../../../../test/helpers/integrity.js';
import { convertersOf } from '../../dump.js';
import { DamagedDataError, coveredRanges } from '../../integrity.js';
import { isLazy, type Check, type FormatDocument, type StructNode } from '../../model.js';
import { verifyDocument } from '../../ops/verify.js';
import { breakBlock, breakUnit, everyKind, idvFile, writeIdv } from './testFiles.js';
import { sevenRows } from './twoColumns.testkit.js';

/**
 * Issue 17 for dataviews: a block that fails to decode never leaves cat or a converter as data.
 * Strict reads stop there (cat may have written the rows before it), salvage writes every row
 * with the damaged block's cells null and lists the block with its bytes and rows. Expected
 * output is always the undamaged file's own output with those cells nulled.
 */

const TERMS = 'idv/mlnet-model-embedded/termlookup__DataLoaderModel_Transform_000_DefaultMap.idv';
const DATATYPES = 'idv/mlnet-testdata/datatypes.idv';
/** Spec §15, checked byte by byte: the Value column's block is 15 DEFLATE bytes at 301. */
const TERMS_VALUE_BLOCK = { offset: 301, length: 15 };

const open = (bytes: Uint8Array) => openBytes(bytes, 'x.idv');

const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
const lines = (b: Uint8Array) => text(b).split('\n').slice(0, -1);
/** What `cat --format jsonl` prints for a file, line by line. */
const jsonlLines = async (bytes: Uint8Array) => lines((await catRead(await open(bytes), 'jsonl')).output);

/** The undamaged JSONL with `column` set to null in rows [from, to). */
function nulled(jsonl: readonly string[], column: string, from: number, to: number): string[] {
  return jsonl.map((l, r) => {
    if (r < from || r >= to) return l;
    // Parse only to find the key; the rest of the line stays byte for byte the undamaged one.
    const o = JSON.parse(l) as Record<string, unknown>;
    expect(Object.keys(o)).toContain(column);
    const key = `${JSON.stringify(column)}:`;
    const at = l.indexOf(key) + key.length;
    const end = at + valueLength(l, at);
    return `${l.slice(0, at)}null${l.slice(end)}`;
  });
}

/** Length of the JSON value starting at `at` (objects, arrays, strings, literals). */
function valueLength(l: string, at: number): number {
  let depth = 0;
  let inString = false;
  for (let i = at; i < l.length; i++) {
    const ch = l[i]!;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      if (!inString && depth === 0) return i - at + 1;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      if (depth === 0) return i - at;
      depth--;
      if (depth === 0) return i - at + 1;
    } else if (ch === ',' && depth === 0) return i - at;
  }
  return l.length - at;
}

describe("IDV salvage: the other blocks' rows, with the damaged block's cells null", () => {
  it('termlookup (spec §15) with its Value block broken: every row, Value null, and the block listed with its bytes and rows', async () => {
    const good = readFixture(TERMS);
    const want = await jsonlLines(good);
    expect(want).toHaveLength(5);
    const r = await catRead(await open(breakUnit(good, TERMS_VALUE_BLOCK.offset, true)), 'jsonl', true);
    expect(r.error).toBeUndefined();
    expect(lines(r.output)).toEqual(nulled(want, 'Value', 0, 5));
    expect(r.outcome!.damage).toEqual([
      expect.objectContaining({ unit: 'block 0 of column 1 (Value)', range: TERMS_VALUE_BLOCK, rows: { from: 0, count: 5 }, code: 'corrupt' }),
    ]);
  });

  it("a multi-block file with the middle block of one column broken: rows before and after are whole, that block's cells null", async () => {
    for (const compression of [0, 1] as const) {
      const good = await sevenRows(compression, 10);
      const want = await jsonlLines(good);
      const broken = await breakBlock(good, 1, 1);
      const r = await catRead(await open(broken.bytes), 'jsonl', true);
      expect(lines(r.output), `compression ${compression}`).toEqual(nulled(want, 'b', 3, 6));
      expect(r.outcome!.damage).toEqual([expect.objectContaining({ unit: 'block 1 of column 1 (b)', range: broken.range, rows: { from: 3, count: 3 } })]);
    }
  });

  it('cat --from/--count lists only the rows of the damaged block it was asked for', async () => {
    const good = await sevenRows(1);
    const want = await jsonlLines(good);
    const broken = await breakBlock(good, 0, 1);
    const r = await catRead(await open(broken.bytes), 'jsonl', true, { from: 4, count: 3 });
    expect(lines(r.output)).toEqual(nulled(want, 'a', 3, 6).slice(4, 7));
    expect(r.outcome!.damage).toEqual([expect.objectContaining({ unit: 'block 1 of column 0 (a)', rows: { from: 4, count: 2 } })]);
  });

  it("every codec (1.1.1.6): each column's block 1 broken in turn gives the undamaged rows with that column null for rows 4–7", async () => {
    const { columns, rows } = everyKind(10);
    const good = await writeIdv(columns, rows, { rowsPerBlock: 4, compression: 1 });
    const want = await jsonlLines(good);
    const names = JSON.parse(want[0]!) as Record<string, unknown>;
    // The hidden "Name" column is written as Name#5; JSONL keys name every column once.
    const keys = Object.keys(names);
    expect(keys).toHaveLength(columns.length);
    for (let c = 0; c < columns.length; c++) {
      const broken = await breakBlock(good, c, 1);
      const r = await catRead(await open(broken.bytes), 'jsonl', true);
      expect(r.error, keys[c]).toBeUndefined();
      expect(lines(r.output), keys[c]).toEqual(nulled(want, keys[c]!, 4, 8));
      expect(r.outcome!.damage.map((d) => d.rows)).toEqual([{ from: 4, count: 4 }]);
    }
  });

  it("every legacy codec (1.1.1.5 datatypes.idv): each column's block broken in turn gives the other columns as undamaged", async () => {
    const good = readFixture(DATATYPES);
    const want = await jsonlLines(good);
    const keys = Object.keys(JSON.parse(want[0]!) as object);
    expect(keys).toEqual(['bl', 'i1', 'i2', 'i4', 'i8', 'ts', 'dto', 'dt', 'tx']);
    for (let c = 0; c < keys.length; c++) {
      const broken = await breakBlock(good, c, 0);
      const r = await catRead(await open(broken.bytes), 'jsonl', true);
      expect(lines(r.output), keys[c]).toEqual(nulled(want, keys[c]!, 0, 5));
      expect(r.outcome!.damage).toEqual([
        expect.objectContaining({ unit: `block 0 of column ${c} (${keys[c]})`, range: broken.range, rows: { from: 0, count: 5 } }),
      ]);
    }
  });

  it('a row count damaged to 2^40 in a 7-row file: salvage ends where the lookup tables end and lists the rest as one unit', async () => {
    const good = await sevenRows(1);
    const want = (await jsonlLines(good)).map((l) => JSON.parse(l) as Record<string, unknown>);
    const bad = good.slice();
    new DataView(bad.buffer).setBigInt64(40, 1n << 40n, true); // header: i64 row count
    const doc = await open(bad);
    expect((await catRead(doc, 'jsonl')).error).toBeInstanceOf(DamagedDataError);
    const r = await catRead(doc, 'jsonl', true);
    expect(r.error).toBeUndefined();
    const got = lines(r.output).map((l) => JSON.parse(l) as Record<string, unknown>);
    const last = r.outcome!.damage.at(-1)!;
    // Written rows plus the last unit account for every declared row; no written value differs from the undamaged one.
    expect(last).toMatchObject({ unit: `rows ${got.length}–${2 ** 40 - 1}`, rows: { from: got.length, count: 2 ** 40 - got.length }, offset: 40 });
    got.slice(0, 7).forEach((row, i) => {
      for (const k of ['a', 'b']) expect(row[k] === null || row[k] === want[i]![k], `row ${i} ${k}`).toBe(true);
    });
    // Every other unit is a block whose rows were written as null.
    for (const d of r.outcome!.damage.slice(0, -1)) expect(d.unit).toMatch(/^block \d+ of column [01] \([ab]\)$/);
  });

  it('CSV salvage keeps every row and leaves the damaged cells empty', async () => {
    const good = readFixture(TERMS);
    const [csv] = convertersOf(await open(good), 'x.idv', good.length).filter((c) => c.id === 'csv');
    expect(text((await convertRead(csv!)).output)).toBe('\nTerm,Value\nBad,0\nFair,1\nGood,2\nExcellent,3\nPerfect,4\n');
    const bad = await open(breakUnit(good, TERMS_VALUE_BLOCK.offset, true));
    const r = await convertRead(convertersOf(bad, 'x.idv', good.length).find((c) => c.id === 'csv')!, true);
    expect(text(r.output)).toBe('\nTerm,Value\nBad,\nFair,\nGood,\nExcellent,\nPerfect,\n');
    expect(r.outcome!.damage).toHaveLength(1);
  });
});

describe('IDV strict reads stop at a damaged block', () => {
  it('cat writes the rows before the damaged block and stops there with the block, its offset and what failed', async () => {
    const good = await sevenRows(1);
    const want = await jsonlLines(good);
    const broken = await breakBlock(good, 1, 1);
    const r = await catRead(await open(broken.bytes), 'jsonl');
    expect(lines(r.output)).toEqual(want.slice(0, 3));
    expect(r.error).toBeInstanceOf(DamagedDataError);
    expect(r.error).toMatchObject({ code: 'corrupt', offset: broken.range.offset, damage: { unit: 'block 1 of column 1 (b)', rows: { from: 3, count: 3 } } });
    expect(r.error!.message).toMatch(/^block 1 of column 1 \(b\): column 1 block 1: invalid DEFLATE data/);
  });

  it('every converter fails and keeps no output', async () => {
    const bad = await open(breakUnit(readFixture(TERMS), TERMS_VALUE_BLOCK.offset, true));
    for (const id of ['jsonl', 'csv', 'tsv']) {
      const r = await convertRead(bad.converters.find((c) => c.id === id)!);
      expect(r.error, id).toBeInstanceOf(DamagedDataError);
      expect(r.error, id).toMatchObject({ offset: TERMS_VALUE_BLOCK.offset });
      expect(r.output, id).toHaveLength(0);
    }
  });

  it('damaged SlotNames metadata stops a CSV whose headers need it; salvage writes slot indices and lists it', async () => {
    const { columns, rows } = everyKind(3);
    const good = await writeIdv(columns, rows, { rowsPerBlock: 3, compression: 1 });
    const file = await idvFile(good);
    const dense = columns.findIndex((c) => c.name === 'Dense');
    const slots = (await file.columnMetadata(dense)).items.find((m) => m.entry.kind === 'SlotNames')!.entry;
    const bad = await open(breakUnit(good, slots.blockOffset, slots.compression === 1));
    const csv = () => bad.converters.find((c) => c.id === 'csv')!;
    const strict = await convertRead(csv());
    expect(strict.error).toMatchObject({
      offset: slots.blockOffset,
      damage: { unit: `metadata SlotNames of column ${dense} (Dense)`, range: { offset: slots.blockOffset, length: slots.blockSize } },
    });
    const goodCsv = text((await convertRead((await open(good)).converters.find((c) => c.id === 'csv')!)).output);
    const salvaged = await convertRead(csv(), true);
    // Only the header differs: Dense[w]… become Dense[0]…, the slot indices.
    expect(goodCsv).toContain('Dense[w],Dense[x],Dense[y],Dense[z]');
    expect(text(salvaged.output)).toBe(goodCsv.replace('Dense[w],Dense[x],Dense[y],Dense[z]', 'Dense[0],Dense[1],Dense[2],Dense[3]'));
    expect(salvaged.outcome!.damage.map((d) => d.unit)).toEqual([`metadata SlotNames of column ${dense} (Dense)`]);
  });
});

describe('IDV with an unreadable table of contents', () => {
  /** MurmurHashV1 schema: one TextSpan column "Foo", zero rows, TOC at 256 ("03 Foo 08 TextSpan …"), tail at 288. */
  const SCHEMA = 'idv/mlnet-model-embedded/MurmurHashV1__Schema.idv';

  it('cat and every converter fail (a zero-row file printed nothing, or a header without its columns, before); salvage lists the table', async () => {
    const bytes = readFixture(SCHEMA);
    expect(text((await catRead(await open(bytes), 'csv')).output)).toBe('Foo\n');
    const bad = bytes.slice();
    bad[256] = 0x7f; // the column name's length now runs past the tail
    const doc = await open(bad);
    for (const f of ['jsonl', 'csv', 'tsv'] as const) {
      const r = await catRead(doc, f);
      expect(r.error, f).toMatchObject({ damage: { unit: 'table of contents', range: { offset: 256, length: 32 } } });
      expect(r.output, f).toHaveLength(0);
    }
    for (const c of doc.converters) expect((await convertRead(c)).error, c.id).toBeInstanceOf(DamagedDataError);
    const salvaged = await catRead(doc, 'csv', true);
    expect(salvaged.output).toHaveLength(0);
    expect(salvaged.outcome!.damage).toEqual([expect.objectContaining({ unit: 'table of contents', rows: { from: 0, count: 0 } })]);
  });
});

/** Depth-first search of the structure tree, loading lazy children (the test file is small). */
async function findNode(node: StructNode, label: string): Promise<StructNode | undefined> {
  if (node.label === label) return node;
  const c = node.children;
  const kids = c === undefined ? [] : isLazy(c) ? await c.load(0, 1000) : c;
  for (const k of kids) {
    const hit = await findNode(k, label);
    if (hit) return hit;
  }
  return undefined;
}

describe('IDV viewer marks damaged metadata as damage', () => {
  it('a SlotNames block that fails to decode is an error in the structure tree and the metadata panel', async () => {
    const { columns, rows } = everyKind(3);
    const good = await writeIdv(columns, rows, { rowsPerBlock: 3, compression: 1 });
    const dense = columns.findIndex((c) => c.name === 'Dense');
    const slots = (await (await idvFile(good)).columnMetadata(dense)).items.find((m) => m.entry.kind === 'SlotNames')!.entry;
    const doc = await open(breakUnit(good, slots.blockOffset, slots.compression === 1));
    const column = await findNode(doc.structure(), `column ${dense}: Dense`);
    expect(await findNode(column!, 'SlotNames')).toMatchObject({ mark: 'error', range: { offset: slots.blockOffset, length: slots.blockSize } });
    const intact = await findNode(column!, 'IsNormalized');
    expect(intact?.mark).toBeUndefined();
    const panel = await doc.panels!.find((p) => p.id === 'metadata')!.data({ column: String(dense) });
    const group = panel.kind === 'fields' ? panel.groups.find((g) => g.title === 'SlotNames') : undefined;
    expect(group?.fields.find((f) => f.name === 'value')).toMatchObject({ mark: 'error' });
  });
});

describe('IDV viewer marks a damaged block once a read has met it', () => {
  /** The marks the tree shows now: the root, column 1, its lookup table, and its blocks 0 – 2 (built afresh, as the engine does). */
  async function marks(doc: FormatDocument): Promise<(string | undefined)[]> {
    const root = doc.structure();
    const column = (await findNode(root, 'column 1: b'))!;
    const lookup = (await findNode(column, 'lookup table'))!;
    const blocks = await Promise.all([0, 1, 2].map(async (b) => (await findNode(lookup, `block ${b}`))!.mark));
    return [root.mark, column.mark, lookup.mark, ...blocks];
  }

  it('no block is decoded at open; a page over the damaged block, or verify, marks it, its column, its lookup table and the root', async () => {
    const good = await sevenRows(1);
    const broken = await breakBlock(good, 1, 1);
    const paged = await open(broken.bytes);
    expect(await marks(paged)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
    const table = paged.tables.find((t) => t.id === 'rows')!;
    await table.page(0, 3);
    expect(await marks(paged), 'rows 0–2 are block 0: intact').toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
    await table.page(3, 3);
    expect(await marks(paged)).toEqual(['error', 'error', 'error', undefined, 'error', undefined]);
    const block = await findNode((await findNode(paged.structure(), 'column 1: b'))!, 'block 1');
    // breakUnit wrote the reserved DEFLATE block type at the block's first byte: the error names that offset.
    expect(block).toMatchObject({ range: broken.range, note: expect.stringContaining(`column 1 block 1 at offset ${broken.range.offset}`) });
    expect(paged.structure().note).toMatch(/^block 1 of column 1 \(b\) is damaged: /);
    expect((await findNode(paged.structure(), 'column 0: a'))!.mark).toBeUndefined();

    const verified = await open(broken.bytes);
    for await (const c of verifyDocument(verified, {})) void c;
    expect(await marks(verified)).toEqual(['error', 'error', 'error', undefined, 'error', undefined]);
    const intact = await open(good);
    for await (const c of verifyDocument(intact, {})) void c;
    expect(await marks(intact)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });
});

describe('IDV rows table with a damaged block', () => {
  it('shows the block\'s cells as damaged, with the reason, and the other columns\' values; no "show anyway" (nothing decoded)', async () => {
    const doc = await open(breakUnit(readFixture(TERMS), TERMS_VALUE_BLOCK.offset, true));
    const table = doc.tables.find((t) => t.id === 'rows')!;
    const rows = await table.page(0, 5);
    expect(rows.map((r) => r.cells[1])).toEqual(['Bad', 'Fair', 'Good', 'Excellent', 'Perfect']);
    for (const r of rows) {
      expect(r.mark).toBe('error');
      expect(r.cells[2]).toEqual({ text: 'damaged', mark: 'error', title: expect.stringMatching(/column 1 block 0 at offset 301 .*invalid DEFLATE data/) });
    }
    expect((table.params ?? []).map((p) => p.key)).not.toContain('showDamaged');
  });
});

describe('IDV coverage: no checksum covers the blocks, and verify says so', () => {
  it('verify of an intact file passes and says blocks, tables and metadata are not covered', async () => {
    const checks: Check[] = [];
    for await (const c of verifyDocument(
      await open(readFixture('idv/mlnet-model-embedded/modelwithoptionalcolumntransform__DataLoaderModel_Loader_Schema.idv')),
      {},
    ))
      checks.push(c);
    expect(checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(checks.filter((c) => c.name === 'not covered').map((c) => c.detail)).toEqual([
      'IDV header, table of contents, lookup tables and tail: no checksum covers them',
      'IDV blocks: no checksum covers them',
      'IDV metadata: no checksum covers them',
    ]);
  });

  it('the only covered bytes are the 8 of the signature', async () => {
    const doc = await open(readFixture(TERMS));
    expect(coveredRanges(await doc.coverage!())).toEqual([{ offset: 0, length: 8 }]);
  });

  it('a flipped signature byte never changes what cat or a converter outputs without failing', async () => {
    for (const name of [TERMS, DATATYPES]) {
      const report = await flipsNeverPassSilently(readFixture(name), 'x.idv', { masks: [0xff, 0x01] });
      expect(report.silent, name).toEqual([]);
      expect(report.caught, name).toBeGreaterThan(0);
    }
  });
});
