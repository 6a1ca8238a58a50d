import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binlens } from '../helpers/cli.js';
import { fixture, listFixtures } from '../helpers/fixtures.js';

/** `binlens` on fst files, as users and scripts call it (needs `npm run build`). */
const files = listFixtures('fst', ['.fst']).filter((f) => !f.includes('/corrupt/'));
const truth = (f: string) => readFileSync(fixture(f.replace(/\.(fst|vellum)\d\.fst$/, '.tsv')), 'utf8');
const out = mkdtempSync(join(tmpdir(), 'binlens-fst-cli-'));

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('binlens on fst files', () => {
  it.each(files.map((f) => [f]))('cat %s equals its .tsv byte for byte', async (file) => {
    const r = (await binlens('cat', fixture(file)));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout === truth(file)).toBe(true);
  });

  it('convert TSV → fst writes each version byte for byte as its reference producer did, and it verifies', async () => {
    for (const [file, kind, version] of [
      ['fst/wide.map.fst3.fst', 'map', '3'],
      ['fst/wide.set.fst2.fst', 'set', '2'],
      ['fst/small.map.vellum1.fst', 'map', '1'],
    ] as const) {
      const dest = join(out, `${version}-${kind}.fst`);
      const tsv = fixture(file.replace(/\.(fst|vellum)\d\.fst$/, '.tsv'));
      const r = (await binlens('convert', tsv, dest, '--to', 'fst', '--set', `kind=${kind}`, '--set', `version=${version}`));
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(dest).equals(readFileSync(fixture(file))), file).toBe(true);
      expect((await binlens('verify', dest)).code).toBe(0);
    }
  });

  it('info --json gives version, kind, key count, root and checksum state', async () => {
    const info = JSON.parse((await binlens('info', '--json', fixture('fst/small.set.fst3.fst'))).stdout);
    expect(info).toMatchObject({ format: 'fst', version: '3', kind: 'set', keyCount: '20', rootAddress: '147', checksum: 'present' });
    const v1 = JSON.parse((await binlens('info', '--json', fixture('fst/emptykey.map.vellum1.fst'))).stdout);
    expect(v1).toMatchObject({ version: '1', keyCount: '1', rootAddress: '0', checksum: 'absent', size: 32 });
  });

  it('verify: v3 checksum ok, v1 "no checksum" with the walk, and damaged files fail with offsets', async () => {
    const ok = JSON.parse((await binlens('verify', '--json', fixture('fst/small.map.fst3.fst'))).stdout);
    expect(ok.ok).toBe(true);
    expect(ok.checks.find((c: { name: string }) => c.name === 'checksum').status).toBe('pass');
    const v1 = JSON.parse((await binlens('verify', '--json', fixture('fst/small.map.vellum1.fst'))).stdout);
    expect(v1.checks.find((c: { name: string }) => c.name === 'checksum')).toMatchObject({ status: 'info', ok: true });
    expect(v1.checks.find((c: { name: string }) => c.name === 'nodes')).toMatchObject({ status: 'pass' });
    const bad = (await binlens('verify', '--json', fixture('fst/corrupt/wide.map.fst3.flip-first-node-byte.fst')));
    expect(bad.code).toBe(1);
    const nodes = JSON.parse(bad.stdout).checks.find((c: { name: string }) => c.name === 'nodes');
    expect(nodes).toMatchObject({ status: 'fail', offset: 18 });
  });

  it('fst → jsonl → fst and fst → tsv → fst give back the same file', async () => {
    for (const via of ['jsonl', 'tsv']) {
      const text = join(out, `small.${via}`);
      const back = join(out, `small-from-${via}.fst`);
      expect((await binlens('convert', fixture('fst/small.map.fst3.fst'), text)).code).toBe(0);
      const r = (await binlens('convert', text, back, '--to', 'fst'));
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(back).equals(readFileSync(fixture('fst/small.map.fst3.fst'))), via).toBe(true);
    }
  });
});
