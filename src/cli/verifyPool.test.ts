import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../../test/helpers/bundle.js';
import { runPool, type PoolOptions } from './verifyPool.js';

let worker = '';
beforeAll(async () => {
  // The worker runs serveJobs as the CLI's pool workers do, bundled as dist/cli is.
  const bundle = await bundleWorker(join(import.meta.dirname, 'verifyPool.testWorker.ts'), 'esm');
  worker = bundle.path;
  return bundle.remove;
});

async function run(items: readonly unknown[], size: number, options?: PoolOptions) {
  const results = new Map<number, unknown>();
  const crashes = new Map<number, string>();
  await runPool(
    worker,
    { binlensPool: 'double', options: {} },
    items,
    size,
    (i, r) => results.set(i, r),
    (i, e) => crashes.set(i, e.message),
    options,
  );
  return { results: new Map([...results].sort((a, b) => a[0] - b[0])), crashes: new Map([...crashes].sort((a, b) => a[0] - b[0])) };
}

describe('the verify pool', () => {
  it('answers every item once, by its index, whatever the number of workers and items sent ahead', async () => {
    const items = Array.from({ length: 300 }, (_, i) => i);
    for (const [size, ahead] of [
      [1, 1],
      [2, 16],
      [7, 3],
      [40, 8],
    ] as const) {
      const { results, crashes } = await run(items, size, { ahead });
      expect(crashes.size).toBe(0);
      expect([...results]).toEqual(items.map((i) => [i, i * 2]));
    }
  });

  it('a worker that throws or exits costs only the item it was on; its other items go to a fresh worker', async () => {
    const items = [1, 'boom', 2, 3, 'exit', 4, 5, 6, 7, 8];
    const { results, crashes } = await run(items, 2, { ahead: 4 });
    expect([...crashes.keys()]).toEqual([1, 4]);
    expect(crashes.get(1)).toContain('decoder bug');
    expect(crashes.get(4)).toContain('exited with code 3');
    expect([...results]).toEqual([0, 2, 3, 5, 6, 7, 8, 9].map((i) => [i, (items[i] as number) * 2]));
  });

  it('a file past its deadline, stuck in a loop or waiting for ever, has its worker stopped and replaced; the rest go on', async () => {
    const items = [1, 'hang', 2, 3, 'never', 4, 5];
    const { results, crashes } = await run(items, 2, { ahead: 3, deadlineMs: () => 1000, checkEveryMs: 50 });
    expect([...crashes.keys()]).toEqual([1, 4]);
    expect(crashes.get(1)).toMatch(/no answer in \d+ s/);
    expect([...results]).toEqual([0, 2, 3, 5, 6].map((i) => [i, (items[i] as number) * 2]));
  });

  it('an empty list needs no worker', async () => {
    expect(await run([], 4)).toEqual({ results: new Map(), crashes: new Map() });
  });
});
