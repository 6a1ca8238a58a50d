/**
 * Per-column summaries: how many values, how many missing, min / max / mean and a histogram for
 * numbers, the most frequent values for text, keys and booleans. Computed by decoding the
 * column's blocks (only that column's), cancellable, over all rows or the first N.
 */
import { FormatError, throwIfAborted } from '../../errors.js';
import type { OptionSpec, OptionValues, Panel } from '../../model.js';
import type { ChartPanelData, FieldsPanelData } from '../../views.js';
import type { IdvColumn } from './blocks.js';
import type { ColumnType, ItemType } from './columnType.js';
import { isNumericItem, itemOf, typeText } from './columnType.js';
import type { IdvFile } from './file.js';
import { itemText } from './format.js';
import type { Reading, Value, VectorValue } from './values.js';

const BINS = 20;
const TOP = 15;
/** Distinct values counted exactly; past this the top list is approximate (new values are ignored). */
const MAX_DISTINCT = 100_000;
export const DEFAULT_SCAN_ROWS = 1_000_000;

export interface ColumnStats {
  readonly column: IdvColumn;
  readonly rowsScanned: number;
  /** Values seen: one per row, or one per stored item for vectors. */
  readonly count: number;
  readonly missing: number;
  readonly legacyNa: number;
  readonly min?: number;
  readonly max?: number;
  readonly mean?: number;
  readonly histogram?: readonly { readonly from: number; readonly to: number; readonly count: number }[];
  readonly top?: readonly { readonly value: string; readonly count: number }[];
  readonly distinctCapped: boolean;
}

function isMissing(v: Value, item: ItemType): boolean {
  if (v === null) return true;
  if (item.kind === 'key') return Number(v) === 0;
  return typeof v === 'number' && Number.isNaN(v);
}

/** Numbers of a numeric item (bigints narrowed: min/max/mean are shown, not computed with, exactly). */
function numberOf(v: Value): number {
  return typeof v === 'bigint' ? Number(v) : (v as number);
}

async function forEachItem(
  file: IdvFile,
  col: IdvColumn,
  reading: Reading,
  rows: number,
  signal: AbortSignal | undefined,
  fn: (v: Value, na: boolean) => void,
): Promise<number> {
  const i = col.entry.index;
  let scanned = 0;
  for await (const w of file.windows(0, rows, reading, signal, [i])) {
    throwIfAborted(signal);
    for (let r = w.from; r < w.from + w.count; r++) {
      const got = w.value(i, r);
      if (got instanceof FormatError) throw got;
      if (col.type.kind === 'vector' && got.value !== null) for (const x of (got.value as VectorValue).values) fn(x, got.na);
      else fn(got.value, got.na);
    }
    scanned += w.count;
  }
  return scanned;
}

export async function columnStats(file: IdvFile, col: IdvColumn, reading: Reading, limit: number, signal?: AbortSignal): Promise<ColumnStats> {
  if (col.type.kind === 'dead') throw new FormatError('unsupported', `column ${col.entry.name} is unreadable: ${col.type.reason}`);
  const item = itemOf(col.type);
  const rows = limit > 0 ? Math.min(limit, file.rowCount) : file.rowCount;
  const numeric = isNumericItem(item);
  let count = 0;
  let missing = 0;
  let legacyNa = 0;
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  const freq = new Map<string, number>();
  let capped = false;
  const scanned = await forEachItem(file, col, reading, rows, signal, (v, na) => {
    count++;
    if (na) legacyNa++;
    if (isMissing(v, item)) return void missing++;
    if (numeric) {
      const x = numberOf(v);
      if (x < min) min = x;
      if (x > max) max = x;
      sum += x;
    } else {
      const key = itemText(v, item);
      const n = freq.get(key);
      if (n !== undefined) freq.set(key, n + 1);
      else if (freq.size < MAX_DISTINCT) freq.set(key, 1);
      else capped = true;
    }
  });
  const present = count - missing;
  if (!numeric) {
    const top = [...freq.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, TOP);
    return { column: col, rowsScanned: scanned, count, missing, legacyNa, top: top.map(([value, n]) => ({ value, count: n })), distinctCapped: capped };
  }
  if (present === 0 || !Number.isFinite(min) || !Number.isFinite(max))
    return { column: col, rowsScanned: scanned, count, missing, legacyNa, distinctCapped: false };
  // A second pass bins the values now that the range is known (the column's blocks are still cached).
  const width = max > min ? (max - min) / BINS : 1;
  const bins = new Array<number>(max > min ? BINS : 1).fill(0);
  await forEachItem(file, col, reading, rows, signal, (v) => {
    if (isMissing(v, item)) return;
    const x = numberOf(v);
    bins[Math.min(bins.length - 1, Math.floor((x - min) / width))]!++;
  });
  return {
    column: col,
    rowsScanned: scanned,
    count,
    missing,
    legacyNa,
    min,
    max,
    mean: sum / present,
    histogram: bins.map((n, b) => ({ from: min + b * width, to: b === bins.length - 1 ? max : min + (b + 1) * width, count: n })),
    distinctCapped: false,
  };
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toPrecision(7).replace(/\.?0+$/, '');
}

