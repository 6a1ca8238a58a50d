import { parentPort, workerData } from 'node:worker_threads';
import { FormatError } from '../../src/core/errors.js';
import { input } from './inputs.js';
import { Rng, type Landmarks } from './mutate.js';
import { baselineOf, checkFlips, drawFlips, oracleDue, oracleSeed, type Baseline, type Flip } from './oracle.js';
import { exercise } from './pipeline.js';
import type { Seed } from './corpus.js';

/**
 * Runs fuzz inputs [from, from + count) and reports each one; the main thread watches for hangs.
 * One in `oracleEvery` inputs of each family is also a silent-corruption check on an intact seed
 * of that family (oracle.ts), reported apart, as the check reads every path in full.
 */
const { seeds, marks, seed, oracleSeeds, oracleEvery } = workerData as {
  seeds: Seed[];
  marks: Landmarks[];
  seed: number;
  oracleSeeds: number[];
  oracleEvery: number;
};
const port = parentPort!;

/** Each seed's undamaged reads, made once per worker. */
const baselines = new Map<number, Promise<Baseline>>();

function crashText(e: unknown): string | undefined {
  if (e instanceof FormatError) return undefined;
  return e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ''}` : String(e);
}

// A batch that throws outside its per-input try is a harness bug: the rejection ends the worker,
// and the main thread reports the worker's 'error'.
port.on('message', (job: { from: number; count: number; families: string[] }) => void runBatch(job));

async function runBatch(job: { from: number; count: number; families: string[] }): Promise<void> {
  for (let index = job.from; index < job.from + job.count; index++) {
    const made = input(seeds, marks, seed, index, job.families);
    port.postMessage({ kind: 'start', index });
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    let crash: string | undefined;
    try {
      await exercise(made.bytes, made.name, undefined, index);
    } catch (e) {
      crash = crashText(e);
    }
    port.postMessage({ kind: 'done', index, family: made.family, ms: performance.now() - started, cpuMs: cpuMs(cpuStarted), crash });
    if (oracleDue(index, job.families.length, oracleEvery)) await oracle(index, made.family);
  }
  port.postMessage({ kind: 'batch' });
}

async function oracle(index: number, family: string): Promise<void> {
  const pool = oracleSeeds.filter((i) => seeds[i]!.family === family);
  if (pool.length === 0) return;
  const rng = new Rng(oracleSeed(seed, index));
  const which = rng.pick(pool);
  const s = seeds[which]!;
  // Announced before each step, so that a hang names what to save: the seed, then its flips.
  port.postMessage({ kind: 'oracle-start', index, seed: which });
  let flips: Flip[] | undefined;
  try {
    let base = baselines.get(which);
    if (!base)
      baselines.set(
        which,
        (base = baselineOf(s.bytes, s.name).catch((e: unknown) => (e instanceof FormatError ? { kind: 'unreadable' as const } : Promise.reject(e)))),
      );
    const b = await base;
    if (b.kind !== 'covered') {
      port.postMessage({ kind: 'oracle', index, family, seed: which, outcome: b.kind });
      return;
    }
    flips = drawFlips(b.ranges, rng);
    port.postMessage({ kind: 'oracle-start', index, seed: which, flips });
    const v = await checkFlips(s.bytes, s.name, b, flips);
    port.postMessage({ kind: 'oracle', index, family, seed: which, flips, outcome: 'checked', silent: v.silent, caught: v.caught, same: v.same });
  } catch (e) {
    port.postMessage({
      kind: 'oracle',
      index,
      family,
      seed: which,
      flips,
      outcome: 'checked',
      crash: crashText(e) ?? `FormatError outside a read path: ${String(e)}`,
    });
  }
}

/** CPU time of the whole process since `since`, in ms: the worker's own, plus the other threads'. */
function cpuMs(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
}
