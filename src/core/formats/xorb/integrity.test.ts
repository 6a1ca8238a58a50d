import { describe, expect, it } from 'vitest';
import { readFixture, readJson } from '../../../../test/helpers/fixtures.js';
import { catRead, flipsNeverPassSilently } from '../../../../test/helpers/integrity.js';
import { writeDump } from '../../dump.js';
import { coveredRanges, DamagedDataError, SHOW_DAMAGED, type Damage } from '../../integrity.js';
import { MemorySource } from '../../io/byteSource.js';
import type { ByteSink, FormatDocument, Row, StructNode } from '../../model.js';
import { isLazy } from '../../model.js';
import { convertDocument } from '../../ops/read.js';
import { xorbHandler } from './handler.js';

const FULL = ['01_none_only.xorb', '02_lz4_text.xorb', '03_bg4_float32.xorb', '05_single_chunk.xorb', '07_lz4_text_v0footer.xorb'];

interface Truth {
  footer: { start_offset: number };
  chunks: {
    index: number;
    header_offset: number;
    payload_offset: number;
    compressed_size: number;
    unpacked_offset_start: number;
    unpacked_offset_end: number;
  }[];
}

function open(bytes: Uint8Array, name = 'x.xorb'): Promise<FormatDocument> {
  return xorbHandler.open(new MemorySource(bytes), { name });
}

/** The fixture with one byte flipped 100 bytes into chunk `index`'s payload. */
function withDamagedChunk(name: string, index: number): Uint8Array {
  const bytes = readFixture(`xorb/${name}.xorb`).slice();
  bytes[readJson<Truth>(`xorb/${name}.json`).chunks[index]!.payload_offset + 100]! ^= 0xff;
  return bytes;
}

/** A conversion through the ops layer into memory (one output file). */
async function convert(doc: FormatDocument, id: string, salvage: boolean): Promise<{ bytes: Buffer; damage: readonly Damage[] }> {
  const parts: Uint8Array[] = [];
  const sink: ByteSink = { write: async (b) => void parts.push(Uint8Array.from(b)) };
  const converter = doc.converters.find((c) => c.id === id)!;
  const out = await convertDocument(converter, { form: 'full' }, { salvage }, (run) => run({ file: async () => sink }));
  return { bytes: Buffer.concat(parts), damage: out.damage };
}