/** The column summary and histogram panels, sharing one computation per column and reading. */
export function statsPanels(file: IdvFile): Panel[] {
  const readable = file.columns.filter((c) => c.type.kind !== 'dead');
  if (readable.length === 0 || file.rowCount === 0) return [];
  const numericColumns = readable.filter((c) => isNumericItem(itemOf(c.type as ColumnType)));
  const params = (cols: readonly IdvColumn[]): OptionSpec[] => [
    {
      key: 'column',
      label: 'Column',
      type: 'choice',
      default: String(cols[0]!.entry.index),
      choices: cols.map((c) => ({ value: String(c.entry.index), label: `${c.entry.name}${c.shadowed ? ' (hidden)' : ''}` })),
    },
    ...(file.legacy
      ? [
          {
            key: 'reading',
            label: 'NA values',
            type: 'choice' as const,
            default: 'modern',
            choices: [
              { value: 'modern', label: "as today's ML.NET reads them" },
              { value: 'legacy', label: 'as missing' },
            ],
          },
        ]
      : []),
    { key: 'rows', label: 'Rows to scan (0 = all)', type: 'number', default: DEFAULT_SCAN_ROWS, min: 0 },
  ];
  const cache = new Map<string, Promise<ColumnStats>>();
  const stats = (values: OptionValues, cols: readonly IdvColumn[], signal?: AbortSignal): Promise<ColumnStats> => {
    const col = cols.find((c) => String(c.entry.index) === String(values.column)) ?? cols[0]!;
    const reading: Reading = values.reading === 'legacy' && file.legacy ? 'legacy' : 'modern';
    const limit = Math.max(0, Math.floor(Number(values.rows ?? DEFAULT_SCAN_ROWS)) || 0);
    const key = `${col.entry.index}/${reading}/${limit}`;
    let s = cache.get(key);
    if (!s) {
      s = columnStats(file, col, reading, limit, signal);
      s.catch(() => cache.delete(key));
      cache.set(key, s);
    }
    return s;
  };
  const panels: Panel[] = [
    {
      id: 'column-summary',
      title: 'Column summary',
      kind: 'fields',
      params: params(readable),
      async data(values, signal): Promise<FieldsPanelData> {
        return summaryFields(await stats(values, readable, signal), file.rowCount);
      },
    },
  ];
  if (numericColumns.length > 0) {
    panels.push({
      id: 'histogram',
      title: 'Histogram',
      kind: 'chart',
      params: params(numericColumns),
      async data(values, signal): Promise<ChartPanelData> {
        const s = await stats(values, numericColumns, signal);
        return {
          kind: 'chart',
          chart: 'bar',
          xLabel: `${s.column.entry.name} (bins from ${fmt(s.min ?? 0)} to ${fmt(s.max ?? 0)})`,
          yLabel: 'values',
          series: [{ name: s.column.entry.name, points: (s.histogram ?? []).map((b) => [b.from, b.count] as const) }],
        };
      },
    });
  }
  return panels;
}

function summaryFields(s: ColumnStats, rowCount: number): FieldsPanelData {
  const c = s.column;
  const values: { name: string; value: string; mark?: 'warn' }[] = [
    { name: 'rows scanned', value: s.rowsScanned === rowCount ? `${s.rowsScanned} (all)` : `${s.rowsScanned} of ${rowCount}` },
    { name: c.type.kind === 'vector' ? 'stored items' : 'values', value: String(s.count) },
    { name: 'missing', value: `${s.missing}${s.count ? ` (${fmt((100 * s.missing) / s.count)} %)` : ''}` },
  ];
  if (s.legacyNa > 0) values.push({ name: 'legacy NA sentinels', value: String(s.legacyNa), mark: 'warn' });
  if (s.min !== undefined) values.push({ name: 'min', value: fmt(s.min) }, { name: 'max', value: fmt(s.max!) }, { name: 'mean', value: fmt(s.mean!) });
  const groups: FieldsPanelData['groups'][number][] = [{ title: `${c.entry.name}: ${typeText(c.type, c.entry.codec)}`, fields: values }];
  if (s.top) {
    groups.push({
      title: `Top values${s.distinctCapped ? ` (approximate: more than ${MAX_DISTINCT} distinct values)` : ''}`,
      fields: s.top.map((t) => ({ name: t.value === '' ? '""' : t.value, value: `${t.count}` })),
    });
  }
  return { kind: 'fields', groups };
}
