import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { exercise, expectProblem, problems } from '../../../../test/helpers/hostile.js';
import { leb128 } from '../../../../test/helpers/leb128.js';
import { crc32 } from '../../codecs/crc32.js';
import { xzCompress } from '../../codecs/xz/encode.js';
import { MemorySource } from '../../io/byteSource.js';
import { concatBytes } from '../../io/bytes.js';
import { type AssetInput, writeBundle } from './bendlWrite.js';
import { jsonlSamples, writeStream } from './pipeline.js';
import { MemorySink } from './testing.js';

/**
 * Hostile BEN, XBEN and BENDL bytes built by hand from the spec (../shared/specs/ben.md), each
 * through the public API (open → structure → pages → verify → convert): the error is a
 * FormatError naming the spec field and its offset, and nothing hangs or converts silently.
 */

const BANNER = 17;
const ascii = (s: string) => new TextEncoder().encode(s);
const be16 = (n: number) => [(n >>> 8) & 0xff, n & 0xff];
const be32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];

function patched(path: string, at: number, value: number): Uint8Array {
  const b = readFixture(path).slice();
  b[at] = value;
  return b;
}

/** Every way a document can be asked for its content reports `want` (code, offset, field). */
async function rejectsEverywhere(
  bytes: Uint8Array,
  name: string,
  want: { code: string; offset: number; field: string },
  goodSamples: number,
  atOpen: { field: string } | null = want,
) {
  const o = await exercise(bytes, { name, converters: ['jsonl', 'ben', 'xben'] });
  expect(o.openError).toBeUndefined();
  const located = expect.objectContaining(want);
  // Open walks the frame headers of a .ben (not the xz body of an .xben) and says where they break.
  if (atOpen) expect(o.doc!.warnings).toContainEqual(expect.objectContaining({ status: 'fail', offset: want.offset, field: atOpen.field }));
  // Verify decodes every frame and fails at the same place, with the good prefix counted.
  expectProblem(o.verify, { status: 'fail', name: 'decode', offset: want.offset, field: want.field });
  expect(o.verify).toContainEqual(
    expect.objectContaining({ name: 'good prefix', detail: expect.stringMatching(new RegExp(`^${goodSamples} complete sample`)) }),
  );
  // No conversion succeeds: the samples after the damage would be lost silently.
  for (const id of ['jsonl', 'ben', 'xben']) expect(o.converts.get(id), id).toEqual(located);
  return o;
}

describe('BEN bit widths outside 1..16 (spec §3 vbits/lbits, §4 delta lbits)', () => {
  // v1_source.standard.ben: frame 0 is `02 02 00000001 6a` at 17 (vbits at 17, lbits at 18).
  it.each([0, 17, 33, 255])('rejects vbits %i in the first frame at offset 17, and converts nothing', async (bits) => {
    const o = await rejectsEverywhere(patched('ben/v1_source.standard.ben', BANNER, bits), 'x.ben', { code: 'corrupt', offset: 17, field: 'frame 0 vbits' }, 0);
    // The samples table has no sample before the damage: its first page is the error itself.
    expect(o.pages.get('samples')).toEqual(expect.objectContaining({ code: 'corrupt', offset: 17, field: 'frame 0 vbits' }));
  });

  it.each([0, 33])('rejects lbits %i in the first frame at offset 18', async (bits) => {
    await rejectsEverywhere(patched('ben/v1_source.standard.ben', BANNER + 1, bits), 'x.ben', { code: 'corrupt', offset: 18, field: 'frame 0 lbits' }, 0);
  });

  it('rejects vbits 33 in frame 2 of an MkvChain stream, after the two good samples before it', async () => {
    // v1_source.mkv_chain.ben: frame 0 = 6 + 1 payload + 2 count bytes at 17, frame 1 = 6 + 2 + 2 at 26, frame 2 at 36.
    const bytes = patched('ben/v1_source.mkv_chain.ben', 36, 33);
    const o = await rejectsEverywhere(bytes, 'x.ben', { code: 'corrupt', offset: 36, field: 'frame 2 vbits' }, 2);
    // The viewer keeps the two samples before the damage, and a page past them is the error.
    expect(o.pages.has('samples')).toBe(false);
    expect(await o.doc!.tables.find((t) => t.id === 'samples')!.page(0, 10)).toHaveLength(2);
    await expect(o.doc!.tables.find((t) => t.id === 'samples')!.page(2, 10)).rejects.toMatchObject({ code: 'corrupt', offset: 36, field: 'frame 2 vbits' });
  });

  it.each([0, 33])('rejects a TwoDelta delta with lbits %i at its offset', async (bits) => {
    // twodelta.ben: snapshot = tag + 6 + 1 + 2 at 17, delta at 27 = tag, pair_a u16, pair_b u16, lbits at 32.
    await rejectsEverywhere(patched('ben/independent/twodelta.ben', 32, bits), 'x.ben', { code: 'corrupt', offset: 32, field: 'frame 1 lbits' }, 1);
  });

  it('rejects a frame whose n_bytes claims 4 GiB without reading past the file', async () => {
    // frame 0 n_bytes (u32 BE at 19) = 0xffffffff in a 50-byte file.
    const bytes = readFixture('ben/v1_source.standard.ben').slice();
    bytes.set(be32(0xffffffff), BANNER + 2);
    const o = await exercise(bytes, { name: 'x.ben', converters: ['jsonl', 'ben', 'xben'] });
    // The header walk (open, pages, conversions) names the frame; the full decode (verify) its payload.
    const atFrame = expect.objectContaining({
      code: 'truncated',
      offset: 17,
      field: 'frame 0',
      detail: 'frame 0 needs 4294967301 bytes, the stream ends after 36',
    });
    expect(o.doc!.warnings).toEqual([expect.objectContaining({ status: 'fail', offset: 17, field: 'frame 0' })]);
    expect(o.pages.get('samples')).toEqual(atFrame);
    for (const id of ['jsonl', 'ben', 'xben']) expect(o.converts.get(id), id).toEqual(atFrame);
    expectProblem(o.verify, { status: 'fail', name: 'decode', offset: 17, field: 'frame 0 payload' });
  });
});

