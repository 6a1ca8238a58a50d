import { parentPort, workerData } from 'node:worker_threads';
import { FormatError } from '../../src/core/errors.js';
import { input } from './inputs.js';
import type { Landmarks } from './mutate.js';
import { exercise } from './pipeline.js';
import type { Seed } from './corpus.js';

/** Runs fuzz inputs [from, from + count) and reports each one; the main thread watches for hangs. */
const { seeds, marks, seed } = workerData as { seeds: Seed[]; marks: Landmarks[]; seed: number };
const port = parentPort!;

port.on('message', async (job: { from: number; count: number; families: string[] }) => {
  for (let index = job.from; index < job.from + job.count; index++) {
    const made = input(seeds, marks, seed, index, job.families);
    port.postMessage({ kind: 'start', index });
    const started = performance.now();
    let crash: string | undefined;
    try {
      await exercise(made.bytes, made.name, undefined, index);
    } catch (e) {
      if (!(e instanceof FormatError)) crash = e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ''}` : String(e);
    }
    port.postMessage({ kind: 'done', index, family: made.family, ms: performance.now() - started, crash });
  }
  port.postMessage({ kind: 'batch' });
});
