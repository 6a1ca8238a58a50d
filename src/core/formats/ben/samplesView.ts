import { rethrowUnlessFormatError } from '../../errors.js';
import { type Damage, SHOW_DAMAGED, damagedCell } from '../../integrity.js';
import type { CatSpec, Row, Table, TaskContext } from '../../model.js';
import { XzBlockError } from './checkedXz.js';
import type { Ensemble } from './ensemble.js';
import { type SampleRun, writeJsonlSamples } from './pipeline.js';
import type { Plan } from './plan.js';

const stamp = new Uint32Array(65536);
let stampRound = 0;

/** Number of distinct districts in a plan. */
export function districtCount(p: Plan): number {
  if (++stampRound === 0xffffffff) (stamp.fill(0), (stampRound = 1));
  let n = 0;
  for (let i = 0; i < p.runs; i++) {
    const v = p.values[i]!;
    if (stamp[v] !== stampRound) ((stamp[v] = stampRound), n++);
  }
  return n;
}

export interface SampleCount {
  readonly known: number;
  readonly complete: boolean;
}

/** Damage a whole-stream check found (a BENDL stream CRC32C mismatch): every sample is suspect. */
export type WholeStreamDamage = (signal?: AbortSignal) => Promise<Damage | undefined>;

/** How the samples table reads: the samples, a whole-stream check, and whether damaged values show anyway. */
export interface SamplesTableSource {
  readonly ens: Ensemble;
  count(): SampleCount;
  finish(ctx: TaskContext): Promise<number>;
  readonly wholeStream?: WholeStreamDamage;
}

/**
 * One row per sample (repeats expanded): number, the repeat count of its frame, runs,
 * districts present and nodes. Rows come from the ensemble's seek, so page k costs one seek.
 * Samples that a failed check covers (the whole stream of a bundle whose CRC32C fails, an xz
 * block whose check fails and the unchecked ones after it) show as damaged cells; with
 * "show damaged values anyway" they show what they decode to, labelled.
 */
export function samplesTable(s: SamplesTableSource, showDamaged = false): Table {
  const { ens } = s;
  const cells = (r: SampleRun, k: number, damaged: string | undefined): Row => {
    const values = [r.repeat ?? r.count, r.plan.runs, districtCount(r.plan), r.plan.nodes];
    if (damaged === undefined) return { cells: [r.firstSample + k, ...values] };
    return { cells: [r.firstSample + k, ...values.map((v) => damagedCell(damaged, showDamaged ? v : undefined))], mark: 'error' };
  };
  /** Rows [from, from + n) of one decode; a check failure comes back with the rows before it. */
  const read = async (from: number, n: number, rows: Row[], damaged: string | undefined, signal?: AbortSignal): Promise<XzBlockError | undefined> => {
    try {
      for await (const r of ens.from(from, signal, { unchecked: damaged !== undefined })) {
        for (let k = 0; k < r.count && rows.length < n; k++) rows.push(cells(r, k, damaged));
        if (rows.length >= n) break;
      }
    } catch (e) {
      if (e instanceof XzBlockError && e.code !== 'cancelled') return e;
      // A damaged stream still shows the samples before the damage; the error is the document's warning.
      if (rows.length === 0) throw e;
      rethrowUnlessFormatError(e, 'cancelled');
    }
    return undefined;
  };
  return {
    id: showDamaged ? 'samples:showDamaged' : 'samples',
    title: 'Samples',
    columns: [
      { key: 'sample', title: 'sample', type: 'number', description: '1-based, as in the JSONL' },
      { key: 'repeat', title: 'repeat count', type: 'number', description: 'how many consecutive samples share this plan (MkvChain/TwoDelta count)' },
      { key: 'runs', title: 'runs', type: 'number' },
      { key: 'districts', title: 'districts present', type: 'number' },
      { key: 'nodes', title: 'nodes', type: 'number' },
    ],
    rowCount: () => s.count(),
    count: (ctx) => s.finish(ctx),
    params: [SHOW_DAMAGED],
    withParams: async (values) => samplesTable(s, values[SHOW_DAMAGED.key] === true),
    page: async (from, n, signal) => {
      const rows: Row[] = [];
      const whole = await s.wholeStream?.(signal);
      const failed = await read(from, n, rows, whole && `${whole.unit}: ${whole.detail}`, signal);
      // What a failed xz block held back, and everything after it, is unchecked: shown as damaged.
      if (failed && rows.length < n) await read(from + rows.length, n, rows, `${failed.field}: ${failed.detail}`, signal);
      return rows;
    },
  };
}

/** `binlens cat`: JSONL byte-identical to the reference decoder; --from skips samples, --count limits them. */
export function catSpec(samples: (ctx: TaskContext, from: number) => AsyncIterable<SampleRun>): CatSpec {
  return {
    formats: ['jsonl'],
    async run(_format, range, out, ctx) {
      const from = range.from ?? 0;
      const limit = range.count ?? Number.POSITIVE_INFINITY;
      async function* limited() {
        let left = limit;
        if (left <= 0) return;
        for await (const r of samples(ctx, from)) {
          const count = Math.min(left, r.count);
          left -= count;
          yield count === r.count ? r : { ...r, count };
          if (left <= 0) return;
        }
      }
      await writeJsonlSamples(limited(), out, false, ctx);
    },
  };
}
