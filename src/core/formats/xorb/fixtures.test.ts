import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readFixture, readJson } from '../../../../test/helpers/fixtures.js';
import { catBytes, openWith, verifyAll } from '../../../../test/helpers/documents.js';
import type { Check, FormatDocument } from '../../model.js';
import { xorbHandler } from './handler.js';

/** Ground truth of the positive fixtures (../shared/fixtures/xorb/*.json, written by xet-core). */
interface Truth {
  xorb_hash: string;
  decompressed_sha256: string;
  chunks: { header_offset: number; hash: string; sha256: string; uncompressed_size: number }[];
}

const POSITIVE = ['01_none_only', '02_lz4_text', '03_bg4_float32', '05_single_chunk'];
const FORMS = POSITIVE.flatMap((n) => [
  [n, `${n}.xorb`],
  [n, `${n}.nofooter.xorb`],
]);

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

const open = (bytes: Uint8Array, name?: string) => openWith(xorbHandler, bytes, name);
const verify = verifyAll;
const catRaw = (doc: FormatDocument, range: { from?: number; count?: number } = {}) => catBytes(doc, 'raw', range);

describe('xorb fixtures decode to the reference bytes and hashes', () => {
  it.each(FORMS)('%s (%s): every chunk decodes to its recorded sha256, and all bytes to the input', async (name, file) => {
    const truth = readJson<Truth>(`xorb/${name}.json`);
    const doc = await open(readFixture(`xorb/${file}`));
    const all = await catRaw(doc);
    expect(sha256(all)).toBe(truth.decompressed_sha256);
    expect(Buffer.from(all).equals(Buffer.from(readFixture(`xorb/${name}.input.bin`)))).toBe(true);
    for (const [i, c] of truth.chunks.entries()) expect(sha256(await catRaw(doc, { from: i, count: 1 })), `chunk ${i}`).toBe(c.sha256);
  });

  it.each(FORMS)('%s (%s): chunk hashes and xorb hash in string form, and verify passes', async (name, file) => {
    const truth = readJson<Truth>(`xorb/${name}.json`);
    const doc = await open(readFixture(`xorb/${file}`));
    const info = doc.info() as { xorbHash: string; chunks: { hash: string }[] };
    expect(info.xorbHash).toBe(truth.xorb_hash);
    expect(info.chunks.map((c) => c.hash)).toEqual(truth.chunks.map((c) => c.hash));
    const checks = await verify(doc);
    expect(checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(doc.summary.find((f) => f.name === 'xorb hash')?.value).toBe(truth.xorb_hash);
  });

  it('07: the legacy V0 footer verifies, with the hashes and bytes of fixture 02', async () => {
    const truth = readJson<Truth>('xorb/02_lz4_text.json');
    const doc = await open(readFixture('xorb/07_lz4_text_v0footer.xorb'));
    expect((doc.info() as { xorbHash: string }).xorbHash).toBe(truth.xorb_hash);
    expect(sha256(await catRaw(doc))).toBe(truth.decompressed_sha256);
    const checks = await verify(doc);
    expect(checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(checks).toContainEqual(expect.objectContaining({ name: 'xorb hash', status: 'pass' }));
  });

  it('checks a file named by its xorb hash against the name', async () => {
    const truth = readJson<Truth>('xorb/02_lz4_text.json');
    const bytes = readFixture('xorb/02_lz4_text.nofooter.xorb');
    expect(await verify(await open(bytes, `${truth.xorb_hash}.xorb`))).toContainEqual(expect.objectContaining({ name: 'file name', status: 'pass' }));
    const wrong = `${'0'.repeat(63)}1.xorb`;
    expect(await verify(await open(bytes, wrong))).toContainEqual(expect.objectContaining({ name: 'file name', status: 'fail', offset: 0 }));
  });
});

describe('every damaged xorb fails verify with the right check at the right offset', () => {
  const cases: [string, Partial<Check>][] = [
    ['90_truncated_mid_chunk', { name: 'chunk layout', offset: 30221, field: 'chunk payload' }],
    ['91_truncated_mid_header_nofooter', { name: 'chunk layout', offset: 62460, field: 'chunk header' }],
    ['93_corrupt_payload_none', { name: 'chunk 2 hash', offset: 4122, field: 'chunk payload' }],
    ['95_bad_scheme_byte', { name: 'chunk 1 header', offset: 30217, field: 'compression scheme' }],
    ['97_header_uncompressed_size_mismatch', { name: 'chunk 1 payload', offset: 52216, field: 'uncompressed length' }],
  ];
  it.each(cases)('%s', async (name, expected) => {
    const checks = await verify(await open(readFixture(`xorb/${name}.xorb`)));
    expect(checks).toContainEqual(expect.objectContaining({ status: 'fail', ...expected }));
    for (const c of checks.filter((x) => x.status === 'fail')) expect(c.offset).toBeTypeOf('number');
  });

  it('93: the xorb hash of the damaged chunks is the one the reference rebuild computes', async () => {
    const checks = await verify(await open(readFixture('xorb/93_corrupt_payload_none.xorb')));
    expect(checks).toContainEqual(
      expect.objectContaining({
        name: 'xorb hash',
        status: 'fail',
        offset: 24122 + 8,
        detail: expect.stringContaining('computed 874e91482890df4955f57d385a9e8d15aec730d236e5985992d996a6f43e5b4e'),
      }),
    );
  });

  it('90 and 91: the intact chunks before the damage are shown and decode', async () => {
    const doc = await open(readFixture('xorb/91_truncated_mid_header_nofooter.xorb'));
    const truth = readJson<Truth>('xorb/02_lz4_text.json');
    expect(sha256(await catRaw(doc, { from: 1, count: 1 }))).toBe(truth.chunks[1]!.sha256);
    await expect(catRaw(doc)).rejects.toMatchObject({ name: 'FormatError', offset: 62460 });
    const d90 = await open(readFixture('xorb/90_truncated_mid_chunk.xorb'));
    expect(sha256(await catRaw(d90, { from: 0, count: 1 }))).toBe(truth.chunks[0]!.sha256);
  });
});

describe('footer damage is reported, never repaired', () => {
  const full = readFixture('xorb/02_lz4_text.xorb');
  const footerAt = 122015;
  const edit = (at: number, value: number) => Uint8Array.from(full, (b, i) => (i === at ? value : b));
  const failsWith = async (bytes: Uint8Array, expected: Partial<Check>) => {
    const checks = await verify(await open(bytes));
    expect(checks).toContainEqual(expect.objectContaining({ status: 'fail', ...expected }));
  };

  it('a truncated footer (the reference rebuild would silently ignore it)', async () => {
    await failsWith(full.subarray(0, full.length - 10), { name: 'chunk layout', offset: footerAt, field: 'chunk header' });
  });

  it('one flipped bit in the stored xorb hash, with intact chunks', async () => {
    await failsWith(edit(footerAt + 8, full[footerAt + 8]! ^ 1), { name: 'xorb hash', offset: footerAt + 8, field: 'xorb hash' });
  });

  it('a wrong section ident, footer version, boundaries version or section offset', async () => {
    await failsWith(edit(footerAt + 40, 0x41), { name: 'footer', field: 'hash section ident' });
    await failsWith(edit(footerAt + 7, 2), { name: 'footer', offset: footerAt + 7, field: 'footer version' });
    const bs = footerAt + 40 + 12 + 32 * 4;
    await failsWith(edit(bs + 7, 0), { name: 'footer', offset: bs + 7, field: 'boundaries version' });
    await failsWith(edit(full.length - 4 - 24, 0), { name: 'footer', field: 'hashes section offset from end' });
  });

  it('a chunk boundary that does not match the chunks', async () => {
    const bs = footerAt + 40 + 12 + 32 * 4;
    await failsWith(edit(bs + 12, full[bs + 12]! + 1), { name: 'chunk boundaries', offset: 0, field: 'chunk boundary offsets' });
  });

  it('a nonce changes the bytes, not the hash: the file stays valid', async () => {
    const withNonce = Uint8Array.from(full);
    withNonce.set([1, 2, 3, 4], full.length - 20);
    const doc = await open(withNonce);
    const checks = await verify(doc);
    expect(checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(checks).toContainEqual(expect.objectContaining({ name: 'nonce', status: 'info', offset: full.length - 20 }));
    expect((doc.info() as { nonceHex: string }).nonceHex).toBe('01020304');
  });
});

describe('xorb limits', () => {
  /** `n` stored chunks of `size` bytes each, footerless. */
  const storedChunks = (n: number, size: number) => {
    const out = new Uint8Array(n * (8 + size));
    for (let i = 0; i < n; i++)
      out.set([0, size & 0xff, (size >> 8) & 0xff, size >> 16, 0, size & 0xff, (size >> 8) & 0xff, size >> 16, i & 0xff], i * (8 + size));
    return out;
  };

  it('more than 8192 chunks fails verify at the first chunk past the limit', async () => {
    const checks = await verify(await open(storedChunks(8193, 1)));
    expect(checks).toContainEqual(expect.objectContaining({ name: 'chunk count', status: 'fail', offset: 8192 * 9 }));
  });

  it('more than 64 MiB opens without hashing (open stays O(header)), and verify hashes it and fails the size', async () => {
    const doc = await open(storedChunks(513, 131072));
    expect(doc.summary.find((f) => f.name === 'xorb hash')).toMatchObject({ value: null, note: expect.stringMatching(/not computed while opening/) });
    const check = doc.summary.find((f) => f.name === 'hash check');
    expect(check?.value).toBe('not yet (Verify checks it)');
    expect(check?.mark).toBeUndefined();
    const checks = await verify(doc);
    expect(checks).toContainEqual(expect.objectContaining({ name: 'xorb size', status: 'fail', offset: 64 << 20 }));
    expect(checks).toContainEqual(expect.objectContaining({ name: 'xorb hash', status: 'info' }));
    expect((doc.info() as { xorbHash: string | null }).xorbHash).toMatch(/^[0-9a-f]{64}$/);
  });
});
