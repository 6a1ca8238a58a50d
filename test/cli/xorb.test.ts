import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, binlens } from '../helpers/cli.js';
import { fixture, readJson } from '../helpers/fixtures.js';

const POSITIVE = ['01_none_only', '02_lz4_text', '03_bg4_float32', '05_single_chunk'];
const FILES: [string, string][] = [...POSITIVE.flatMap((n): [string, string][] => [[n, `${n}.xorb`], [n, `${n}.nofooter.xorb`]]), ['02_lz4_text', '07_lz4_text_v0footer.xorb']];

/** stdout as bytes: cat --format raw prints binary. */
function catRaw(path: string, ...args: string[]): { code: number; bytes: Buffer; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, 'cat', path, '--format', 'raw', ...args], { maxBuffer: 256 << 20 });
  return { code: r.status ?? -1, bytes: r.stdout, stderr: String(r.stderr) };
}

const work = mkdtempSync(join(tmpdir(), 'binlens-xorb-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

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
    const truth = readJson<{ xorb_hash: string; chunks: { hash: string; header_offset: number; scheme: string; compressed_size: number; uncompressed_size: number }[] }>(`xorb/${name}.json`);
    const r = (await binlens('info', fixture(`xorb/${file}`), '--json'));
    expect(r.code, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout) as { xorbHash: string; chunks: { offset: number; scheme: string; compressedSize: number; uncompressedSize: number; hash: string }[] };
    expect(info.xorbHash).toBe(truth.xorb_hash);
    expect(info.chunks.map((c) => [c.offset, c.scheme, c.compressedSize, c.uncompressedSize, c.hash])).toEqual(truth.chunks.map((c) => [c.header_offset, c.scheme, c.compressed_size, c.uncompressed_size, c.hash]));
  });

  it.each([
    ['90_truncated_mid_chunk', 30221],
    ['91_truncated_mid_header_nofooter', 62460],
    ['93_corrupt_payload_none', 4122],
    ['95_bad_scheme_byte', 30217],
    ['97_header_uncompressed_size_mismatch', 52216],
  ])('verify %s: exit 1 with a finding at offset %i', async (name, offset) => {
    const r = (await binlens('verify', fixture(`xorb/${name}.xorb`), '--json'));
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
    const made = (await binlens('convert', input, out, '--to', 'xorb', '--set', 'scheme=auto'));
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toMatch(/266942 bytes → 5 chunks in 1 xorb/);
    expect((await binlens('verify', out)).code).toBe(0);
    const back = join(work, 'back.bin');
    const raw = (await binlens('convert', out, back, '--to', 'raw'));
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
});
