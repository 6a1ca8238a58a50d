import { readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EnginePool } from '../../src/host/enginePool.js';
import { startEngineWorker } from '../../src/host/engineWorker.js';

/**
 * Fifty open documents (issue 21): on the pool, every editor of a window shares the view lane's
 * threads (two of four here), where each used to get its own thread at about 13 MB before it read
 * anything. Measured in this process, whose RSS holds the worker threads as the extension host's
 * does: the memory the fifty add, and the first screen of the fiftieth while the other 49 stay open.
 */
const FIXTURES = resolve('../shared/fixtures');
const byFamily = ['ben', 'fst', 'idv', 'xorb', 'bindu'].map((family) =>
  readdirSync(join(FIXTURES, family), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ben|xben|bendl|fst|idv|xorb|bindu)$/.test(f) && !/corrupt|negative|damaged|truncat/.test(f))
    .sort()
    .map((f) => join(FIXTURES, family, f)),
);
/** Fifty files, the families taking turns. */
const files = Array.from({ length: 50 }, (_, i) => byFamily[i % 5]![Math.floor(i / 5) % byFamily[i % 5]!.length]!);

describe('fifty open documents on the engine pool', () => {
  const pool = new EnginePool({ maxWorkers: 4, idleMs: 200, start: () => startEngineWorker(resolve('dist/engine.js')) });
  afterAll(() => pool.dispose());

  it('open on two threads, in a bounded amount of memory, and close back to none', async () => {
    const before = process.memoryUsage().rss;
    const leases = files.map(() => pool.lease('view'));
    const firstScreen: number[] = [];
    for (const [i, path] of files.entries()) {
      const started = performance.now();
      const opened = await leases[i]!.rpc.call('open', { doc: 'doc', path, name: basename(path) });
      if (opened.kind === 'opened' && opened.doc.tables[0]) await leases[i]!.rpc.call('page', { doc: 'doc', table: opened.doc.tables[0].id, from: 0, count: 100 });
      firstScreen.push(performance.now() - started);
    }
    const grownMb = (process.memoryUsage().rss - before) / 2 ** 20;
    console.log(`pool: 50 documents on ${pool.threads} threads, +${grownMb.toFixed(0)} MB RSS; first screen of the 50th ${firstScreen.at(-1)!.toFixed(0)} ms`);
    expect(pool.threads).toBe(2);
    // Fifty threads of their own cost 50 × 13 MB before reading anything; two cost 26.
    expect(grownMb).toBeLessThan(250);
    for (const l of leases) l.release();
    await new Promise((r) => setTimeout(r, 600));
    expect(pool.threads).toBe(0);
  });
});
