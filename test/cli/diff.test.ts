import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { binlens } from '../helpers/cli.js';
import { fixture } from '../helpers/fixtures.js';
import { scratchDir } from '../helpers/scratch.js';

const work = scratchDir('diff-cli');

const A = fixture('fst/small.map.fst3.fst');
const B = join(work, 'b.fst');
const DAMAGED = join(work, 'damaged.fst');

beforeAll(async () => {
  // B by construction: the ground truth without "ab", with "abc" 65536 → 7 and a new key "abca" 9.
  const truth = readFileSync(fixture('fst/small.map.tsv'), 'utf8');
  const edited = truth.replace('ab\t65535\n', '').replace('abc\t65536\n', 'abc\t7\nabca\t9\n');
  writeFileSync(join(work, 'b.tsv'), edited);
  const built = await binlens('convert', join(work, 'b.tsv'), B);
  expect(built.code, built.stderr).toBe(0);
  const bytes = readFileSync(A);
  bytes[30] = bytes[30]! ^ 0x01;
  writeFileSync(DAMAGED, bytes);
});

describe('binlens diff', () => {
  it('exits 0 and says "same" for a file and itself', async () => {
    const r = await binlens('diff', A, A);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      `--- A ${A} (fst: FST format version 3)`,
      `+++ B ${A} (fst: FST format version 3)`,
      'summary: same (keys-same 20)',
      '',
    ]);
  });

  it('exits 1 and prints each difference and the counts for an edited copy', async () => {
    const r = await binlens('diff', A, B);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout.split('\n').slice(2)).toEqual([
      'key-removed key ab: removed (value 65535)',
      'value-changed key abc: 65536 → 7',
      'key-added key abca: added (value 9)',
      'summary: 3 differences (key-removed 1, value-changed 1, key-added 1, keys-same 18)',
      '',
    ]);
  });

  it('--json prints one object per difference, then the summary object', async () => {
    const r = await binlens('diff', A, B, '--json');
    expect(r.code, r.stderr).toBe(1);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.slice(0, 3)).toEqual([
      { type: 'difference', kind: 'key-removed', at: 'key ab', text: 'removed (value 65535)', data: { key: 'ab', value: '65535' } },
      { type: 'difference', kind: 'value-changed', at: 'key abc', text: '65536 → 7', data: { key: 'abc', a: '65536', b: '7' } },
      { type: 'difference', kind: 'key-added', at: 'key abca', text: 'added (value 9)', data: { key: 'abca', value: '9' } },
    ]);
    expect(lines[3]).toEqual({
      type: 'summary',
      a: { file: A, format: 'fst', title: 'FST format version 3' },
      b: { file: B, format: 'fst', title: 'FST format version 3' },
      same: false,
      differences: 3,
      counts: { 'key-removed': 1, 'value-changed': 1, 'key-added': 1, 'keys-same': 18 },
    });
    expect(lines.length).toBe(4);
  });

  it('exits 2 with a located message naming the damaged file, and lists no difference', async () => {
    const r = await binlens('diff', A, DAMAGED);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${DAMAGED} (fst): damaged: `);
    expect(r.stderr).toMatch(/offset \d+/);
    expect(r.stdout).not.toMatch(/^key-/m);
  });

  it('exits 2 for a file of the family whose content cannot be decoded, naming where', async () => {
    const broken = fixture('fst/corrupt/small.map.fst3.bad-root-recrc.fst');
    const r = await binlens('diff', A, broken);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${broken} (fst): root address at offset 323`);
    expect(r.stdout).not.toMatch(/differs/);
  });

  it('names the empty key so that a line never ends at "key"', async () => {
    const r = await binlens('diff', fixture('fst/emptykey.map.fst3.fst'), fixture('fst/empty.map.fst3.fst'));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('key-removed key (empty): removed (value 0)\n');
  });

  it('exits 2 for a missing file and for one argument', async () => {
    expect((await binlens('diff', A, join(work, 'missing.fst'))).code).toBe(2);
    const usage = await binlens('diff', A);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('diff takes two files');
  });

  it('compares the structure of files of two families, from the format line on', async () => {
    const r = await binlens('diff', A, fixture('xorb/05_single_chunk.xorb'), '--json');
    expect(r.code, r.stderr).toBe(1);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind?: string; data?: { line?: number } });
    expect(lines[0]).toMatchObject({ kind: 'format-differs', data: { a: 'fst', b: 'xorb' } });
    // Dump line 1 is the dump version, line 2 the file name (not compared), line 3 the format.
    expect(lines[1]).toMatchObject({ kind: 'structure-differs', data: { line: 3 } });
  });
});
