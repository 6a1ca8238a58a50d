import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, binlens } from '../helpers/cli.js';
import { fixture, readJson } from '../helpers/fixtures.js';
import { scratchDir } from '../helpers/scratch.js';

const POSITIVE = ['01_none_only', '02_lz4_text', '03_bg4_float32', '05_single_chunk'];
const FILES: [string, string][] = [
  ...POSITIVE.flatMap((n): [string, string][] => [
    [n, `${n}.xorb`],
    [n, `${n}.nofooter.xorb`],
  ]),
  ['02_lz4_text', '07_lz4_text_v0footer.xorb'],
];

/** stdout as bytes: cat --format raw prints binary. */
function catRaw(path: string, ...args: string[]): { code: number; bytes: Buffer; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, 'cat', path, '--format', 'raw', ...args], { maxBuffer: 256 << 20 });
  return { code: r.status ?? -1, bytes: r.stdout, stderr: String(r.stderr) };
}

const work = scratchDir('xorb-cli');

describe('binlens on xorbs', () => {
  it.each(FILES)('cat --format raw of %s (%s) prints exactly the input bytes', (name, file) => {
    const r = catRaw(fixture(`xorb/${file}`));
    expect(r.code, r.stderr).toBe(0);
    expect(r.bytes.equals(readFileSync(fixture(`xorb/${name}.input.bin`)))).toBe(true);
  });

  it('cat --from/--count select chunks', () => {
    const truth = readJson<{ chunks: { sha256: string }[] }>('xorb/03_bg4_float32.json');
    const r = catRaw(fixture('xorb/03_bg4_float32.xorb'), '--from', '2', '--count', '1');
    expect(createHash('sha256').update(r.bytes).digest('hex')).toBe(truth.chunks[2]!.sha256);
  });

  it.each(FILES)('info --json of %s (%s) has the xorb hash in xet string form and the chunk list', async (name, file) => {
    const truth = readJson<{
      xorb_hash: string;
      chunks: { hash: string; header_offset: number; scheme: string; compressed_size: number; uncompressed_size: number }[];
    }>(`xorb/${name}.json`);
    const r = await binlens('info', fixture(`xorb/${file}`), '--json');
    expect(r.code, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout) as {
      xorbHash: string;
      chunks: { offset: number; scheme: string; compressedSize: number; uncompressedSize: number; hash: string }[];
    };
    expect(info.xorbHash).toBe(truth.xorb_hash);
    expect(info.chunks.map((c) => [c.offset, c.scheme, c.compressedSize, c.uncompressedSize, c.hash])).toEqual(
      truth.chunks.map((c) => [c.header_offset, c.scheme, c.compressed_size, c.uncompressed_size, c.hash]),
    );
  });

  it.each([
    ['90_truncated_mid_chunk', 30221],
    ['91_truncated_mid_header_nofooter', 62460],
    ['93_corrupt_payload_none', 4122],
    ['95_bad_scheme_byte', 30217],
    ['97_header_uncompressed_size_mismatch', 52216],
  ])('verify %s: exit 1 with a finding at offset %i', async (name, offset) => {
    const r = await binlens('verify', fixture(`xorb/${name}.xorb`), '--json');
    expect(r.code, r.stderr).toBe(1);
    const json = JSON.parse(r.stdout) as { ok: boolean; checks: { ok: boolean; offset?: number }[] };
    expect(json.ok).toBe(false);
    expect(json.checks).toContainEqual(expect.objectContaining({ ok: false, offset }));
  });

  it('cat of a damaged xorb prints the readable chunks, then fails with exit 1 and the location', () => {
    const r = catRaw(fixture('xorb/91_truncated_mid_header_nofooter.xorb'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/offset 62460/);
    expect(r.bytes.length).toBe(65536 + 70001);
  });

  it('convert raw → xorb (content-defined chunks) → raw gives the input back, and the xorb verifies', async () => {
    const input = join(work, 'input.csv');
    writeFileSync(input, readFileSync(fixture('xorb/02_lz4_text.input.bin')));
    const out = join(work, 'input.xorb');
    const made = await binlens('convert', input, out, '--to', 'xorb', '--set', 'scheme=auto');
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toMatch(/266942 bytes → 5 chunks in 1 xorb/);
    expect((await binlens('verify', out)).code).toBe(0);
    const back = join(work, 'back.bin');
    const raw = await binlens('convert', out, back, '--to', 'raw');
    expect(raw.code, raw.stderr).toBe(0);
    expect(raw.stderr).toMatch(/does not record file boundaries/);
    expect(readFileSync(back).equals(readFileSync(input))).toBe(true);
  });

  it('convert to a folder of hash-named xorbs, and to one file per chunk', async () => {
    const input = join(work, 'weights.bin');
    writeFileSync(input, readFileSync(fixture('xorb/03_bg4_float32.input.bin')));
    const folder = join(work, 'xorbs');
    expect((await binlens('convert', input, folder, '--to', 'xorbs')).code).toBe(0);
    const [name] = readdirSync(folder);
    expect(name).toMatch(/^[0-9a-f]{64}\.xorb$/);
    expect((await binlens('verify', join(folder, name!))).stdout).toMatch(/ok {3}file name: the file is named by its xorb hash/);
    const chunks = join(work, 'chunks');
    expect((await binlens('convert', fixture('xorb/02_lz4_text.xorb'), chunks, '--to', 'chunks')).code).toBe(0);
    expect(readdirSync(chunks)).toHaveLength(4);
  });

  it('verify says what no checksum covers: all chunks of a footerless xorb, the boundaries and nonce of a full one', async () => {
    const footerless = await binlens('verify', fixture('xorb/02_lz4_text.nofooter.xorb'));
    expect(footerless.code, footerless.stderr).toBe(0);
    expect(footerless.stdout).toMatch(/not covered: chunks \(a footerless xorb stores no hashes\): no checksum covers them/);
    const full = await binlens('verify', fixture('xorb/02_lz4_text.xorb'));
    expect(full.code, full.stderr).toBe(0);
    expect(full.stdout).toMatch(/not covered: footer chunk boundaries and unpacked offsets/);
    expect(full.stdout).toMatch(/not covered: footer reserved bytes \(the uniqueness nonce\)/);
    expect(full.stdout).not.toMatch(/not covered: chunks/);
  });

  describe('a chunk whose bytes no longer match its BLAKE3 hash in the footer (issue 17)', () => {
    // 01_none_only: stored chunks of 1, 4097 and 20000 bytes; chunk 2's header at 4114, payload at 4122.
    const truth = readJson<{ chunks: { payload_offset: number; unpacked_offset_start: number }[] }>('xorb/01_none_only.json');
    const input = readFileSync(fixture('xorb/01_none_only.input.bin'));
    const damaged = join(work, 'damaged.xorb');
    const bytes = readFileSync(fixture('xorb/01_none_only.xorb'));
    bytes[truth.chunks[2]!.payload_offset + 100]! ^= 0xff;
    writeFileSync(damaged, bytes);
    const intact = input.subarray(0, truth.chunks[2]!.unpacked_offset_start);
    const listed = /chunk 2 bytes 4114–24122, rows 2: BLAKE3 hash [0-9a-f]{64} differs from the footer's [0-9a-f]{64} \(decompressed bytes 4098–24098\)/;

    it('cat --format raw writes the chunks before it, then exits 1 naming the file, format, chunk, offset and failed hash', () => {
      const r = catRaw(damaged);
      expect(r.code).toBe(1);
      expect(r.bytes.equals(intact)).toBe(true);
      expect(r.stderr).toContain(`${damaged} (xorb): damaged: chunk 2: BLAKE3 hash`);
      expect(r.stderr).toMatch(/at offset 4122 \(0x101a\)/);
    });

    it.each(['raw', 'chunks', 'xorb'])('convert --to %s exits 1 and leaves no output', async (to) => {
      const out = join(work, `damaged-${to}`);
      const r = await binlens('convert', damaged, out, '--to', to);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/damaged: chunk 2: BLAKE3 hash .* at offset 4122/);
      expect(existsSync(out)).toBe(false);
    });

    it('cat --salvage writes every intact chunk, lists the damaged one with its bytes, and exits 1', () => {
      const r = catRaw(damaged, '--salvage');
      expect(r.code).toBe(1);
      expect(r.bytes.equals(intact)).toBe(true);
      expect(r.stderr).toMatch(/salvaged; left out 1 damaged unit:/);
      expect(r.stderr).toMatch(listed);
    });

    it('convert --salvage to a xorb writes one that verifies, of the intact chunks, and exits 1 with the list', async () => {
      const out = join(work, 'salvaged.xorb');
      const r = await binlens('convert', damaged, out, '--to', 'xorb', '--salvage');
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(listed);
      expect((await binlens('verify', out)).code).toBe(0);
      expect(catRaw(out).bytes.equals(intact)).toBe(true);
    });

    it('the undamaged file exits 0 with --salvage too, and lists nothing', () => {
      const r = catRaw(fixture('xorb/01_none_only.xorb'), '--salvage');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.bytes.equals(input)).toBe(true);
    });
  });

  describe('a footerless xorb named by its hash: cat and convert check the chunks against the name first', () => {
    // 01_none_only: three stored chunks (1, 4097 and 20000 bytes); its xorb hash from the fixture's ground truth.
    const truth = readJson<{ xorb_hash: string; chunks: { payload_offset: number }[] }>('xorb/01_none_only.json');
    const input = readFileSync(fixture('xorb/01_none_only.input.bin'));
    const footerless = readFileSync(fixture('xorb/01_none_only.nofooter.xorb'));
    const dir = join(work, 'cas');
    mkdirSync(dir, { recursive: true });
    const named = join(dir, `${truth.xorb_hash}.xorb`);
    writeFileSync(named, footerless);
    // Chunk 2 stored: a flipped payload byte decodes as well, and only the name's hash can tell.
    const flipped = Buffer.from(footerless);
    flipped[truth.chunks[2]!.payload_offset + 100]! ^= 0xff;
    const damagedDir = join(work, 'cas-damaged');
    mkdirSync(damagedDir, { recursive: true });
    const damaged = join(damagedDir, `${truth.xorb_hash}.xorb`);
    writeFileSync(damaged, flipped);
    const mismatch = new RegExp(`damaged: chunks 0–2 \\(the file name's xorb hash\\): the chunks hash to [0-9a-f]{64}, the file name says ${truth.xorb_hash}`);

    it('the intact file: cat --format raw gives the input, exit 0; verify counts the chunks as covered by the name', async () => {
      const r = catRaw(named);
      expect(r.code, r.stderr).toBe(0);
      expect(r.bytes.equals(input)).toBe(true);
      const v = await binlens('verify', named);
      expect(v.code, v.stderr).toBe(0);
      expect(v.stdout).toMatch(/ok {3}file name: the file is named by its xorb hash/);
      expect(v.stdout).not.toMatch(/not covered: chunks/);
    });

    it('with a flipped stored byte: cat writes nothing and exits 1 naming the file, the hash and the name', () => {
      const r = catRaw(damaged);
      expect(r.code).toBe(1);
      expect(r.bytes.length).toBe(0);
      expect(r.stderr).toContain(`${damaged} (xorb): `);
      expect(r.stderr).toMatch(mismatch);
    });

    it('with a flipped stored byte: convert exits 1 and leaves no output; salvage writes nothing and lists the chunks', async () => {
      const out = join(work, 'cas-out.bin');
      const r = await binlens('convert', damaged, out, '--to', 'raw');
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(mismatch);
      expect(existsSync(out)).toBe(false);
      const salvaged = catRaw(damaged, '--salvage');
      expect(salvaged.code).toBe(1);
      expect(salvaged.bytes.length).toBe(0);
      expect(salvaged.stderr).toMatch(/salvaged; left out 1 damaged unit:/);
    });

    it('the same bytes under a name that is no hash are not checked (nothing states a hash): exit 0', () => {
      const plain = join(damagedDir, 'plain.xorb');
      writeFileSync(plain, flipped);
      const r = catRaw(plain);
      expect(r.code, r.stderr).toBe(0);
      expect(r.bytes.length).toBe(input.length);
    });
  });
});
