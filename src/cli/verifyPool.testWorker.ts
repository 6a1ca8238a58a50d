import { parentPort, workerData } from 'node:worker_threads';
import { serveJobs, type PoolWorkerData } from './verifyPool.js';

/**
 * The pool worker of verifyPool.test.ts (bundled by the test): doubles numbers, and goes wrong
 * the ways a verifier can on the item that names it: 'boom' throws outside any job, 'exit' ends
 * the thread, 'hang' never returns (a decoder in an endless loop), 'never' never settles.
 */
const data = workerData as PoolWorkerData;
if (data.binlensPool !== 'double') throw new Error('wrong pool');
serveJobs<unknown, number>(parentPort!, data.current, async (item) => {
  if (item === 'boom') throw new Error('decoder bug');
  if (item === 'exit') process.exit(3);
  if (item === 'hang') for (;;);
  if (item === 'never') return new Promise<number>(() => undefined);
  return (item as number) * 2;
});
