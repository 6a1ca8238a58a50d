import { Worker } from 'node:worker_threads';

/** What a pool worker is told when it starts: which job it serves. */
export interface PoolWorkerData {
  readonly binlensPool: string;
  readonly options: unknown;
}

/**
 * Runs `items` through `size` worker threads started from `entry` (the CLI's own script, which
 * serves jobs when started as a pool worker), handing the next item to whichever worker is
 * free, so one slow file holds one worker and the rest go on. A worker that dies (an exception
 * outside the format's errors, an out-of-memory) costs only its current item, reported through
 * `onCrash`; a fresh worker takes its place.
 */
export async function runPool<T, R>(
  entry: string,
  data: PoolWorkerData,
  items: readonly T[],
  size: number,
  onResult: (index: number, result: R) => void,
  onCrash: (index: number, error: Error) => void,
): Promise<void> {
  let next = 0;
  let done = 0;
  if (items.length === 0) return;
  await new Promise<void>((resolve) => {
    const start = (): void => {
      const worker = new Worker(entry, { workerData: data, argv: [], stdout: false, stderr: false });
      let current = -1;
      const feed = (): void => {
        if (next >= items.length) {
          current = -1;
          void worker.terminate();
          return;
        }
        current = next++;
        worker.postMessage({ index: current, item: items[current] });
      };
      const finish = (): void => {
        if (++done === items.length) resolve();
      };
      worker.on('message', (m: { index: number; result: R }) => {
        onResult(m.index, m.result);
        finish();
        feed();
      });
      const lose = (e: Error): void => {
        if (current < 0) return;
        const lost = current;
        current = -1;
        onCrash(lost, e);
        finish();
        if (next < items.length) start();
      };
      worker.on('error', lose);
      worker.on('exit', (code) => lose(new Error(`the worker exited with code ${code}`)));
      feed();
    };
    for (let i = 0; i < Math.min(size, items.length); i++) start();
  });
}
