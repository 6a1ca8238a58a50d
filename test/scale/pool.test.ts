import { readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EnginePool } from '../../src/host/enginePool.js';
import { startEngineWorker } from '../../src/host/engineWorker.js';
import { parkingLease } from '../../src/host/parking.js';
import { statSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

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
/** A full collection, for heap sizes that say what is still referenced. */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
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
      if (opened.kind === 'opened' && opened.doc.tables[0])
        await leases[i]!.rpc.call('page', { doc: 'doc', table: opened.doc.tables[0].id, from: 0, count: 100 });
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

describe('opening and closing documents for a long while', () => {
  it('200 rounds of open, page, verify and close bring threads, handles and memory back to where they were', async () => {
    const pool = new EnginePool({ maxWorkers: 4, idleMs: 100, start: () => startEngineWorker(resolve('dist/engine.js')) });
    // Each call with a signal of its own, as an editor's come (its webview request's, editorProvider.ts).
    const signal = () => ({ signal: new AbortController().signal });
    const round = async (i: number) => {
      const path = files[i % files.length]!;
      const lease = pool.lease(i % 4 === 0 ? 'job' : 'view');
      const opened = await lease.rpc.call('open', { doc: 'doc', path, name: basename(path) }, signal());
      if (opened.kind === 'opened') {
        if (opened.doc.tables[0]) await lease.rpc.call('page', { doc: 'doc', table: opened.doc.tables[0].id, from: 0, count: 50 }, signal());
        if (i % 4 === 0) await lease.rpc.call('verify', { doc: 'doc' }, signal());
      }
      lease.release();
    };
    const settle = async () => {
      await new Promise((r) => setTimeout(r, 400));
      expect(pool.threads).toBe(0);
      gc();
      return {
        rss: process.memoryUsage().rss,
        heap: process.memoryUsage().heapUsed,
        resources: process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap').length,
      };
    };
    // Warm-up, until the heaps have grown to the size they keep: each thread's V8 young generation
    // grows with what survives its scavenges (to 16 MB a semi-space) and the old space until its next
    // mark-compact. Measured over 600 rounds (+7 MB from round 100 to 600 with threads coming and
    // going, +12 MB with two threads kept; +7 and flattening with --max-semi-space-size=1;
    // MALLOC_ARENA_MAX=2 lowers the level by 6 MB, not the growth; main heap +2 MB, external memory
    // flat), the growth slows after about 300 rounds: +3 MB (3.5 %) from 300 to 600.
    for (let i = 0; i < 300; i++) await round(i);
    const base = await settle();
    for (let i = 0; i < 200; i++) await round(i);
    const after = await settle();
    console.log(
      `pool soak: RSS ${(base.rss / 2 ** 20).toFixed(0)} → ${(after.rss / 2 ** 20).toFixed(0)} MB, this thread's heap ${(base.heap / 2 ** 20).toFixed(1)} → ${(after.heap / 2 ** 20).toFixed(1)} MB, active resources ${base.resources} → ${after.resources}`,
    );
    expect(after.resources).toBeLessThanOrEqual(base.resources);
    // What the host keeps of a call: a signal kept by its listener cost 6 KB a round (1.2 MB here).
    expect(after.heap - base.heap).toBeLessThan(0.5 * 2 ** 20);
    // Issue 21 asks for 10 %: a leak of 50 KB a round fails it by round 200.
    expect(after.rss).toBeLessThan(base.rss * 1.1);
    await pool.dispose();
  });
});

describe('ending an engine thread', () => {
  it('ends by itself once its documents are closed, not by termination (which can crash Node after WebAssembly ran)', async () => {
    const engine = startEngineWorker(resolve('dist/engine.js'));
    const code = new Promise<number>((r) => engine.onExit(r));
    // An xz stream (liblzma in WebAssembly) and an fst page (the WebAssembly walk).
    for (const [doc, rel] of [
      ['x', 'ben/grid4x4_chain.mkv_chain.xben'],
      ['f', 'fst/medium.map.fst3.fst'],
    ] as const) {
      const opened = await engine.rpc.call('open', { doc, path: join(FIXTURES, rel), name: basename(rel) });
      if (opened.kind === 'opened') await engine.rpc.call('page', { doc, table: opened.doc.tables[0]!.id, from: 0, count: 50 });
    }
    await engine.terminate();
    // Worker.terminate() ends a thread with exit code 1; a thread whose event loop ran empty, with 0.
    expect(await code).toBe(0);
  });
});

describe('editors left idle on the pool', () => {
  it('close their documents, their threads end and the memory goes, and each answers as before at its next request', async () => {
    const pool = new EnginePool({ maxWorkers: 4, idleMs: 100, budgetBytes: 256 * 2 ** 20, start: () => startEngineWorker(resolve('dist/engine.js')) });
    const identity = async (path: string) => {
      const st = statSync(path, { throwIfNoEntry: false });
      return st && `${st.size}:${st.mtimeMs}`;
    };
    const editors = files.slice(0, 20).map((path) => ({ path, lease: parkingLease({ lease: () => pool.lease('view'), closeAfterMs: 1500, identity }) }));
    const tables = new Map<string, string | undefined>();
    /** What a page shows: the first rows and the top of the tree. */
    const screen = async ({ path, lease }: (typeof editors)[number]) => {
      const table = tables.get(path);
      return [
        table ? await lease.rpc.call('page', { doc: 'doc', table, from: 0, count: 100 }) : [],
        await lease.rpc.call('children', { doc: 'doc', node: '0', from: 0, count: 50 }),
      ];
    };
    const base = process.memoryUsage().rss;
    const before = [];
    for (const e of editors) {
      const opened = await e.lease.rpc.call('open', { doc: 'doc', path: e.path, name: basename(e.path) });
      tables.set(e.path, opened.kind === 'opened' ? opened.doc.tables[0]?.id : undefined);
      before.push(await screen(e));
    }
    // The xorbs verified: the LZ4 memory that grows is the thread's, and the budget takes it back.
    for (const e of editors.filter((x) => x.path.endsWith('.xorb'))) await e.lease.rpc.call('verify', { doc: 'doc' });
    expect((await pool.enforceBudget()).some((t) => t.startsWith('thread'))).toBe(true);
    expect((await pool.enforceBudget()).some((t) => t.startsWith('thread'))).toBe(false);
    const open = process.memoryUsage().rss;
    await new Promise((r) => setTimeout(r, 2500));
    expect(editors.every((e) => e.lease.parked)).toBe(true);
    expect(pool.threads).toBe(0);
    const closed = process.memoryUsage().rss;
    const after = [];
    for (const e of editors) after.push(await screen(e));
    expect(after).toEqual(before);
    console.log(
      `parking: 20 editors +${((open - base) / 2 ** 20).toFixed(0)} MB RSS on 2 threads; closed while idle: 0 threads, ${((closed - open) / 2 ** 20).toFixed(0)} MB; reopened: ${pool.threads} threads`,
    );
    for (const e of editors) e.lease.release();
    await pool.dispose();
  });
});
