/**
 * bench/RESULTS.md keeps the dated measurements by hand, and one generated section between
 * two markers that every `npm run bench` replaces with its results: the date, the machine and
 * the ratio table the run prints. Nothing outside the markers is ever rewritten.
 */

export const LATEST_START = '<!-- bench:latest:start -->';
export const LATEST_END = '<!-- bench:latest:end -->';

/** One case's row, as bench/run.mjs measures it and keeps it in bench/results.json. */
export interface BenchRow {
  readonly id: string;
  readonly title: string;
  readonly runs: number;
  readonly binlens: {
    readonly medianMs: number;
    readonly minMs: number;
    readonly maxMs: number;
    readonly peakRssMb: number;
    readonly extraRssMb: number | null;
  };
  readonly native: {
    readonly label: string;
    readonly medianMs: number;
    readonly minMs: number;
    readonly maxMs: number;
    readonly peakRssMb: number | null;
  } | null;
  readonly ratio: number | null;
  readonly items: number | null;
  readonly bytes: number | null;
  /** Extra Markdown a case prints after the summary (compression ratios, say). */
  readonly table: string | null;
  /** When the row was measured (ISO 8601). */
  readonly date: string;
}

export interface Machine {
  readonly cores: number;
  readonly cpu: string;
  readonly node: string;
  readonly platform: string;
  /** 1, 5 and 15 minute load averages when the run ended. */
  readonly load: readonly number[];
}

const fmt = (n: number | null | undefined, d = 1): string => (n === null || n === undefined ? '—' : n.toFixed(d));

/** The summary table `npm run bench` prints: one line per case, Binlens against the native tool. */
export function ratioTable(rows: readonly BenchRow[]): string {
  const lines = [
    '| case | Binlens ms (min–max) | native | native ms (min–max) | ratio | peak RSS MB (extra) | throughput |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => {
      const t = r.binlens.medianMs / 1000;
      const throughput = r.bytes ? `${fmt(r.bytes / 1e6 / t)} MB/s` : r.items ? `${fmt(r.items / t / 1e6, 2)} M items/s` : '—';
      const native = r.native ? `${fmt(r.native.medianMs)} (${fmt(r.native.minMs)}–${fmt(r.native.maxMs)})` : '—';
      const ratio = r.ratio === null ? '—' : `${fmt(r.ratio, 2)}×`;
      const rss = `${fmt(r.binlens.peakRssMb)}${r.binlens.extraRssMb === null ? '' : ` (+${fmt(r.binlens.extraRssMb)})`}`;
      return `| ${r.title} | ${fmt(r.binlens.medianMs)} (${fmt(r.binlens.minMs)}–${fmt(r.binlens.maxMs)}) | ${r.native?.label ?? '—'} | ${native} | ${ratio} | ${rss} | ${throughput} |`;
    }),
  ];
  return lines.join('\n');
}

export interface LatestRun {
  /** When the run ended (ISO 8601). */
  readonly date: string;
  readonly machine: Machine;
  /** The filter the run was given (`npm run bench -- fst`); its cases were re-measured, the other rows are older. */
  readonly filter?: string;
  /** Every row bench/results.json holds after the run, this run's and (after a filtered run) earlier ones. */
  readonly rows: readonly BenchRow[];
  /** Ids of the cases this run measured. */
  readonly measured: readonly string[];
  readonly failed: readonly string[];
}

/** The generated section's body (without the markers). */
export function latestSection(run: LatestRun): string {
  const m = run.machine;
  const measured = new Set(run.measured);
  const older = run.rows.filter((r) => !measured.has(r.id));
  const out = [
    '## Latest run (written by `npm run bench`; do not edit by hand)',
    '',
    `${run.date} · ${m.cores} cores (${m.cpu}) · Node ${m.node} · ${m.platform} · load average ${m.load.map((x) => x.toFixed(2)).join(' ')} at the end` +
      (run.filter === undefined ? '' : ` · cases matching "${run.filter}"`),
    '',
    ratioTable(run.rows),
  ];
  if (older.length) {
    out.push('', `Rows from earlier runs (a filtered run keeps them): ${older.map((r) => `${r.id} ${r.date.slice(0, 10)}`).join(', ')}.`);
  }
  for (const r of run.rows.filter((x) => x.table)) out.push('', `### ${r.title}`, '', r.table!);
  if (run.failed.length) out.push('', `Failed: ${run.failed.join(', ')}.`);
  return out.join('\n');
}

/**
 * `doc` with the text between the markers replaced by `section`; every byte outside them stays.
 * Throws when the markers are missing, repeated or out of order, so a run never rewrites a file
 * whose generated part it cannot find.
 */
export function replaceLatest(doc: string, section: string): string {
  const start = doc.indexOf(LATEST_START);
  const end = doc.indexOf(LATEST_END);
  const repeated = doc.indexOf(LATEST_START, start + 1) >= 0 || doc.indexOf(LATEST_END, end + 1) >= 0;
  if (start < 0 || end < 0 || end < start || repeated) {
    throw new Error(`bench/RESULTS.md needs exactly one ${LATEST_START} … ${LATEST_END} pair`);
  }
  return `${doc.slice(0, start + LATEST_START.length)}\n${section}\n${doc.slice(end)}`;
}
