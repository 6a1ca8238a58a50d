import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binlens } from '../helpers/cli.js';
import { fixture } from '../helpers/fixtures.js';
import { scratchDir } from '../helpers/scratch.js';

/** `binlens` on ML.NET dataviews, per the CLI contract in ../shared/DESIGN.md. */

const DATATYPES = fixture('idv/mlnet-testdata/datatypes.idv');
const TERMS = fixture('idv/mlnet-model-embedded/termlookup__DataLoaderModel_Transform_000_DefaultMap.idv');

const root = scratchDir('idv');

function scratch(): string {
  return mkdtempSync(join(root, 'case-'));
}

describe('binlens on .idv', () => {
  it('info --json: version, rows, columns with types, hidden and readable flags', async () => {
    const r = await binlens('info', DATATYPES, '--json');
    expect(r.code).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info).toMatchObject({ format: 'idv', version: '1.1.1.5', compatibleVersion: '1.1.1.5', rowCount: 5, columnCount: 9 });
    expect(info.columns[6]).toEqual({
      name: 'dto',
      type: 'DvDateTimeZone',
      codec: 'DvDateTimeZone',
      compression: 'deflate',
      rowsPerBlock: 5,
      hidden: false,
      readable: true,
    });
  });

  it("cat prints legacy NA as null for 1.1.1.5 files, and as today's ML.NET reads them with --modern", async () => {
    const legacy = await binlens('cat', DATATYPES, '--from', '4');
    expect(legacy.stdout).toBe('{"bl":null,"i1":null,"i2":null,"i4":null,"i8":null,"ts":null,"dto":null,"dt":null,"tx":null}\n');
    const modern = await binlens('cat', DATATYPES, '--from', '4', '--modern');
    expect(modern.stdout).toBe(
      '{"bl":false,"i1":-128,"i2":-32768,"i4":-2147483648,"i8":"-9223372036854775808","ts":{"ticks":"0"},"dto":{"ticks":"0","offsetMinutes":0},"dt":{"ticks":"0"},"tx":""}\n',
    );
  });

  it('cat --from --count --format csv|tsv prints a header and the rows asked for', async () => {
    expect((await binlens('cat', TERMS, '--from', '1', '--count', '2', '--format', 'csv')).stdout).toBe('Term,Value\nFair,1\nGood,2\n');
    expect((await binlens('cat', TERMS, '--count', '1', '--format', 'tsv')).stdout).toBe('Term\tValue\nBad\t0\n');
  });

  it('verify --json passes the fixtures and exits 1 with located findings for a damaged file', async () => {
    const ok = await binlens('verify', TERMS, '--json');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ format: 'idv', ok: true });
    const dir = scratch();
    const bad = readFileSync(TERMS);
    bad.writeInt32LE(60, 0x13c + 12); // block 0 of Term declares 60 inflated bytes (52 real)
    writeFileSync(join(dir, 'bad.idv'), bad);
    const r = await binlens('verify', join(dir, 'bad.idv'), '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).checks).toContainEqual(expect.objectContaining({ ok: false, offset: 256 }));
  });

  it('convert writes CSV, TSV and JSONL, and JSONL/CSV back to .idv that reads the same', async () => {
    const dir = scratch();
    expect((await binlens('convert', DATATYPES, join(dir, 'd.jsonl'), '--set', 'reading=modern')).code).toBe(0);
    const jsonl = readFileSync(join(dir, 'd.jsonl'), 'utf8');
    expect(jsonl).toBe((await binlens('cat', DATATYPES, '--modern')).stdout);
    const back = await binlens('convert', join(dir, 'd.jsonl'), join(dir, 'd.idv'));
    expect(back.code).toBe(0);
    expect(back.stderr).toMatch(/5 rows × 9 columns written/);
    expect((await binlens('cat', join(dir, 'd.idv'))).stdout).toBe(jsonl);
    expect((await binlens('verify', join(dir, 'd.idv'))).code).toBe(0);
    expect((await binlens('convert', TERMS, join(dir, 't.csv'))).code).toBe(0);
    expect(readFileSync(join(dir, 't.csv'), 'utf8')).toBe('Term,Value\nBad,0\nFair,1\nGood,2\nExcellent,3\nPerfect,4\n');
    expect((await binlens('convert', join(dir, 't.csv'), join(dir, 't.idv'), '--set', 'schema=Value:Single')).code).toBe(0);
    expect((await binlens('cat', join(dir, 't.idv'))).stdout).toBe((await binlens('cat', TERMS)).stdout);
    expect((await binlens('convert', TERMS, join(dir, 't.csv'))).code).toBe(2);
  });
});

/**
 * Issue 17: a block that fails to decode (here the Value column's DEFLATE block, 15 bytes at 301
 * per spec §15, given the reserved block type 11) is damage met after open.
 */
describe('binlens on a .idv with a damaged block', () => {
  const VALUE_BLOCK = 301;

  function damaged(): { dir: string; file: string } {
    const dir = scratch();
    const bad = readFileSync(TERMS);
    bad[VALUE_BLOCK] = 0x07;
    const file = join(dir, 'bad.idv');
    writeFileSync(file, bad);
    return { dir, file };
  }

  it('cat exits 1 and names the file, the format, the offset, the block and what failed', async () => {
    const { file } = damaged();
    const r = await binlens('cat', file);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${file} (idv): damaged: block 0 of column 1 (Value): column 1 block 0: invalid DEFLATE data`);
    expect(r.stderr).toContain('at offset 301 (0x12d)');
  });

  it('convert exits 1 and leaves no output file', async () => {
    const { dir, file } = damaged();
    const r = await binlens('convert', file, join(dir, 'out.csv'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/damaged: block 0 of column 1 \(Value\).*at offset 301/);
    expect(r.stderr).toContain('no output was written');
    expect(existsSync(join(dir, 'out.csv'))).toBe(false);
  });

  it("--salvage writes every row with the damaged block's cells null, lists the block with its bytes and rows, and exits 1", async () => {
    const { dir, file } = damaged();
    const good = (await binlens('cat', TERMS)).stdout;
    const cat = await binlens('cat', file, '--salvage');
    expect(cat.code).toBe(1);
    expect(cat.stdout).toBe(good.replace(/"Value":[^}]*/g, '"Value":null'));
    expect(cat.stdout.split('\n')).toHaveLength(6);
    expect(cat.stderr).toContain('left out 1 damaged unit');
    expect(cat.stderr).toContain('block 0 of column 1 (Value) bytes 301–316, rows 0–4: column 1 block 0: invalid DEFLATE data');
    const conv = await binlens('convert', file, join(dir, 'out.csv'), '--salvage');
    expect(conv.code).toBe(1);
    expect(readFileSync(join(dir, 'out.csv'), 'utf8')).toBe('Term,Value\nBad,\nFair,\nGood,\nExcellent,\nPerfect,\n');
    expect(conv.stderr).toContain('block 0 of column 1 (Value) bytes 301–316, rows 0–4');
  });

  it('verify fails the block and says no checksum covers IDV blocks', async () => {
    const { file } = damaged();
    const r = await binlens('verify', file);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL column 1 \(Value\): column 1 block 0: invalid DEFLATE data.*@301/);
    expect(r.stdout).toContain('not covered: IDV blocks: no checksum covers them');
  });
});
