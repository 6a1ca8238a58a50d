import { describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { binlens, CLI } from '../helpers/cli.js';
import { allFixtures, fixture } from '../helpers/fixtures.js';

const all = allFixtures();

describe('binlens info', () => {
  it.each(all.filter((f) => !f.negative).map((f) => [f.path, f.family] as const))('%s --json names %s', async (path, family) => {
    const r = await binlens('info', fixture(path), '--json');
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { format: string; file: string; size: number };
    expect(json.format).toBe(family);
    expect(json.file).toBe(fixture(path));
  });

  it('prints a readable summary without --json', async () => {
    const r = await binlens('info', fixture('fst/tiny.map.fst3.fst'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('format: fst (FST format version 3)');
    expect(r.stdout).toContain('keys (footer): 3');
  });

  it("exits 2 with the reader's located reason for a file it cannot read", async () => {
    const r = await binlens('info', fixture('fst/corrupt/small.map.fst3.version9.fst'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown fst format version 9/);
    expect(r.stderr).toMatch(/offset 0/);
  });
});

describe('binlens verify', () => {
  it.each(all.filter((f) => f.negative).map((f) => [f.path] as const))('%s: exit 0, 1 or 2, never a crash', async (path) => {
    const r = await binlens('verify', fixture(path), '--json');
    expect([0, 1, 2]).toContain(r.code);
    expect(r.stderr).not.toMatch(/internal error|TypeError|RangeError/);
    const json = JSON.parse(r.stdout) as { ok: boolean; checks: { ok: boolean; offset?: number }[] };
    expect(json.ok).toBe(r.code === 0);
    for (const c of json.checks.filter((x) => !x.ok)) expect(c.offset).toBeTypeOf('number');
  });

  it('fails (exit 1) or refuses (exit 2) the structurally damaged fixtures', async () => {
    const damaged = [
      'ben/negative/bad_banner.standard.ben',
      'ben/negative/trunc_midframe.standard.ben',
      'ben/negative/zero_count.mkv_chain.ben',
      'ben/negative/trunc.mkv_chain.xben',
      'xorb/90_truncated_mid_chunk.xorb',
      'xorb/91_truncated_mid_header_nofooter.xorb',
      'xorb/95_bad_scheme_byte.xorb',
      'xorb/97_header_uncompressed_size_mismatch.xorb',
      'fst/corrupt/small.map.fst3.flip-crc.fst',
      'fst/corrupt/small.map.vellum1.bad-root.fst',
      'fst/corrupt/wide.map.fst3.version9.fst',
    ];
    for (const path of damaged) expect([1, 2], path).toContain((await binlens('verify', fixture(path))).code);
  });

  it("gives one object for one file and an array for several, with the contract's fields", async () => {
    const one = JSON.parse((await binlens('verify', fixture('bindu/sample.bindu'), '--json')).stdout) as Record<string, unknown>;
    expect(one).toMatchObject({ file: fixture('bindu/sample.bindu'), format: 'bindu', ok: true, checks: expect.any(Array) });
    const many = await binlens('verify', fixture('bindu/sample.bindu'), fixture('xorb/95_bad_scheme_byte.xorb'), '--json');
    expect(many.code).toBe(1);
    const list = JSON.parse(many.stdout) as { format: string; ok: boolean }[];
    expect(list.map((v) => [v.format, v.ok])).toEqual([
      ['bindu', true],
      ['xorb', false],
    ]);
  });

  it('verifies the Binlens files of a folder recursively', async () => {
    const r = await binlens('verify', fixture('bindu'));
    expect(r.code).toBe(0);
    expect(r.stdout.match(/^OK {3}/gm)).toHaveLength(4);
  });

  it('--jobs verifies on worker threads with the same verdicts, exit code and JSON order as one at a time', async () => {
    for (const folder of [fixture('xorb'), fixture('fst')]) {
      const one = await binlens('verify', folder, '--json');
      const pooled = await binlens('verify', folder, '--json', '--jobs', '3');
      expect(pooled.code).toBe(one.code);
      expect(JSON.parse(pooled.stdout)).toEqual(JSON.parse(one.stdout));
      const text = await binlens('verify', folder, '--jobs', '2');
      const lines = (out: string) =>
        out
          .split('\n')
          .filter((l) => /^(OK|FAIL)/.test(l))
          .sort();
      expect(lines(text.stdout)).toEqual(lines((await binlens('verify', folder)).stdout));
    }
  });

  it('--jobs threads keep a code cache of their own, for the checks the main thread never compiles', async () => {
    const dir = join(dirname(CLI), 'cli-cache');
    const workerCaches = () => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('-worker.bin')) : []);
    for (const f of workerCaches()) rmSync(join(dir, f));
    await binlens('verify', fixture('xorb'), '--jobs', '2');
    expect(workerCaches()).toHaveLength(1);
  });

  it('--jobs takes a positive integer', async () => {
    const r = await binlens('verify', fixture('xorb'), '--jobs', '0');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--jobs takes a positive integer');
  });
});

describe('binlens start', () => {
  it('takes the code cache the last start wrote: its V8 flags are set before the bundle compiles', async () => {
    // A kind of its own (the file's extension), so no other test's run writes this cache meanwhile.
    const tmp = mkdtempSync(join(tmpdir(), 'binlens-cache-'));
    const file = join(tmp, 'tiny.flagtest');
    copyFileSync(fixture('fst/tiny.map.fst3.fst'), file);
    const dir = join(dirname(CLI), 'cli-cache');
    const caches = () => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('-verify-flagtest.bin')) : []);
    try {
      for (const f of caches()) rmSync(join(dir, f));
      // verify: the command that raises V8's interrupt budget (cli/tiering.ts).
      expect((await binlens('verify', file)).code).toBe(0);
      expect(caches()).toHaveLength(1);
      const written = statSync(join(dir, caches()[0]!)).mtimeMs;
      expect((await binlens('verify', file)).code).toBe(0);
      // A cache V8 refused (made under other flags) would have been written again.
      expect(statSync(join(dir, caches()[0]!)).mtimeMs).toBe(written);
    } finally {
      for (const f of caches()) rmSync(join(dir, f));
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('binlens dump', () => {
  it('prints the annotated structure, identical on every run', async () => {
    const a = await binlens('dump', fixture('xorb/05_single_chunk.xorb'));
    expect(a.code).toBe(0);
    expect(a.stdout.split('\n').slice(0, 3)).toEqual(['binlens-dump 1', 'file: 05_single_chunk.xorb', 'format: xorb (xorb with footer V1)']);
    expect(a.stdout).toMatch(/^00000000 {7}52 {4}chunks = 1 chunk$/m);
    expect((await binlens('dump', fixture('xorb/05_single_chunk.xorb'))).stdout).toBe(a.stdout);
  });
});

describe('binlens usage errors', () => {
  it('exits 2 with usage for a missing command, an unknown command or a bad option', async () => {
    expect((await binlens()).code).toBe(2);
    expect((await binlens('frobnicate', 'x')).stderr).toMatch(/unknown command/);
    expect((await binlens('cat', fixture('fst/tiny.map.fst3.fst'), '--from', '-3')).code).toBe(2);
    expect((await binlens('info', '/nonexistent/file.fst')).stderr).toMatch(/ENOENT|no such file/);
  });
});