describe('xorb integrity: no damaged chunk leaves a read path unflagged', () => {
  it.each(FULL)('%s: a byte flipped anywhere a hash covers never changes a strict cat or conversion silently', async (file) => {
    const r = await flipsNeverPassSilently(readFixture(`xorb/${file}`), file, { maxPositions: 96, masks: [0xff, 0x01] });
    expect(r.silent).toEqual([]);
    expect(r.caught).toBeGreaterThan(0);
  });

  it.each([
    // A stored chunk decodes whatever its bytes: only the hash finds the flip.
    ['01_none_only', 2, /BLAKE3 hash [0-9a-f]{64} differs from the footer's [0-9a-f]{64} \(decompressed bytes 4098–24098\)/],
    // An LZ4 frame of byte-grouped floats: the frame or the hash finds it.
    ['03_bg4_float32', 1, /\(decompressed bytes 65536–105537\)$/],
  ])('salvaging %s with chunk %i damaged gives every other chunk, in order, and lists the damaged one with its bytes', async (name, index, detail) => {
    const truth = readJson<Truth>(`xorb/${name}.json`);
    const input = readFixture(`xorb/${name}.input.bin`);
    const r = await catRead(await open(withDamagedChunk(name, index)), 'raw', true);
    expect(r.error).toBeUndefined();
    const damage = r.outcome!.damage;
    const c = truth.chunks[index]!;
    expect(damage).toEqual([
      expect.objectContaining({ unit: `chunk ${index}`, range: { offset: c.header_offset, length: 8 + c.compressed_size }, rows: { from: index, count: 1 } }),
    ]);
    expect(damage[0]!.detail).toMatch(detail);
    // Output and list account for every chunk: the written ones are exactly the original's intact chunks...
    const left = new Set(damage.map((d) => d.rows!.from));
    const intact = truth.chunks.filter((k) => !left.has(k.index));
    expect(Buffer.from(r.output).equals(Buffer.concat(intact.map((k) => input.subarray(k.unpacked_offset_start, k.unpacked_offset_end))))).toBe(true);
    // ...and their file bytes with the listed ranges tile the chunk data, with nothing unaccounted.
    const ranges = [...intact.map((k) => ({ offset: k.header_offset, length: 8 + k.compressed_size })), ...damage.map((d) => d.range!)].sort(
      (a, b) => a.offset - b.offset,
    );
    let at = 0;
    for (const rg of ranges) {
      expect(rg.offset).toBe(at);
      at += rg.length;
    }
    expect(at).toBe(truth.footer.start_offset);
  });

  it('strict cat writes the intact chunks before the damaged one, then stops at it with its offset', async () => {
    const truth = readJson<Truth>('xorb/01_none_only.json');
    const r = await catRead(await open(withDamagedChunk('01_none_only', 2)), 'raw');
    expect(r.error).toBeInstanceOf(DamagedDataError);
    expect(r.error).toMatchObject({ code: 'checksum', offset: truth.chunks[2]!.payload_offset });
    expect(Buffer.from(r.output).equals(Buffer.from(readFixture('xorb/01_none_only.input.bin').subarray(0, truth.chunks[2]!.unpacked_offset_start)))).toBe(
      true,
    );
  });

  it('cat --from/--count checks only the chunks it writes: a damaged chunk outside the range does not stop it', async () => {
    const truth = readJson<Truth>('xorb/01_none_only.json');
    const r = await catRead(await open(withDamagedChunk('01_none_only', 2)), 'raw', false, { from: 0, count: 2 });
    expect(r.error).toBeUndefined();
    expect(Buffer.from(r.output).equals(Buffer.from(readFixture('xorb/01_none_only.input.bin').subarray(0, truth.chunks[2]!.unpacked_offset_start)))).toBe(
      true,
    );
  });

  it('every converter refuses a damaged chunk strictly; salvaged, the xorb converter writes a valid xorb of the intact chunks', async () => {
    const doc = await open(withDamagedChunk('01_none_only', 1));
    for (const id of ['raw', 'chunks', 'xorb'])
      await expect(convert(doc, id, false), id).rejects.toMatchObject({ damage: expect.objectContaining({ unit: 'chunk 1' }) });
    const salvaged = await convert(doc, 'xorb', true);
    expect(salvaged.damage.map((d) => d.unit)).toEqual(['chunk 1']);
    const again = await open(new Uint8Array(salvaged.bytes));
    const checks = [];
    for await (const c of again.verify({})) checks.push(c);
    expect(checks.filter((c) => c.status === 'fail')).toEqual([]);
    const truth = readJson<Truth>('xorb/01_none_only.json');
    const input = readFixture('xorb/01_none_only.input.bin');
    const cat = await catRead(again, 'raw');
    expect(
      Buffer.from(cat.output).equals(
        Buffer.concat([0, 2].map((i) => input.subarray(truth.chunks[i]!.unpacked_offset_start, truth.chunks[i]!.unpacked_offset_end))),
      ),
    ).toBe(true);
  });

  it.each([
    ['its xorb hash', 8 + 5],
    ['the hash of chunk 2', 52 + 2 * 32 + 7],
  ])('a footer with %s damaged still vouches for intact chunks (each by its hash, or all by the xorb hash), and verify still fails', async (_what, at) => {
    const bytes = readFixture('xorb/02_lz4_text.xorb').slice();
    bytes[readJson<Truth>('xorb/02_lz4_text.json').footer.start_offset + at]! ^= 0x01;
    const doc = await open(bytes);
    const r = await catRead(doc, 'raw');
    expect(r.error).toBeUndefined();
    expect(Buffer.from(r.output).equals(Buffer.from(readFixture('xorb/02_lz4_text.input.bin')))).toBe(true);
    const checks = [];
    for await (const c of doc.verify({})) checks.push(c);
    expect(checks.filter((c) => c.status === 'fail')).not.toEqual([]);
  });

  it('a chunk whose footer entry is damaged too is damaged: the xorb hash over all chunks does not vouch for it', async () => {
    const bytes = withDamagedChunk('02_lz4_text', 2);
    bytes[readJson<Truth>('xorb/02_lz4_text.json').footer.start_offset + 52 + 2 * 32 + 7]! ^= 0x01;
    const r = await catRead(await open(bytes), 'raw', true);
    expect(r.outcome!.damage.map((d) => d.unit)).toEqual(['chunk 2']);
  });

  it('an unreadable footer vouches for nothing: a strict read stops before any chunk; salvaging lists it and writes the chunks that decode', async () => {
    const bytes = readFixture('xorb/02_lz4_text.xorb').slice();
    const footerAt = readJson<Truth>('xorb/02_lz4_text.json').footer.start_offset;
    bytes[footerAt + 40]! ^= 0x01; // the hash section's ident
    const doc = await open(bytes);
    const strict = await catRead(doc, 'raw');
    expect(strict.error).toMatchObject({ offset: footerAt + 40, damage: expect.objectContaining({ unit: 'footer' }) });
    expect(strict.output.length).toBe(0);
    const salvaged = await catRead(doc, 'raw', true);
    expect(salvaged.outcome!.damage).toEqual([expect.objectContaining({ unit: 'footer', detail: expect.stringMatching(/no chunk hash can be checked$/) })]);
    expect(Buffer.from(salvaged.output).equals(Buffer.from(readFixture('xorb/02_lz4_text.input.bin')))).toBe(true);
  });
});

describe('xorb coverage', () => {
  it('the full form: chunk data and the footer hashes are covered; boundaries, offsets and the nonce are named as not covered', async () => {
    const footerAt = readJson<Truth>('xorb/03_bg4_float32.json').footer.start_offset;
    const cov = await (await open(readFixture('xorb/03_bg4_float32.xorb'))).coverage!();
    // V1, 4 chunks: xorb hash at +8; hash section +40 (12 bytes, then 4×32 hashes).
    expect(coveredRanges(cov)).toEqual([
      { offset: 0, length: footerAt },
      { offset: footerAt + 8, length: 32 },
      { offset: footerAt + 52, length: 128 },
    ]);
    expect(cov.parts.filter((p) => p.check === null).map((p) => p.part)).toEqual([
      expect.stringMatching(/^footer chunk boundaries/),
      expect.stringMatching(/^footer reserved bytes/),
      expect.stringMatching(/^footer idents/),
    ]);
  });

  it('the footerless form: nothing covers the chunks, and coverage says so', async () => {
    const cov = await (await open(readFixture('xorb/02_lz4_text.nofooter.xorb'))).coverage!();
    expect(cov.parts).toEqual([expect.objectContaining({ part: 'chunks (a footerless xorb stores no hashes)', check: null })]);
    expect(coveredRanges(cov)).toEqual([]);
  });
});

describe('xorb viewer: a damaged chunk shows as damaged', () => {
  const row = async (doc: FormatDocument, i: number, showDamaged: boolean): Promise<Row> => {
    const base = doc.tables.find((t) => t.id === 'chunks')!;
    const table = showDamaged ? await base.withParams!({ [SHOW_DAMAGED.key]: true }) : base;
    return (await table.page(i, 1))[0]!;
  };

  it("the chunk table hides a damaged chunk's values (index and offset stay) and shows them anyway only when asked, labelled", async () => {
    const doc = await open(withDamagedChunk('01_none_only', 2));
    const hidden = await row(doc, 2, false);
    expect(hidden.mark).toBe('error');
    expect(hidden.cells.slice(0, 2)).toEqual([2, 4114]);
    for (const cell of hidden.cells.slice(2))
      expect(cell).toMatchObject({ text: 'damaged', mark: 'error', title: expect.stringMatching(/^chunk 2: BLAKE3 hash/) });
    const shown = await row(doc, 2, true);
    expect(shown.cells.slice(2, 5)).toEqual([
      expect.objectContaining({ text: 'damaged: none', mark: 'error' }),
      expect.objectContaining({ text: 'damaged: 20000' }),
      expect.objectContaining({ text: 'damaged: 20000' }),
    ]);
    // An intact chunk is unchanged by the option.
    expect((await row(doc, 1, true)).cells).toEqual((await row(doc, 1, false)).cells);
    expect((await row(doc, 1, false)).mark).toBeUndefined();
  });

  it('the preview shows no byte of a damaged chunk unless asked, and then says it is damaged', async () => {
    const doc = await open(withDamagedChunk('01_none_only', 2));
    const preview = doc.panels!.find((p) => p.id === 'chunk-preview')!;
    const hidden = await preview.data({ chunk: 2, view: 'hex' });
    expect(hidden).toMatchObject({ kind: 'text', text: expect.stringMatching(/^chunk 2 is damaged, so its bytes are not shown: chunk 2 bytes 4114–24122/) });
    expect(hidden).not.toMatchObject({ text: expect.stringContaining('00000000 ') });
    const shown = await preview.data({ chunk: 2, view: 'hex', [SHOW_DAMAGED.key]: true });
    expect(shown).toMatchObject({ text: expect.stringMatching(/^DAMAGED, shown anyway: chunk 2/) });
    expect(await preview.data({ chunk: 1, view: 'hex' })).toMatchObject({ text: expect.stringMatching(/^chunk 1 · none/) });
  });

  it("a hash search keeps the found hash (the search key) and marks the damaged chunk's row", async () => {
    const doc = await open(withDamagedChunk('01_none_only', 2));
    const hashes = (doc.info() as { chunks: { hash: string }[] }).chunks.map((c) => c.hash);
    const search = async (prefix: string): Promise<Row[]> => {
      const rows: Row[] = [];
      await doc.searches![0]!.run({ prefix }, {}, (r) => void rows.push(...r));
      return rows;
    };
    const [damaged] = await search(hashes[2]!.slice(0, 16));
    expect(damaged).toMatchObject({
      mark: 'error',
      cells: [2, 4114, 'none', 20000, hashes[2], expect.objectContaining({ text: 'string form; chunk damaged', mark: 'error' })],
    });
    const [intact] = await search(hashes[1]!.slice(0, 16));
    expect(intact).toMatchObject({ cells: [1, 9, 'none', 4097, hashes[1], 'string form'] });
    expect(intact!.mark).toBeUndefined();
  });

  it('the structure tree marks the damaged chunk, and the dump shows the mark', async () => {
    const doc = await open(withDamagedChunk('01_none_only', 2));
    const chunks = (doc.structure().children as StructNode[])[0]!.children;
    if (!isLazy(chunks)) throw new Error('chunk list is not lazy');
    const nodes = await chunks.load(0, 3);
    expect(nodes.map((n) => n.mark)).toEqual([undefined, undefined, 'error']);
    expect(nodes[2]!.note).toMatch(/^BLAKE3 hash/);
    let dump = '';
    await writeDump(doc, { fileName: 'x.xorb', size: 0 }, (t) => void (dump += t));
    expect(dump).toMatch(/chunk 2 = none, 20000 → 20000 bytes {2}!! BLAKE3 hash/);
  });
});
