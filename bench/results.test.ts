import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LATEST_END, LATEST_START, latestSection, ratioTable, replaceLatest, type BenchRow, type LatestRun } from './results.js';

const row = (id: string, extra: Partial<BenchRow> = {}): BenchRow => ({
  id,
  title: `case ${id}`,
  runs: 5,
  binlens: { medianMs: 200, minMs: 180, maxMs: 250, peakRssMb: 70.25, extraRssMb: 4 },
  native: { label: 'lz4 -d', medianMs: 100, minMs: 90, maxMs: 110, peakRssMb: 10 },
  ratio: 2,
  items: null,
  bytes: 64e6,
  table: null,
  date: '2026-11-26T10:00:00.000Z',
  ...extra,
});

const run = (rows: BenchRow[], extra: Partial<LatestRun> = {}): LatestRun => ({
  date: '2026-11-26T11:00:00.000Z',
  machine: { cores: 2, cpu: 'Test CPU', node: 'v20.20.0', platform: 'linux x64', load: [1.5, 2, 2.25] },
  rows,
  measured: rows.map((r) => r.id),
  failed: [],
  ...extra,
});

const doc = [
  '# Benchmark results',
  '',
  'How they are measured.',
  '',
  LATEST_START,
  'an older generated section',
  '| old | table |',
  LATEST_END,
  '',
  '## BEN',
  '',
  '| dated | table, 22 Nov 2026 |',
  '',
].join('\n');

describe('bench/RESULTS.md: the generated section', () => {
  it('replaces only the text between the markers', () => {
    const section = latestSection(run([row('xorb-lz4')]));
    const next = replaceLatest(doc, section);
    const [before, after] = doc.split(/<!-- bench:latest:start -->[\s\S]*<!-- bench:latest:end -->/);
    expect(next.startsWith(`${before}${LATEST_START}\n`)).toBe(true);
    expect(next.endsWith(`\n${LATEST_END}${after}`)).toBe(true);
    expect(next).toContain(section);
    expect(next).not.toContain('an older generated section');
    // A second run replaces the first one's section, not adds to it.
    const again = replaceLatest(next, latestSection(run([row('fst-get')])));
    expect(again).not.toContain('case xorb-lz4');
    expect(again.split(LATEST_START)).toHaveLength(2);
    expect(again.replace(/<!-- bench:latest:start -->[\s\S]*<!-- bench:latest:end -->/, '')).toBe(before! + after!);
  });

  it('refuses a file without exactly one pair of markers in order', () => {
    const s = latestSection(run([row('a')]));
    expect(() => replaceLatest('# no markers\n', s)).toThrow(/exactly one/);
    expect(() => replaceLatest(`${LATEST_END}\n${LATEST_START}\n`, s)).toThrow(/exactly one/);
    expect(() => replaceLatest(`${doc}\n${LATEST_START}\n${LATEST_END}\n`, s)).toThrow(/exactly one/);
  });

  it('says when and where it was measured, with the ratio table the run prints', () => {
    const section = latestSection(run([row('xorb-lz4', { table: '| scheme | ratio |\n|---|---|\n| LZ4 | 0.73 |' })]));
    expect(section).toContain('2026-11-26T11:00:00.000Z · 2 cores (Test CPU) · Node v20.20.0 · linux x64 · load average 1.50 2.00 2.25');
    expect(section).toContain(ratioTable([row('xorb-lz4')]));
    expect(section).toContain('| case xorb-lz4 | 200.0 (180.0–250.0) | lz4 -d | 100.0 (90.0–110.0) | 2.00× | 70.3 (+4.0) | 320.0 MB/s |');
    expect(section).toContain('### case xorb-lz4\n\n| scheme | ratio |');
  });

  it('after a filtered run, names the filter and the rows that are older', () => {
    const rows = [row('fst-get', { date: '2026-11-20T09:00:00.000Z' }), row('xorb-lz4')];
    const section = latestSection(run(rows, { filter: 'xorb', measured: ['xorb-lz4'], failed: ['xorb-b3'] }));
    expect(section).toContain('cases matching "xorb"');
    expect(section).toContain('Rows from earlier runs (a filtered run keeps them): fst-get 2026-11-20.');
    expect(section).toContain('Failed: xorb-b3.');
  });

  it('the committed bench/RESULTS.md has its markers', () => {
    const committed = readFileSync(resolve(__dirname, 'RESULTS.md'), 'utf8');
    expect(() => replaceLatest(committed, 'x')).not.toThrow();
  });
});
