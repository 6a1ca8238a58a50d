import { describe, expect, it } from 'vitest';
import { readFixture, readJson } from '../../../../test/helpers/fixtures.js';
import { MemorySource } from '../../io/byteSource.js';
import { xorshiftBytes } from '../../../../test/helpers/bytes.js';
import { catBytes, memoryTarget, openWith, verifyAll } from '../../../../test/helpers/documents.js';
import type { FormatDocument } from '../../model.js';
import { xorbImporters, xorbImportersWith } from './convert.js';
import { xorbHandler } from './handler.js';
import { hashToString } from './hash.js';
import { MAX_XORB_CHUNKS, Scheme } from './model.js';
import { XORB_LIMITS, XorbBuilder, type SchemePolicy } from './writer.js';

interface Truth {
  xorb_hash: string;
  compression_policy: SchemePolicy;
  chunks: { hash: string; scheme_byte: number; unpacked_offset_start: number; unpacked_offset_end: number }[];
}

const open = (bytes: Uint8Array, name?: string) => openWith(xorbHandler, bytes, name);
const verify = verifyAll;
const catRaw = (doc: FormatDocument) => catBytes(doc, 'raw');
const POSITIVE = ['01_none_only', '02_lz4_text', '03_bg4_float32', '05_single_chunk'];
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));
const joined = (parts: readonly Uint8Array[]) => Uint8Array.from(Buffer.concat(parts));

describe('writing xorbs: the same chunks give the reference hashes', () => {
  it.each(POSITIVE)('%s: rebuilt from its input at the recorded boundaries', async (name) => {
    const truth = readJson<Truth>(`xorb/${name}.json`);
    const input = readFixture(`xorb/${name}.input.bin`);
    const build = async (form: 'full' | 'footerless') => {
      const b = await XorbBuilder.create(truth.compression_policy, form);
      for (const c of truth.chunks) b.add(input.subarray(c.unpacked_offset_start, c.unpacked_offset_end));
      return b.finish();
    };
    const full = await build('full');
    expect(hashToString(full.xorbHash)).toBe(truth.xorb_hash);
    expect(full.chunkHashes.map(hashToString)).toEqual(truth.chunks.map((c) => c.hash));
    expect(full.schemes).toEqual(truth.chunks.map((c) => c.scheme_byte));
    const bytes = joined(full.parts);
    const doc = await open(bytes);
    expect((await verify(doc)).filter((c) => c.status === 'fail')).toEqual([]);
    expect(same(await catRaw(doc), input)).toBe(true);
    // The footerless form is a prefix of the full form, as with the reference.
    const footerless = joined((await build('footerless')).parts);
    expect(same(bytes.subarray(0, footerless.length), footerless)).toBe(true);
    // Without LZ4 in play the serializer is deterministic: our file equals xet-core's byte for byte.
    if (full.schemes.every((s) => s === Scheme.None)) expect(same(bytes, readFixture(`xorb/${name}.xorb`))).toBe(true);
  });

  it('falls back to scheme 0 when compression does not shrink a chunk, and auto picks BG4 for floats', async () => {
    const b = await XorbBuilder.create('auto', 'full');
    b.add(xorshiftBytes(1000));
    b.add(readFixture('xorb/03_bg4_float32.input.bin').subarray(0, 65536));
    b.add(new Uint8Array(20000).fill(65));
    expect((await b.finish()).schemes).toEqual([Scheme.None, Scheme.ByteGrouping4LZ4, Scheme.LZ4]);
  });

  it("holds Xet's limits, and closes a xorb at its chunk limit or before its byte limit (footer included)", async () => {
    expect(XORB_LIMITS).toEqual({ maxBytes: 64 << 20, maxChunks: 8192 });
    const many = await XorbBuilder.create('none', 'footerless');
    for (let i = 0; i < MAX_XORB_CHUNKS; i++) many.add(Uint8Array.of(i & 0xff));
    expect(many.fits(1)).toBe(false);
    const limits = { maxBytes: 1 << 20, maxChunks: 8192 };
    const big = await XorbBuilder.create('none', 'full', limits);
    const chunk = new Uint8Array(131072);
    let n = 0;
    while (big.fits(chunk.length)) (big.add(chunk), n++);
    const built = await big.finish();
    // 7 chunks of 8 + 131072 bytes and a footer of 92 + 40 × 7 + 4 fit; an 8th would not.
    expect([n, built.size]).toEqual([7, 7 * 131080 + 376]);
    expect(built.size + 131080 + 40).toBeGreaterThan(limits.maxBytes);
  });
});

