import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { binlens } from '../helpers/cli.js';
import { fixture, readFixture } from '../helpers/fixtures.js';

describe('binlens dump --brief', () => {
  it('prints the brief head and a SHA-256 per section, the host digest matching node:crypto over the spec ranges (fst.md §2)', async () => {
    const bytes = readFixture('fst/one.map.fst3.fst');
    const n = bytes.length;
    const r = await binlens('dump', '--brief', fixture('fst/one.map.fst3.fst'));
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(0, 4)).toEqual(['binlens-dump 1 brief', 'file: one.map.fst3.fst', 'format: fst (FST format version 3)', `size: ${n}`]);
    const digests = [...r.stdout.matchAll(/sha256:([0-9a-f]{64})/g)].map((m) => m[1]);
    const sha = (from: number, to: number) => createHash('sha256').update(bytes.subarray(from, to)).digest('hex');
    expect(digests).toEqual([sha(0, 16), sha(16, n - 20), sha(n - 20, n - 4), sha(n - 4, n)]);
  });

  it('without --brief still prints the full structure (every node, no digests)', async () => {
    const r = await binlens('dump', fixture('fst/one.map.fst3.fst'));
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('binlens-dump 1');
    expect(r.stdout).toContain('\nstructure:\n');
    expect(r.stdout).not.toContain('sha256:');
  });
});
