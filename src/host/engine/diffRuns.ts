import { FormatError, rethrowUnlessFormatError } from '../../core/errors.js';
import { diffDocuments, type DiffInput } from '../../core/ops/diff.js';
import { DiffSideError } from '../../core/ops/diffKit.js';
import type { Difference } from '../../core/model.js';
import type { Handlers } from '../../protocol/rpc.js';
import { RpcError } from '../../protocol/rpc.js';
import { MAX_DIFF_ROWS, MAX_PAGE, type DiffResultDTO, type EngineOps, type RowDTO } from '../../protocol/protocol.js';
import { diffTargets, type DiffTargets } from './diffLocate.js';

/** One diff table: its rows as they arrive, and each row's place in the two files. */
export interface DiffRun {
  readonly rows: RowDTO[];
  readonly targets: DiffTargets[];
  readonly stop: AbortController;
}

/** Events say the row count at most this often (in rows), so a diff of a million keys sends few messages. */
const EVENT_EVERY = 256;

/**
 * The engine's diff operations: `diff` runs `diffDocuments` (the same as `binlens diff`) over two
 * open documents in the background, keeping the first MAX_DIFF_ROWS differences as table rows and
 * counting the rest, so memory stays bounded whatever the files; `diffPage` pages those rows while
 * the diff goes on, `diffTargets` says where a row lies in each file.
 */
export function diffHandlers(
  input: (doc: string) => DiffInput,
  /** The engine's runs by id, so that `forget` can stop and drop a client's. */
  runs: Map<string, DiffRun> = new Map(),
): Pick<Handlers<EngineOps>, 'diff' | 'diffPage' | 'diffTargets'> {
  const run = (id: string): DiffRun => {
    const r = runs.get(id);
    if (!r) throw new RpcError({ message: `no diff ${id}`, code: 'invalid-request' });
    return r;
  };

  return {
    async diff({ diff: id, a, b }, { signal, emit }) {
      const ia = input(a);
      const ib = input(b);
      runs.get(id)?.stop.abort();
      const r: DiffRun = { rows: [], targets: [], stop: new AbortController() };
      runs.set(id, r);
      const stop = AbortSignal.any([signal, r.stop.signal]);
      return collect(diffDocuments(ia, ib, { signal: stop }), r, (rows) => emit({ rows }));
    },

    async diffPage({ diff: id, from, count }) {
      return run(id).rows.slice(from, from + Math.min(count, MAX_PAGE));
    },

    async diffTargets({ diff: id, row }) {
      const t = run(id).targets[row];
      if (!t) throw new RpcError({ message: `no diff row ${row}`, code: 'invalid-request' });
      return t;
    },
  };
}

/** Differences into the run's rows until the summary; damaged or unreadable data ends it as trouble (exit 2), as in the CLI. */
async function collect(
  steps: AsyncGenerator<Difference, { differences: number; counts: Readonly<Record<string, number>> }>,
  r: DiffRun,
  progress: (rows: number) => void,
): Promise<DiffResultDTO> {
  let dropped = 0;
  try {
    for (;;) {
      const step = await steps.next();
      if (step.done) {
        progress(r.rows.length);
        const { differences, counts } = step.value;
        return { exitCode: differences === 0 ? 0 : 1, differences, counts, rows: r.rows.length, dropped };
      }
      if (r.rows.length >= MAX_DIFF_ROWS) {
        dropped++;
        continue;
      }
      const d = step.value;
      r.rows.push({ cells: [d.kind, d.at, d.text] });
      r.targets.push(diffTargets(d));
      if (r.rows.length % EVENT_EVERY === 0) progress(r.rows.length);
    }
  } catch (e) {
    const side = e instanceof DiffSideError ? e.side : undefined;
    const error = e instanceof DiffSideError ? e.error : e;
    rethrowUnlessFormatError(error, 'cancelled');
    return { exitCode: 2, differences: r.rows.length + dropped, counts: {}, rows: r.rows.length, dropped, trouble: troubleOf(side, error) };
  }
}

function troubleOf(side: 'A' | 'B' | undefined, e: FormatError): DiffResultDTO['trouble'] {
  return { side, message: e.message, offset: e.offset, field: e.field };
}
