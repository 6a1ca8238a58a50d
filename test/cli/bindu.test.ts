import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binlens } from '../helpers/cli.js';
import { fixture, readFixture, readJson } from '../helpers/fixtures.js';
import { CRITICAL_FRAME, caseFile, withDescribeOnlyColumn } from '../../src/core/formats/bindu/cases.testkit.js';
import { scratchDir } from '../helpers/scratch.js';

const FILES = ['sample', 'schemaless-int64-delta', 'nullable-float-dict-bloom-sealed', 'preamble8-variant'];

describe('binlens with Bindu files', () => {
  const dir = scratchDir('bindu');

  it.each(FILES)('cat %s --format jsonl prints the reference rows byte for byte', async (name) => {
    const r = await binlens('cat', fixture(`bindu/${name}.bindu`), '--format', 'jsonl');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(readFileSync(fixture(`bindu/${name}.rows.jsonl`), 'utf8'));
  });

  it('cat --from/--count prints a window of rows, decoding only the chunks it needs', async () => {
    const all = readFileSync(fixture('bindu/schemaless-int64-delta.rows.jsonl'), 'utf8').split('\n');
    const r = await binlens('cat', fixture('bindu/schemaless-int64-delta.bindu'), '--from', '127', '--count', '3');
    expect(r.stdout).toBe(`${all.slice(127, 130).join('\n')}\n`);
  });

  it('converts CSV → bindu (--to bindu: a .csv could also become a byte stream) → CSV identically, with options, and the result verifies', async () => {
    const csv = 'id,city,temp,note\n1,Zürich,21.5,"a, ""quoted"" note"\n2,東京,,""\n3,Zürich,-4.25,\n';
    writeFileSync(join(dir, 'in.csv'), csv);
    const w = await binlens(
      'convert',
      join(dir, 'in.csv'),
      join(dir, 'out.bindu'),
      '--to',
      'bindu',
      '--set',
      'seal=true',
      '--set',
      'bloom=city',
      '--set',
      'sorted=id',
      '--set',
      'chunkRows=2',
    );
    expect(w.code, w.stderr).toBe(0);
    expect((await binlens('verify', join(dir, 'out.bindu'))).code).toBe(0);
    expect((await binlens('cat', join(dir, 'out.bindu'), '--format', 'csv')).stdout).toBe(csv);
    const info = JSON.parse((await binlens('info', join(dir, 'out.bindu'), '--json')).stdout) as {
      fileFlags: string;
      columns: { name: string; type: { code: string } }[];
    };
    expect(info.fileFlags).toBe('SCHEMA_EMBEDDED, SEALED, HAS_INDEXES');
    expect(info.columns.map((c) => [c.name, c.type.code])).toEqual([
      ['id', 'INT'],
      ['city', 'STRING'],
      ['temp', 'FLOAT'],
      ['note', 'STRING'],
    ]);
  });

  it('stores any file as a byte stream and gives it back bit-identical', async () => {
    const w = await binlens('convert', fixture('bindu/MANIFEST.md'), join(dir, 'manifest.bindu'));
    expect(w.code, w.stderr).toBe(0);
    expect((await binlens('verify', join(dir, 'manifest.bindu'))).stdout).toContain('source digest');
    expect((await binlens('convert', join(dir, 'manifest.bindu'), join(dir, 'manifest.md'), '--to', 'bytes')).code).toBe(0);
    expect(readFileSync(join(dir, 'manifest.md'))).toEqual(readFileSync(fixture('bindu/MANIFEST.md')));
    expect((await binlens('cat', join(dir, 'manifest.bindu'), '--format', 'raw')).stdout).toBe(readFileSync(fixture('bindu/MANIFEST.md'), 'utf8'));
  });

  it('verify exits 1 and names the frame of a flipped byte', async () => {
    const bytes = readFixture('bindu/sample.bindu').slice();
    bytes[300]! ^= 0xff;
    writeFileSync(join(dir, 'bad.bindu'), bytes);
    const r = await binlens('verify', join(dir, 'bad.bindu'), '--json');
    expect(r.code).toBe(1);
    const v = JSON.parse(r.stdout) as { checks: { name: string; ok: boolean; offset?: number }[] };
    expect(v.checks.filter((c) => !c.ok).map((c) => [c.name, c.offset])).toContainEqual(['frame CRC', 262]);
  });

  it('refuses bytes without the magic: the official 21-byte .sbp wire is not an open-v1 container', async () => {
    writeFileSync(
      join(dir, 'const.bindu'),
      Uint8Array.from({ length: 21 }, (_, i) => i * 11),
    );
    const r = await binlens('info', join(dir, 'const.bindu'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not an open-v1 container');
  });
});

/** Issue 17: cat and convert exit 1 with a located message on damage, --salvage writes every intact part and lists the rest. */
describe('binlens cat and convert on damaged Bindu files', () => {
  const dir = scratchDir('bindu-damage');
  const put = (name: string, bytes: Uint8Array) => {
    writeFileSync(join(dir, name), bytes);
    return join(dir, name);
  };
  const reference = () => readFileSync(fixture('bindu/sample.rows.jsonl'), 'utf8');
  // sample.truth.json: the Column frame of "ts" is frame 4, bytes 262–361 (99 bytes), 10 rows.
  const flipped = () => {
    const bytes = readFixture('bindu/sample.bindu').slice();
    bytes[300]! ^= 0xff;
    return put('flipped.bindu', bytes);
  };

  it('a Column frame that fails its CRC-32C: cat prints nothing and exits 1 naming file, format, frame and offset', async () => {
    const r = await binlens('cat', flipped());
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('flipped.bindu (bindu): damaged: frame 4 (column ts): CRC-32C stored 0x');
    expect(r.stderr).toContain('at offset 262 (0x106)');
  });

  it('convert of the same file exits 1 and leaves no output file', async () => {
    const out = join(dir, 'flipped.csv');
    const r = await binlens('convert', flipped(), out, '--to', 'csv');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('frame 4 (column ts)');
    expect(existsSync(out)).toBe(false);
  });

  it('cat --salvage writes every row with the damaged column null, lists the frame with its bytes and rows, and exits 1', async () => {
    const r = await binlens('cat', flipped(), '--salvage');
    expect(r.code).toBe(1);
    const want = reference()
      .split('\n')
      .filter(Boolean)
      .map((l) => ({ ...(JSON.parse(l) as object), ts: null }));
    expect(
      r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as object),
    ).toEqual(want);
    expect(r.stderr).toContain('left out 1 damaged unit');
    expect(r.stderr).toContain('frame 4 (column ts) bytes 262–361, rows 0–9: CRC-32C stored 0x');
  });

  it('a file cut inside its last Column frame: cat prints the rows of the complete frames, then exits 1 naming where it was cut; --salvage the same with the list', async () => {
    const t = readJson<{ columns: { name: string; frame_offset: number }[] }>('bindu/sample.truth.json');
    const last = t.columns[3]!;
    const cut = put('cut.bindu', readFixture('bindu/sample.bindu').slice(0, last.frame_offset + 40));
    const want = reference()
      .split('\n')
      .filter(Boolean)
      .map((l) => Object.fromEntries(Object.entries(JSON.parse(l) as Record<string, unknown>).filter(([k]) => k !== last.name)));
    for (const flag of [[], ['--salvage']]) {
      const r = await binlens('cat', cut, ...flag);
      expect(r.code, flag.join()).toBe(1);
      expect(
        r.stdout
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as object),
      ).toEqual(want);
      expect(r.stderr).toContain(
        `truncated at offset ${last.frame_offset}: payload length: frame of 53 payload bytes needs 69 bytes, 40 remain; the Header declares 4 columns, 3 Column frames are complete`,
      );
    }
    const v = await binlens('verify', cut);
    expect(v.code).toBe(1);
    expect(v.stdout).toContain('not covered: bytes in no complete frame');
  });

  it('an unknown critical frame: strict cat exits 1 at its offset with nothing written; --salvage reports it and prints every row', async () => {
    const plain = put('plain.bindu', await caseFile());
    const critical = put('critical.bindu', await caseFile([CRITICAL_FRAME]));
    const want = await binlens('cat', plain);
    expect(want.code).toBe(0);
    const r = await binlens('cat', critical);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /damaged: frame 1 \(reserved core type 0x09\): reserved core type 0x09 frame is critical and not understood: a strict decoder stops here at offset (\d+)/,
    );
    const s = await binlens('cat', critical, '--salvage');
    expect(s.code).toBe(1);
    expect(s.stdout).toBe(want.stdout);
    expect(s.stderr).toMatch(/frame 1 \(reserved core type 0x09\) bytes \d+–\d+: .*critical and not understood/);
  });

  it('a describe-only column: cat prints the other columns, names it on stderr and exits 0; --strict exits 1', async () => {
    const want = (await binlens('cat', put('plain.bindu', await caseFile()), '--format', 'csv')).stdout;
    const file = put('lindelta.bindu', await withDescribeOnlyColumn(await caseFile(), 'price'));
    const r = await binlens('cat', file, '--format', 'csv');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      want
        .split('\n')
        .map((l) =>
          l
            .split(',')
            .filter((_, i) => i !== 1)
            .join(','),
        )
        .join('\n'),
    );
    expect(r.stderr).toContain('left out: column price (codec LINDELTA): not decodable');
    const strict = await binlens('cat', file, '--format', 'csv', '--strict');
    expect(strict.code).toBe(1);
    expect(strict.stdout).toBe(r.stdout);
  });
});
