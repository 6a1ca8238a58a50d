import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binlens } from '../helpers/cli.js';
import { fixture, readFixture } from '../helpers/fixtures.js';

const FILES = ['sample', 'schemaless-int64-delta', 'nullable-float-dict-bloom-sealed', 'preamble8-variant'];

describe('binlens with Bindu files', () => {
  it.each(FILES)('cat %s --format jsonl prints the reference rows byte for byte', async (name) => {
    const r = (await binlens('cat', fixture(`bindu/${name}.bindu`), '--format', 'jsonl'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(readFileSync(fixture(`bindu/${name}.rows.jsonl`), 'utf8'));
  });

  it('cat --from/--count prints a window of rows, decoding only the chunks it needs', async () => {
    const all = readFileSync(fixture('bindu/schemaless-int64-delta.rows.jsonl'), 'utf8').split('\n');
    const r = (await binlens('cat', fixture('bindu/schemaless-int64-delta.bindu'), '--from', '127', '--count', '3'));
    expect(r.stdout).toBe(`${all.slice(127, 130).join('\n')}\n`);
  });

  it('converts CSV → bindu (--to bindu: a .csv could also become a byte stream) → CSV identically, with options, and the result verifies', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'binlens-bindu-'));
    const csv = 'id,city,temp,note\n1,Zürich,21.5,"a, ""quoted"" note"\n2,東京,,""\n3,Zürich,-4.25,\n';
    writeFileSync(join(dir, 'in.csv'), csv);
    const w = (await binlens('convert', join(dir, 'in.csv'), join(dir, 'out.bindu'), '--to', 'bindu', '--set', 'seal=true', '--set', 'bloom=city', '--set', 'sorted=id', '--set', 'chunkRows=2'));
    expect(w.code, w.stderr).toBe(0);
    expect((await binlens('verify', join(dir, 'out.bindu'))).code).toBe(0);
    expect((await binlens('cat', join(dir, 'out.bindu'), '--format', 'csv')).stdout).toBe(csv);
    const info = JSON.parse((await binlens('info', join(dir, 'out.bindu'), '--json')).stdout) as { fileFlags: string; columns: { name: string; type: { code: string } }[] };
    expect(info.fileFlags).toBe('SCHEMA_EMBEDDED, SEALED, HAS_INDEXES');
    expect(info.columns.map((c) => [c.name, c.type.code])).toEqual([
      ['id', 'INT'],
      ['city', 'STRING'],
      ['temp', 'FLOAT'],
      ['note', 'STRING'],
    ]);
  });

  it('stores any file as a byte stream and gives it back bit-identical', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'binlens-bindu-'));
    const w = (await binlens('convert', fixture('bindu/MANIFEST.md'), join(dir, 'manifest.bindu')));
    expect(w.code, w.stderr).toBe(0);
    expect((await binlens('verify', join(dir, 'manifest.bindu'))).stdout).toContain('source digest');
    expect((await binlens('convert', join(dir, 'manifest.bindu'), join(dir, 'manifest.md'), '--to', 'bytes')).code).toBe(0);
    expect(readFileSync(join(dir, 'manifest.md'))).toEqual(readFileSync(fixture('bindu/MANIFEST.md')));
    expect((await binlens('cat', join(dir, 'manifest.bindu'), '--format', 'raw')).stdout).toBe(readFileSync(fixture('bindu/MANIFEST.md'), 'utf8'));
  });

  it('verify exits 1 and names the frame of a flipped byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'binlens-bindu-'));
    const bytes = readFixture('bindu/sample.bindu').slice();
    bytes[300]! ^= 0xff;
    writeFileSync(join(dir, 'bad.bindu'), bytes);
    const r = (await binlens('verify', join(dir, 'bad.bindu'), '--json'));
    expect(r.code).toBe(1);
    const v = JSON.parse(r.stdout) as { checks: { name: string; ok: boolean; offset?: number }[] };
    expect(v.checks.filter((c) => !c.ok).map((c) => [c.name, c.offset])).toContainEqual(['frame CRC', 262]);
  });

  it('refuses bytes without the magic: the official 21-byte .sbp wire is not an open-v1 container', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'binlens-bindu-'));
    writeFileSync(join(dir, 'const.bindu'), Uint8Array.from({ length: 21 }, (_, i) => i * 11));
    const r = (await binlens('info', join(dir, 'const.bindu')));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not an open-v1 container');
  });
});
