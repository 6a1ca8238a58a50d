import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binlens } from '../helpers/cli.js';
import { fixture } from '../helpers/fixtures.js';

/** `binlens` on ML.NET dataviews, per the CLI contract in ../shared/DESIGN.md. */

const DATATYPES = fixture('idv/mlnet-testdata/datatypes.idv');
const TERMS = fixture('idv/mlnet-model-embedded/termlookup__DataLoaderModel_Transform_000_DefaultMap.idv');

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'binlens-idv-'));
}

describe('binlens on .idv', () => {
  it('info --json: version, rows, columns with types, hidden and readable flags', async () => {
    const r = (await binlens('info', DATATYPES, '--json'));
    expect(r.code).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info).toMatchObject({ format: 'idv', version: '1.1.1.5', compatibleVersion: '1.1.1.5', rowCount: 5, columnCount: 9 });
    expect(info.columns[6]).toEqual({ name: 'dto', type: 'DvDateTimeZone', codec: 'DvDateTimeZone', compression: 'deflate', rowsPerBlock: 5, hidden: false, readable: true });
  });

  it('cat prints legacy NA as null for 1.1.1.5 files, and as today\'s ML.NET reads them with --modern', async () => {
    const legacy = (await binlens('cat', DATATYPES, '--from', '4'));
    expect(legacy.stdout).toBe('{"bl":null,"i1":null,"i2":null,"i4":null,"i8":null,"ts":null,"dto":null,"dt":null,"tx":null}\n');
    const modern = (await binlens('cat', DATATYPES, '--from', '4', '--modern'));
    expect(modern.stdout).toBe('{"bl":false,"i1":-128,"i2":-32768,"i4":-2147483648,"i8":"-9223372036854775808","ts":{"ticks":"0"},"dto":{"ticks":"0","offsetMinutes":0},"dt":{"ticks":"0"},"tx":""}\n');
  });

  it('cat --from --count --format csv|tsv prints a header and the rows asked for', async () => {
    expect((await binlens('cat', TERMS, '--from', '1', '--count', '2', '--format', 'csv')).stdout).toBe('Term,Value\nFair,1\nGood,2\n');
    expect((await binlens('cat', TERMS, '--count', '1', '--format', 'tsv')).stdout).toBe('Term\tValue\nBad\t0\n');
  });

  it('verify --json passes the fixtures and exits 1 with located findings for a damaged file', async () => {
    const ok = (await binlens('verify', TERMS, '--json'));
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ format: 'idv', ok: true });
    const dir = scratch();
    const bad = readFileSync(TERMS);
    bad.writeInt32LE(60, 0x13c + 12); // block 0 of Term declares 60 inflated bytes (52 real)
    writeFileSync(join(dir, 'bad.idv'), bad);
    const r = (await binlens('verify', join(dir, 'bad.idv'), '--json'));
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).checks).toContainEqual(expect.objectContaining({ ok: false, offset: 256 }));
  });

  it('convert writes CSV, TSV and JSONL, and JSONL/CSV back to .idv that reads the same', async () => {
    const dir = scratch();
    expect((await binlens('convert', DATATYPES, join(dir, 'd.jsonl'), '--set', 'reading=modern')).code).toBe(0);
    const jsonl = readFileSync(join(dir, 'd.jsonl'), 'utf8');
    expect(jsonl).toBe((await binlens('cat', DATATYPES, '--modern')).stdout);
    const back = (await binlens('convert', join(dir, 'd.jsonl'), join(dir, 'd.idv')));
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