/** An .xben of the given body, compressed for real: a few hundred bytes that decode to much more. */
const xben = (body: Uint8Array) => xzCompress(body, { preset: 1, check: 'crc32' });

/**
 * An .xben whose body is `head` followed by `zeros` zero bytes: concatenated xz streams (which
 * xz, and the spec, read as one body), so a 256 MiB body costs one 16 MiB compression.
 */
async function xbenWithZeros(head: Uint8Array, zeros: number): Promise<Uint8Array> {
  const block = 16 << 20;
  const full = await xben(new Uint8Array(block));
  const parts = [await xben(head)];
  for (let left = zeros; left > 0; left -= block) parts.push(left >= block ? full : await xben(new Uint8Array(left)));
  return concatBytes(parts);
}

describe('XBEN decompression bombs (spec §5)', () => {
  it('a BEN32 frame that never ends stops at the plan cap of 2^26 nodes, not at memory', async () => {
    // Runs (district 1, 65535 nodes) with no 00000000 terminator: 2^26 nodes after 1025 runs.
    const runs = new Uint8Array(4 * 4096);
    for (let i = 0; i < 4096; i++) runs.set([...be16(1), ...be16(65535)], 4 * i);
    const bytes = await xben(concatBytes([ascii('STANDARD BEN FILE'), runs]));
    expect(bytes.length).toBeLessThan(1000);
    // Body errors are reported at the start of the xz data, with the decompressed byte in the text.
    const o = await rejectsEverywhere(bytes, 'x.xben', { code: 'limit', offset: 0, field: 'frame 0' }, 0, null);
    expect(o.converts.get('jsonl')!.detail).toMatch(/more than 67108864 nodes .*decompressed byte 17/);
  });

  it('a TwoDelta full frame declaring 2^26 + 1 runs is refused before its runs are buffered', async () => {
    // 0x00 full frame: u32 run_count (BE), run_count × (u16 value, u16 len), u16 count.
    const bytes = await xben(concatBytes([ascii('TWODELTA BEN FILE'), Uint8Array.from([0, ...be32(2 ** 26 + 1)]), new Uint8Array(1 << 20)]));
    const o = await rejectsEverywhere(bytes, 'x.xben', { code: 'limit', offset: 0, field: 'frame 0 run count' }, 0, null);
    expect(o.converts.get('jsonl')!.detail).toMatch(/decompressed byte 18/);
  });

  it('a TwoDelta delta chunk declaring 2^22 + 1 deltas is refused before its columns are buffered', async () => {
    // A full frame [1,1,2,2] (2 runs, count 1), then 0x02 chunk: u32 n.
    const full = [0, ...be32(2), ...be16(1), ...be16(2), ...be16(2), ...be16(2), ...be16(1)];
    const bytes = await xben(concatBytes([ascii('TWODELTA BEN FILE'), Uint8Array.from([...full, 2, ...be32(2 ** 22 + 1)]), new Uint8Array(1 << 16)]));
    await rejectsEverywhere(bytes, 'x.xben', { code: 'limit', offset: 0, field: 'frame 1 chunk size' }, 1, null);
  });

  it('a TwoDelta full frame of 2^26 zero-length runs (a 256 MiB body from 40 KiB) fails after one linear pass', async () => {
    // The declared count is within the cap, so the runs are buffered; the first one (length 0) is corrupt.
    const bytes = await xbenWithZeros(concatBytes([ascii('TWODELTA BEN FILE'), Uint8Array.from([0, ...be32(2 ** 26)])]), 2 ** 28 + 2);
    expect(bytes.length).toBeLessThan(64 << 10);
    const started = Date.now();
    const o = await exercise(bytes, { name: 'x.xben', converters: ['jsonl'], panels: false });
    const want = expect.objectContaining({ code: 'corrupt', offset: 0, field: 'frame 0 runs', detail: 'run 0 has length 0 (decompressed byte 22)' });
    expect(o.converts.get('jsonl')).toEqual(want);
    expectProblem(o.verify, { status: 'fail', name: 'decode', offset: 0, field: 'frame 0 runs' });
    // Pages, verify and the conversion each decode the 256 MiB once; buffering the frame used to
    // copy everything read so far for every 1 MiB piece (minutes for this file).
    expect(Date.now() - started).toBeLessThan(40_000);
  }, 120_000);
});