describe('converting a xorb', () => {
  it.each(POSITIVE)('%s: footerless ⇄ full reproduces the reference files byte for byte', async (name) => {
    for (const [from, form, to] of [
      [`${name}.xorb`, 'footerless', `${name}.nofooter.xorb`],
      [`${name}.nofooter.xorb`, 'full', `${name}.xorb`],
    ] as const) {
      const doc = await open(readFixture(`xorb/${from}`));
      const target = memoryTarget();
      await doc.converters.find((c) => c.id === 'xorb')!.run(target, {}, { form });
      expect(same(target.files.get('')!, readFixture(`xorb/${to}`)), `${from} → ${form}`).toBe(true);
    }
  });

  it('07: the legacy V0 footer upgrades to the V1 footer xet-core writes for the same chunks', async () => {
    const target = memoryTarget();
    await (await open(readFixture('xorb/07_lz4_text_v0footer.xorb'))).converters.find((c) => c.id === 'xorb')!.run(target, {}, { form: 'full' });
    expect(same(target.files.get('')!, readFixture('xorb/02_lz4_text.xorb'))).toBe(true);
  });

  it('→ raw bytes: the input, with the warning that file boundaries are not recorded', async () => {
    const target = memoryTarget();
    const report = await (await open(readFixture('xorb/02_lz4_text.xorb'))).converters.find((c) => c.id === 'raw')!.run(target, {}, {});
    expect(same(target.files.get('')!, readFixture('xorb/02_lz4_text.input.bin'))).toBe(true);
    expect(report.warnings?.join(' ')).toMatch(/does not record file boundaries/);
  });

  it('→ one file per chunk, named by index and chunk hash', async () => {
    const truth = readJson<Truth>('xorb/03_bg4_float32.json');
    const input = readFixture('xorb/03_bg4_float32.input.bin');
    const target = memoryTarget();
    await (await open(readFixture('xorb/03_bg4_float32.xorb'))).converters.find((c) => c.id === 'chunks')!.run(target, {}, {});
    expect([...target.files.keys()]).toEqual(truth.chunks.map((c, i) => `${i}-${c.hash}.bin`));
    truth.chunks.forEach((c, i) =>
      expect(same(target.files.get(`${i}-${c.hash}.bin`)!, input.subarray(c.unpacked_offset_start, c.unpacked_offset_end))).toBe(true),
    );
  });

  it('refuses to convert a damaged xorb rather than drop a chunk', async () => {
    for (const id of ['raw', 'xorb']) {
      const doc = await open(readFixture('xorb/95_bad_scheme_byte.xorb'));
      await expect(doc.converters.find((c) => c.id === id)!.run(memoryTarget(), {}, {})).rejects.toMatchObject({ name: 'FormatError', offset: 30217 });
    }
  });
});

describe('raw bytes → xorbs', () => {
  const importer = (id: string) => xorbImporters.find((i) => i.id === id)!;

  it.each(['auto', 'none', 'lz4', 'bg4-lz4'])('scheme %s: the chunker cuts the input as xet does, and the xorb gives it back', async (scheme) => {
    const input = readFixture('xorb/02_lz4_text.input.bin');
    const target = memoryTarget();
    await importer('xorb').run(new MemorySource(input), target, {}, { scheme, form: 'full' });
    const doc = await open(target.files.get('')!);
    expect((doc.info() as { chunks: { uncompressedSize: number }[] }).chunks.map((c) => c.uncompressedSize)).toEqual([43314, 47674, 57212, 47749, 70993]);
    expect((await verify(doc)).filter((c) => c.status === 'fail')).toEqual([]);
    expect(same(await catRaw(doc), input)).toBe(true);
  });

  it('splits an input into xorbs by size or by chunk count, each named by its hash, verified and lossless', async () => {
    // 1 MiB of xorshift: the spec's second chunker vector, 18 incompressible chunks.
    const input = xorshiftBytes(1 << 20);
    for (const [limits, expected] of [
      [{ maxBytes: 300_000, maxChunks: 8192 }, 5],
      [{ maxBytes: 64 << 20, maxChunks: 5 }, 4],
    ] as const) {
      const target = memoryTarget();
      const report = await xorbImportersWith(limits)
        .find((i) => i.id === 'xorbs')!
        .run(new MemorySource(input), target, {}, { scheme: 'none', form: 'full' });
      expect(report.summary).toMatch(new RegExp(`18 chunks in ${expected} xorbs`));
      const parts: Uint8Array[] = [];
      for (const [name, bytes] of target.files) {
        expect(bytes.length).toBeLessThanOrEqual(limits.maxBytes);
        const doc = await open(bytes, name);
        expect((doc.info() as { chunkCount: number }).chunkCount).toBeLessThanOrEqual(limits.maxChunks);
        expect((await verify(doc)).filter((c) => c.status === 'fail')).toEqual([]);
        parts.push(await catRaw(doc));
      }
      expect(same(joined(parts), input)).toBe(true);
    }
  });

  it('the single-file importer refuses an input that needs more than one xorb', async () => {
    const one = xorbImportersWith({ maxBytes: 300_000, maxChunks: 8192 }).find((i) => i.id === 'xorb')!;
    await expect(one.run(new MemorySource(xorshiftBytes(1 << 20)), memoryTarget(), {}, { scheme: 'none' })).rejects.toMatchObject({
      code: 'limit',
      message: expect.stringMatching(/--to xorbs/),
    });
  });

  it('refuses an empty input: a xorb holds at least one chunk', async () => {
    await expect(importer('xorb').run(new MemorySource(new Uint8Array(0)), memoryTarget(), {}, {})).rejects.toMatchObject({ name: 'FormatError' });
  });
});
