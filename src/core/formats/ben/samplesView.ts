import { FormatError } from '../../errors.js';
import type { CatSpec, Row, Table, TaskContext } from '../../model.js';
import type { Ensemble } from './ensemble.js';
import { writeJsonlSamples } from './pipeline.js';
import type { Plan } from './plan.js';

const stamp = new Uint32Array(65536);
let stampRound = 0;

/** Number of distinct districts in a plan. */
export function districtCount(p: Plan): number {
  if (++stampRound === 0xffffffff) stamp.fill(0), (stampRound = 1);
  let n = 0;
  for (let i = 0; i < p.runs; i++) {
    const v = p.values[i]!;
    if (stamp[v] !== stampRound) (stamp[v] = stampRound), n++;
  }
  return n;
}

export interface SampleCount {
  readonly known: number;
  readonly complete: boolean;
}

/**
 * One row per sample (repeats expanded): number, the repeat count of its frame, runs,
 * districts present and nodes. Rows come from the ensemble's seek, so page k costs one seek.
 */
export function samplesTable(ens: Ensemble, count: () => SampleCount, finish: (ctx: TaskContext) => Promise<number>): Table {
  return {
    id: 'samples',
    title: 'Samples',
    columns: [
      { key: 'sample', title: 'sample', type: 'number', description: '1-based, as in the JSONL' },
      { key: 'repeat', title: 'repeat count', type: 'number', description: 'how many consecutive samples share this plan (MkvChain/TwoDelta count)' },
      { key: 'runs', title: 'runs', type: 'number' },
      { key: 'districts', title: 'districts present', type: 'number' },
      { key: 'nodes', title: 'nodes', type: 'number' },
    ],
    rowCount: count,
    count: finish,
    page: async (from, n, signal) => {
      const rows: Row[] = [];
      try {
        for await (const r of ens.from(from, signal)) {
          const districts = districtCount(r.plan);
          for (let k = 0; k < r.count && rows.length < n; k++) {
            rows.push({ cells: [r.firstSample + k, r.repeat ?? r.count, r.plan.runs, districts, r.plan.nodes] });
          }
          if (rows.length >= n) break;
        }
      } catch (e) {
        // A damaged stream still shows the samples before the damage; the error is the document's warning.
        if (!(e instanceof FormatError) || e.code === 'cancelled' || rows.length === 0) throw e;
      }
      return rows;
    },
  };
}

/** `binlens cat`: JSONL byte-identical to the reference decoder; --from skips samples, --count limits them. */
export function catSpec(ens: Ensemble): CatSpec {
  return {
    formats: ['jsonl'],
    async run(_format, range, out, ctx) {
      const from = range.from ?? 0;
      const limit = range.count ?? Number.POSITIVE_INFINITY;
      async function* limited() {
        let left = limit;
        for await (const r of ens.from(from, ctx.signal)) {
          if (left <= 0) return;
          const count = Math.min(left, r.count);
          left -= count;
          yield count === r.count ? r : { ...r, count };
        }
      }
      await writeJsonlSamples(limited(), out, false, ctx);
    },
  };
}
