import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binlens } from '../helpers/cli.js';
import { fixture, listFixtures } from '../helpers/fixtures.js';
import { scratchDir } from '../helpers/scratch.js';

/** `binlens` on fst files, as users and scripts call it (needs `npm run build`). */
const files = listFixtures('fst', ['.fst']).filter((f) => !f.includes('/corrupt/'));
const truth = (f: string) => readFileSync(fixture(f.replace(/\.(fst|vellum)\d\.fst$/, '.tsv')), 'utf8');
const out = scratchDir('fst-cli');

describe('binlens on fst files', () => {
  it.each(files.map((f) => [f]))('cat %s equals its .tsv byte for byte', async (file) => {
    const r = await binlens('cat', fixture(file));
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
      const r = await binlens('convert', tsv, dest, '--to', 'fst', '--set', `kind=${kind}`, '--set', `version=${version}`);
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
    const bad = await binlens('verify', '--json', fixture('fst/corrupt/wide.map.fst3.flip-first-node-byte.fst'));
    expect(bad.code).toBe(1);
    const nodes = JSON.parse(bad.stdout).checks.find((c: { name: string }) => c.name === 'nodes');
    expect(nodes).toMatchObject({ status: 'fail', offset: 18 });
  });

  it('fst → jsonl → fst and fst → tsv → fst give back the same file', async () => {
    for (const via of ['jsonl', 'tsv']) {
      const text = join(out, `small.${via}`);
      const back = join(out, `small-from-${via}.fst`);
      expect((await binlens('convert', fixture('fst/small.map.fst3.fst'), text)).code).toBe(0);
      const r = await binlens('convert', text, back, '--to', 'fst');
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(back).equals(readFileSync(fixture('fst/small.map.fst3.fst'))), via).toBe(true);
    }
  });
});

describe('binlens on damaged fst files (issue 17)', () => {
  const flipCrc = fixture('fst/corrupt/small.map.fst3.flip-crc.fst');
  const badNode = fixture('fst/corrupt/wide.map.fst3.flip-first-node-byte.fst');

  it('cat of a v3 file whose CRC fails exits 1, names the file, the format and the stored checksum, and prints no key', async () => {
    const r = await binlens('cat', flipCrc);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${flipCrc} (fst): damaged: file: masked CRC-32C: stored 0x308afb0f, computed 0xb08afb0f at offset 331`);
  });

  it('convert of a v3 file whose CRC fails exits 1 and leaves no output file', async () => {
    for (const ext of ['tsv', 'jsonl', 'dot', 'fst']) {
      const dest = join(out, `flip-crc.${ext}`);
      const r = await binlens('convert', flipCrc, dest, ...(ext === 'fst' ? ['--set', 'version=1'] : []));
      expect(r.code, `${ext}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toContain('CRC-32C');
      expect(existsSync(dest), ext).toBe(false);
    }
  });

  it('cat --salvage exits 1, prints the keys of every node that decodes (ground truth minus the 40 keys through node @18) and lists the CRC and the node', async () => {
    const r = await binlens('cat', '--salvage', badNode);
    expect(r.code).toBe(1);
    const lost = /^v([^\\]|\\x5c)tail\t/;
    const truthLines = truth('fst/wide.map.fst3.fst').split('\n').filter(Boolean);
    expect(truthLines.filter((l) => lost.test(l))).toHaveLength(40);
    expect(r.stdout).toBe(
      truthLines
        .filter((l) => !lost.test(l))
        .map((l) => `${l}\n`)
        .join(''),
    );
    expect(r.stderr).toContain('left out 2 damaged units');
    expect(r.stderr).toMatch(/file bytes 0–4453: masked CRC-32C/);
    expect(r.stderr).toMatch(/node @18 .* at offset 18, rows 2…/);
  });

  it('convert --salvage exits 1 and writes the salvaged keys', async () => {
    const dest = join(out, 'salvaged.tsv');
    const r = await binlens('convert', '--salvage', badNode, dest);
    expect(r.code, r.stderr).toBe(1);
    expect(readFileSync(dest, 'utf8')).toBe((await binlens('cat', '--salvage', badNode)).stdout);
  });

  it.each(['small.map.vellum1', 'small.map.fst1', 'small.map.fst2'])('verify of %s says the nodes are not covered by any checksum', async (name) => {
    const r = await binlens('verify', fixture(`fst/${name}.fst`));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('not covered: FST nodes: no checksum covers them');
  });

  it('verify of a v3 file has no "not covered" line', async () => {
    const r = await binlens('verify', fixture('fst/small.map.fst3.fst'));
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('not covered');
  });
});