/** Rewrites the index of a single-stream .xz so its only record declares `uncompressed` bytes. */
function withDeclaredSize(xz: Uint8Array, uncompressed: bigint): Uint8Array {
  const dv = new DataView(xz.buffer, xz.byteOffset, xz.byteLength);
  const footer = xz.length - 12;
  const indexSize = (dv.getUint32(footer + 4, true) + 1) * 4;
  const index = xz.subarray(footer - indexSize, footer);
  // Index: 0x00, varint count (1), varint unpadded size, varint uncompressed size, padding, CRC32.
  expect(index[0]).toBe(0);
  expect(index[1]).toBe(1);
  let p = 2;
  let unpadded = 0n;
  for (let shift = 0n; ; shift += 7n) {
    const b = index[p++]!;
    unpadded |= BigInt(b & 0x7f) << shift;
    if (!(b & 0x80)) break;
  }
  const body = [0, 1, ...leb128(unpadded), ...leb128(uncompressed)];
  while (body.length % 4) body.push(0);
  const crc = crc32(Uint8Array.from(body));
  const newIndex = Uint8Array.from([...body, crc & 0xff, (crc >>> 8) & 0xff, (crc >>> 16) & 0xff, crc >>> 24]);
  // Stream footer: CRC32 of (backward size, flags), backward size, flags, "YZ".
  const flags = xz.subarray(footer + 8, footer + 10);
  const backward = newIndex.length / 4 - 1;
  const mid = Uint8Array.from([backward & 0xff, (backward >>> 8) & 0xff, (backward >>> 16) & 0xff, backward >>> 24, flags[0]!, flags[1]!]);
  const fcrc = crc32(mid);
  const newFooter = Uint8Array.from([fcrc & 0xff, (fcrc >>> 8) & 0xff, (fcrc >>> 16) & 0xff, fcrc >>> 24, ...mid, 0x59, 0x5a]);
  return concatBytes([xz.subarray(0, footer - indexSize), newIndex, newFooter]);
}

describe('xz indexes declaring huge sizes (xz container index records)', () => {
  it('an index declaring 2^62 uncompressed bytes is shown as declared and fails verify at the index, without allocating it', async () => {
    const bytes = withDeclaredSize(readFixture('ben/v1_source.standard.xben'), 1n << 62n);
    const o = await exercise(bytes, { name: 'x.xben', converters: ['jsonl'] });
    expect(o.doc!.summary.find((f) => f.name === 'uncompressed bytes')?.value).toBe(1n << 62n);
    // liblzma compares the index with the blocks it decoded: the data is corrupt, located in the xz data.
    const indexAt = bytes.length - 12 - (new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 8, true) + 1) * 4;
    const fail = problems(o.verify).find((c) => c.name === 'decode')!;
    expect(fail).toMatchObject({ status: 'fail', field: 'xz data' });
    expect(fail.offset).toBeGreaterThanOrEqual(indexAt);
    expect(fail.offset).toBeLessThanOrEqual(bytes.length);
    expect(o.converts.get('jsonl')).toMatchObject({ code: 'corrupt', field: 'xz data' });
  });
});

/** A finalized newest-layout bundle of v1_source with the given stored assets, written by our writer. */
async function bundleWith(assets: AssetInput[]): Promise<Uint8Array> {
  const sink = new MemorySink();
  await writeBundle(sink, 'ben', assets, (out) =>
    writeStream(jsonlSamples(new MemorySource(readFixture('ben/v1_source.jsonl'))), out, { format: 'ben', variant: 'mkv_chain' }),
  );
  return sink.bytes();
}

