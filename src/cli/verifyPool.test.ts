import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPool } from './verifyPool.js';

/** A worker that doubles numbers, throws on 'boom' and exits on 'exit': the ways a verifier can go. */
const WORKER = `
import { parentPort, workerData } from 'node:worker_threads';
if (workerData.binlensPool !== 'double') throw new Error('wrong pool');
parentPort.on('message', ({ index, item }) => {
  if (item === 'boom') setTimeout(() => { throw new Error('decoder bug'); });
  else if (item === 'exit') process.exit(3);
  else parentPort.postMessage({ index, result: item * 2 });
});
`;

function workerFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'binlens-pool-')), 'worker.mjs');
  writeFileSync(file, WORKER);
  return file;
}

async function run(items: readonly unknown[], size: number) {
  const results = new Map<number, unknown>();
  const crashes = new Map<number, string>();
  await runPool(workerFile(), { binlensPool: 'double', options: {} }, items, size, (i, r) => results.set(i, r), (i, e) => crashes.set(i, e.message));
  return { results, crashes };
}

describe('the verify pool', () => {
  it('answers every item once, by its index, whatever the number of workers', async () => {
    const items = Array.from({ length: 25 }, (_, i) => i);
    for (const size of [1, 2, 7, 40]) {
      const { results, crashes } = await run(items, size);
      expect(crashes.size).toBe(0);
      expect([...results].sort((a, b) => a[0] - b[0])).toEqual(items.map((i) => [i, i * 2]));
    }
  });

  it('a worker that throws or exits costs only its own item; a fresh worker serves the rest', async () => {
    const { results, crashes } = await run([1, 'boom', 2, 'exit', 3, 4], 2);
    expect(new Map([...crashes].map(([i, m]) => [i, m.includes('decoder bug') || m.includes('exited with code 3')]))).toEqual(
      new Map([
        [1, true],
        [3, true],
      ]),
    );
    expect(new Map([...results].sort((a, b) => a[0] - b[0]))).toEqual(
      new Map([
        [0, 2],
        [2, 4],
        [4, 6],
        [5, 8],
      ]),
    );
  });

  it('an empty list needs no worker', async () => {
    expect(await run([], 4)).toEqual({ results: new Map(), crashes: new Map() });
  });
});
