import type { EnsemblePanelData } from '../../views.js';
import { QUANTILES, type Distribution, type Summary } from './stats/distribution.js';
import type { EnsembleFigures, FigureSpec, PlanFigures } from './stats/ensembleFigures.js';

type Specs = { readonly scalars: readonly FigureSpec[]; readonly ranks: readonly FigureSpec[] };

/** Bars per histogram: enough to see a shape, few enough to read on a 640-unit plot. */
const BINS = 30;

const mark = (d: Distribution, value: number | undefined) => (value === undefined ? undefined : { value, percentile: d.place(value).percentile });

/**
 * The Ensemble view's plots from the pass's distributions: a histogram per plan-level figure, a
 * box per district rank of each election's sorted shares (quartiles from Distribution: exact
 * nearest-rank while values are few, within 1 % after), each with the reference plan's value and
 * its percentile where one is given. Statistics no plan had (an election without votes) are left out.
 */
export function ensemblePlots(f: EnsembleFigures, specs: Specs, ref?: PlanFigures): Pick<EnsemblePanelData, 'histograms' | 'boxes'> {
  const histograms = specs.scalars.flatMap((s) => {
    const d = f.scalars.get(s.id);
    if (!d) return [];
    const sum = d.summary();
    return [
      {
        id: s.id,
        title: s.title,
        label: s.label,
        unit: s.unit,
        bins: d.histogram(BINS),
        n: sum.n,
        min: sum.min,
        median: sum.quantiles['0.5'] ?? null,
        max: sum.max,
        mark: mark(d, ref?.scalars.get(s.id)),
      },
    ];
  });
  const boxes = specs.ranks.flatMap((s) => {
    const byRank = f.ranks.get(s.id);
    if (!byRank?.length) return [];
    const values = ref?.ranks.get(s.id);
    const ranks = byRank.map((d, k) => {
      const sum = d.summary();
      const q = (p: string) => sum.quantiles[p]!;
      return { rank: k + 1, n: sum.n, min: sum.min!, q25: q('0.25'), median: q('0.5'), q75: q('0.75'), max: sum.max!, mark: mark(d, values?.[k]) };
    });
    return [{ id: s.id, title: s.title, label: s.label, ranks }];
  });
  return { histograms, boxes };
}

interface Row {
  readonly statistic: string;
  readonly title: string;
  readonly rank?: number;
  readonly summary: Summary;
  readonly reference?: { readonly value: number; readonly below: number; readonly equal: number; readonly percentile: number | null };
}

function rows(f: EnsembleFigures, specs: Specs, ref?: PlanFigures): Row[] {
  const place = (d: Distribution, v: number | undefined) => (v === undefined ? undefined : { value: v, ...d.place(v) });
  const out: Row[] = [];
  for (const s of specs.scalars) {
    const d = f.scalars.get(s.id);
    if (d) out.push({ statistic: s.id, title: s.title, summary: d.summary(), reference: place(d, ref?.scalars.get(s.id)) });
  }
  for (const s of specs.ranks) {
    (f.ranks.get(s.id) ?? []).forEach((d, k) =>
      out.push({ statistic: s.id, title: s.title, rank: k + 1, summary: d.summary(), reference: place(d, ref?.ranks.get(s.id)?.[k]) }),
    );
  }
  return out;
}

/**
 * The statistics as files: JSONL, a line per statistic (and rank) with the summary fields of
 * `binlens stats --summary` (n, min, mean, max, quantiles, exact) and the reference's placement;
 * CSV, the same rows flat (quantile columns q0.05 … q0.95).
 */
export function ensembleExports(
  f: EnsembleFigures,
  specs: Specs,
  ref?: { readonly name: string; readonly figures: PlanFigures },
): { csv: string; jsonl: string } {
  const list = rows(f, specs, ref?.figures);
  const jsonl = list
    .map((r) =>
      JSON.stringify({
        statistic: r.statistic,
        title: r.title,
        ...(r.rank !== undefined ? { rank: r.rank } : {}),
        ...r.summary,
        ...(r.reference ? { reference: { plan: ref!.name, ...r.reference } } : {}),
      }),
    )
    .join('\n');
  const header = [
    'statistic',
    'title',
    'rank',
    'n',
    'min',
    'mean',
    'max',
    ...QUANTILES.map((q) => `q${q}`),
    'exact',
    'reference',
    'reference_value',
    'reference_percentile',
  ];
  const cell = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' && /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : String(v));
  const csv = [
    header,
    ...list.map((r) => [
      r.statistic,
      r.title,
      r.rank,
      r.summary.n,
      r.summary.min,
      r.summary.mean,
      r.summary.max,
      ...QUANTILES.map((q) => r.summary.quantiles[String(q)]),
      r.summary.exact,
      r.reference && ref!.name,
      r.reference?.value,
      r.reference?.percentile,
    ]),
  ]
    .map((cells) => cells.map(cell).join(','))
    .join('\n');
  return { csv: `${csv}\n`, jsonl: `${jsonl}\n` };
}