describe('BENDL directories and assets (spec §6)', () => {
  it.each([
    ['older v1 layout', 'ben/spec-derived/spec_example_finalized.bendl', 257],
    ['newest layout', 'ben/independent/flags_set.bendl', 257],
    ['newest layout', 'ben/independent/flags_set.bendl', 0xffffffff],
  ])('rejects entry_count %s > 256 (%s, %i) at the directory offset before allocating entries', async (_layout, path, count) => {
    const bytes = readFixture(path).slice();
    const dv = new DataView(bytes.buffer);
    // Header: u64 directory_offset at 24; the directory starts with u32 entry_count.
    const dir = Number(dv.getBigUint64(24, true));
    dv.setUint32(dir, count, true);
    const o = await exercise(bytes, { name: 'x.bendl', converters: ['jsonl', 'stream', 'assets', 'bendl'] });
    const want = expect.objectContaining({ code: 'limit', offset: dir, field: 'entry count', detail: `${count} directory entries (at most 256)` });
    expect(o.doc!.warnings).toContainEqual(expect.objectContaining({ status: 'fail', name: 'directory', offset: dir, field: 'entry count' }));
    expect(o.errorNodes).toContainEqual(expect.objectContaining({ label: 'directory', range: { offset: dir, length: 0 }, note: 'entry count' }));
    expectProblem(o.verify, { status: 'fail', name: 'directory', offset: dir, field: 'entry count' });
    // The stream is outside the directory and still converts; the assets cannot be located, so
    // extracting them or rewriting the bundle fails instead of dropping them.
    expect(o.converts.has('jsonl')).toBe(false);
    expect(o.converts.get('assets')).toEqual(want);
    expect(o.converts.get('bendl')).toEqual(want);
  });

  it('rejects an asset whose payload_len reaches past the end of the file, at its entry', async () => {
    const bytes = await bundleWith([{ name: 'extra.bin', type: 4, json: false, bytes: new Uint8Array(10), compress: false }]);
    const dv = new DataView(bytes.buffer);
    const dir = Number(dv.getBigUint64(24, true));
    // Entry 0 at dir + 4: u16 type, u16 flags, u16 name_len, u16 reserved, u64 payload_offset (+8), u64 payload_len (+16).
    dv.setBigUint64(dir + 4 + 16, 1n << 40n, true);
    const o = await exercise(bytes, { name: 'x.bendl', converters: ['assets'] });
    expect(o.doc!.warnings).toContainEqual(expect.objectContaining({ status: 'fail', offset: dir + 4 + 8, field: 'asset 0 payload offset' }));
    expect(o.converts.get('assets')).toMatchObject({ code: 'out-of-range', offset: dir + 4 + 8, field: 'asset 0 payload offset' });
  });

  it('a rewrite, the asset extraction and a strict Recover refuse an asset whose CRC32C fails (salvage is the way to drop it)', async () => {
    const bytes = await bundleWith([{ name: 'extra.bin', type: 4, json: false, bytes: ascii('keep me'), compress: false }]);
    // Assets start at 72 (after the header and its tail): damage the payload, not its stored CRC.
    bytes[72]! ^= 1;
    const o = await exercise(bytes, { name: 'x.bendl', converters: ['bendl', 'assets', 'recover'] });
    const want = expect.objectContaining({ code: 'checksum', offset: 72, field: 'asset extra.bin' });
    expect(o.converts.get('bendl')).toEqual(want);
    expect(o.converts.get('assets')).toEqual(want);
    expect(o.converts.get('recover')).toEqual(want);
  });

  it('an xz asset bomb (528 MiB from 85 KiB) stops at the 512 MiB asset cap with a limit error at the asset', async () => {
    // Concatenated xz streams of zeros: one 16 MiB compression, read back as 528 MiB.
    const block = await xzCompress(new Uint8Array(16 << 20), { preset: 1, check: 'crc64' });
    const bomb = concatBytes(Array.from({ length: 33 }, () => block));
    expect(bomb.length).toBeLessThan(128 << 10);
    const bytes = await bundleWith([{ name: 'graph.json', type: 2, flags: 1 | 2 | 4, stored: bomb }]);
    const started = Date.now();
    // Extraction decompresses graph.json (so would the plan view: the same reader, skipped here for time).
    const o = await exercise(bytes, { name: 'x.bendl', converters: ['assets'], panels: false });
    expect(o.converts.get('assets')).toMatchObject({ code: 'limit', field: 'asset graph.json', detail: `decompresses to more than ${512 << 20} bytes` });
    expect(o.converts.get('assets')!.offset).toBeGreaterThan(72);
    expect(o.converts.get('assets')!.offset).toBeLessThanOrEqual(72 + bomb.length);
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 120_000);
});
