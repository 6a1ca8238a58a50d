import type { ByteSink } from '../../../model.js';
import type { Sum } from './measure.js';
import type { StatsRun } from './rows.js';

/** Text lines gathered into pieces of ~64 KiB before they go to the sink. */
class LineWriter {
  private parts: string[] = [];
  private size = 0;
  private readonly encoder = new TextEncoder();

  constructor(private readonly out: ByteSink) {}

  async line(s: string): Promise<void> {
    this.parts.push(s, '\n');
    this.size += s.length + 1;
    if (this.size >= 1 << 16) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.size === 0) return;
    const text = this.parts.join('');
    this.parts = [];
    this.size = 0;
    await this.out.write(this.encoder.encode(text));
  }
}

/** A sum as JSON and CSV write it: integers in decimal (BigInt too), other numbers as JSON numbers. */
export function sumText(v: Sum): string {
  return typeof v === 'bigint' ? v.toString() : JSON.stringify(v);
}

/**
 * JSONL, one line per sample: `{"sample":K,"cut_edges":E,"districts":{"<label>":{"<ATTR>":SUM,…},…}}`,
 * districts by ascending label, attributes in the order asked. A repeated plan's line differs
 * only in K, so its text after K is built once.
 */
export async function writeStatsJsonl(runs: AsyncIterable<StatsRun>, attributes: readonly string[], out: ByteSink): Promise<number> {
  const w = new LineWriter(out);
  const names = attributes.map((a) => JSON.stringify(a));
  let samples = 0;
  try {
    for await (const { firstSample, count, stats } of runs) {
      const districts = stats.labels.map((label, k) => `"${label}":{${names.map((n, a) => `${n}:${sumText(stats.sums[a]![k]!)}`).join(',')}}`);
      const rest = `,"cut_edges":${stats.cutEdges},"districts":{${districts.join(',')}}}`;
      for (let i = 0; i < count; i++) await w.line(`{"sample":${firstSample + i}${rest}`);
      samples += count;
    }
  } finally {
    // What was measured before an error is written, as cat writes the samples before damage.
    await w.flush();
  }
  return samples;
}

/** CSV (RFC 4180), a header, then one row per sample and district: sample, district, cut_edges, ATTR… */
export async function writeStatsCsv(runs: AsyncIterable<StatsRun>, attributes: readonly string[], out: ByteSink): Promise<number> {
  const w = new LineWriter(out);
  let samples = 0;
  try {
    await w.line(['sample', 'district', 'cut_edges', ...attributes].map(csvField).join(','));
    for await (const { firstSample, count, stats } of runs) {
      const rows = stats.labels.map((label, k) => `,${label},${stats.cutEdges},${stats.sums.map((s) => sumText(s[k]!)).join(',')}`);
      for (let i = 0; i < count; i++) for (const row of rows) await w.line(`${firstSample + i}${row}`);
      samples += count;
    }
  } finally {
    await w.flush();
  }
  return samples;
}

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
