import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { binlens } from '../helpers/cli.js';
import { fixture } from '../helpers/fixtures.js';
import { scratchDir } from '../helpers/scratch.js';

/**
 * `binlens diff A B --key COLUMN`: table rows matched by a column's value. Every expected line
 * was read off `binlens cat` of both files (and, for the bindu copies, off the edit that made them).
 */
const work = scratchDir('diff-key');

// Term → Value (Single) 0..4 and the same terms → Value (Key<UInt32,5>) 1..5, in the same row order:
// Bad, Fair, Good, Excellent, Perfect (not sorted by Term; sorted by Value).
const TERMS = fixture('idv/mlnet-model-embedded/termlookup__DataLoaderModel_Transform_000_DefaultMap.idv');
const KEYED = fixture('idv/mlnet-model-embedded/termlookup_with_key__DataLoaderModel_Transform_000_DefaultMap.idv');
const SAMPLE = fixture('bindu/sample.bindu');
const SORTED = join(work, 'sorted.bindu');
const SHUFFLED = join(work, 'shuffled.bindu');

const rowLines = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('row-'));

beforeAll(async () => {
  // The sample's rows (sensor.seq 100..109, ts 1700000000000 + 1000·k) without seq 103, with seq 106
  // turned "warn" at 23 degrees and a new seq 110; then the same rows rotated by five.
  const rows = readFileSync(fixture('bindu/sample.rows.jsonl'), 'utf8').trim().split('\n');
  const edited = rows
    .filter((l) => !l.includes('"sensor.seq":103'))
    .map((l) => (l.includes('"sensor.seq":106') ? '{"ts":"1700000006000","level":"warn","sensor.temp":23,"sensor.seq":106}' : l));
  edited.push('{"ts":"1700000010000","level":"info","sensor.temp":20,"sensor.seq":110}');
  const rotated = [...edited.slice(5), ...edited.slice(0, 5)];
  for (const [name, lines] of [
    ['sorted', edited],
    ['shuffled', rotated],
  ] as const) {
    writeFileSync(join(work, `${name}.jsonl`), `${lines.join('\n')}\n`);
    const r = await binlens('convert', join(work, `${name}.jsonl`), join(work, `${name}.bindu`), '--to', 'bindu');
    expect(r.code, r.stderr).toBe(0);
  }
});

describe('binlens diff --key', () => {
  it("IDV, key not sorted (Term): each term's changed value, with its row in each file", async () => {
    const r = await binlens('diff', TERMS, KEYED, '--key', 'Term');
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout.split('\n').slice(2)).toEqual([
      'column-retyped column Value: Single → Key<UInt32, 5>',
      'row-changed key "Bad": Value: 0 → 1 (rows 0 → 0)',
      'row-changed key "Fair": Value: 1 → 2 (rows 1 → 1)',
      'row-changed key "Good": Value: 2 → 3 (rows 2 → 2)',
      'row-changed key "Excellent": Value: 3 → 4 (rows 3 → 3)',
      'row-changed key "Perfect": Value: 4 → 5 (rows 4 → 4)',
      'summary: 6 differences (column-retyped 1, row-changed 5)',
      '',
    ]);
  });

  it('IDV, key sorted in both (Value): 0 only in A, 5 only in B, 1..4 moved to another term, by a merge walk', async () => {
    const r = await binlens('diff', TERMS, KEYED, '--key', 'Value');
    expect(r.code, r.stderr).toBe(1);
    expect(rowLines(r.stdout)).toEqual([
      'row-removed key 0: only in A (row 0)',
      'row-changed key 1: Term: "Fair" → "Bad" (rows 1 → 0)',
      'row-changed key 2: Term: "Good" → "Fair" (rows 2 → 1)',
      'row-changed key 3: Term: "Excellent" → "Good" (rows 3 → 2)',
      'row-changed key 4: Term: "Perfect" → "Excellent" (rows 4 → 3)',
      'row-added key 5: only in B (row 4)',
    ]);
  });

  it('positional compare stays the default: the same files differ by row number', async () => {
    const r = await binlens('diff', TERMS, KEYED);
    expect(r.code, r.stderr).toBe(1);
    expect(rowLines(r.stdout)[0]).toBe('row-changed row 0: Value: 0 → 1');
  });

  it('bindu, sorted by a 64-bit key (ts, decimal strings ordered as numbers) and unsorted (sensor.seq): the same removed, changed and added rows', async () => {
    const sorted = await binlens('diff', SAMPLE, SORTED, '--key', 'ts');
    expect(sorted.code, sorted.stderr).toBe(1);
    expect(rowLines(sorted.stdout)).toEqual([
      'row-removed key 1700000003000: only in A (row 3)',
      'row-changed key 1700000006000: level: "info" → "warn", sensor.temp: 22.25 → 23 (rows 6 → 5)',
      'row-added key 1700000010000: only in B (row 9)',
    ]);
    expect(sorted.stdout).toMatch(/row-removed 1, row-changed 1, row-added 1\)\n$/);
    const shuffled = await binlens('diff', SAMPLE, SHUFFLED, '--key', 'sensor.seq');
    expect(shuffled.code, shuffled.stderr).toBe(1);
    expect(rowLines(shuffled.stdout).sort()).toEqual([
      'row-added key 110: only in B (row 4)',
      'row-changed key 106: level: "info" → "warn", sensor.temp: 22.25 → 23 (rows 6 → 0)',
      'row-removed key 103: only in A (row 3)',
    ]);
  });

  it('--json gives each keyed difference its key and row numbers', async () => {
    const r = await binlens('diff', SAMPLE, SORTED, '--key', 'ts', '--json');
    expect(r.code, r.stderr).toBe(1);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind?: string })
      .filter((d) => d.kind?.startsWith('row-'));
    expect(rows).toEqual([
      { type: 'difference', kind: 'row-removed', at: 'key 1700000003000', text: 'only in A (row 3)', data: { key: '1700000003000', row: 3 } },
      {
        type: 'difference',
        kind: 'row-changed',
        at: 'key 1700000006000',
        text: 'level: "info" → "warn", sensor.temp: 22.25 → 23 (rows 6 → 5)',
        data: { key: '1700000006000', rowA: 6, rowB: 5, cells: { level: { a: 'info', b: 'warn' }, 'sensor.temp': { a: 22.25, b: 23 } } },
      },
      { type: 'difference', kind: 'row-added', at: 'key 1700000010000', text: 'only in B (row 9)', data: { key: '1700000010000', row: 9 } },
    ]);
  });

  it('a file and itself by key: exit 0', async () => {
    const r = await binlens('diff', SAMPLE, SAMPLE, '--key', 'sensor.seq');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[2]).toBe('summary: same');
  });

  it('exits 2 for a key that repeats (level: "info" in rows 0 and 1), a column one file lacks, and a family without columns', async () => {
    const repeated = await binlens('diff', SAMPLE, SAMPLE, '--key', 'level');
    expect(repeated.code).toBe(2);
    expect(repeated.stderr).toBe(`binlens: ${SAMPLE} (bindu): column level: the key "info" is in rows 0 and 1: a key column must name each row once\n`);
    expect(rowLines(repeated.stdout)).toEqual([]);
    const missing = await binlens('diff', TERMS, KEYED, '--key', 'Nope');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`binlens: ${TERMS} (idv): --key: no column "Nope" to match rows by (columns: Term, Value)\n`);
    const fst = fixture('fst/small.map.fst3.fst');
    const none = await binlens('diff', fst, fst, '--key', 'k');
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe('binlens: --key: fst files have no columns to match rows by: --key applies to tables (IDV, bindu)\n');
  });
});
