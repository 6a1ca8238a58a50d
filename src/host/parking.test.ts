import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineOps } from '../protocol/protocol.js';
import { RpcClient, RpcServer, memoryChannel } from '../protocol/rpc.js';
import { engineHandlers } from './engine/engine.js';
import { IndexStore } from './engine/indexStore.js';
import { nodePlatform } from './engine/nodePlatform.js';
import { EnginePool, type PoolWorker } from './enginePool.js';
import { toErrorDTO } from './errors.js';
import { parkingLease, type ParkingLease } from './parking.js';

/** The engine in this thread, as the pool's worker: the opens it answered and the saved indexes it found. */
function inProcess(indexDir: string, seen: { opens: number; restored: number }): PoolWorker {
  const store = new IndexStore(indexDir);
  const indexes = {
    save: store.save.bind(store),
    load: async (...args: Parameters<IndexStore['load']>) => {
      const bytes = await store.load(...args);
      if (bytes && args[2] === undefined) seen.restored++;
      return bytes;
    },
  };
  const handlers = engineHandlers({ ...nodePlatform, indexes });
  const open = handlers.open;
  handlers.open = (p, ctx) => (seen.opens++, open(p, ctx));
  const [client, server] = memoryChannel();
  const rpcServer = new RpcServer<EngineOps>(server, handlers, toErrorDTO);
  const rpc = new RpcClient<EngineOps>(client);
  let exit = () => undefined as void;
  return {
    rpc,
    async terminate() {
      await rpc.call('shutdown', {});
      rpc.dispose();
      rpcServer.dispose();
      exit();
    },
    onExit: (listener) => void (exit = listener),
  };
}

const identity = async (path: string) => {
  const st = statSync(path, { throwIfNoEntry: false });
  return st && `${st.size}:${st.mtimeMs}`;
};

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 10));
}

/** What an editor's page holds: the tree two levels down, a table page deep in the file, a count. */
async function screen(l: ParkingLease, path: string) {
  const opened = await l.rpc.call('open', { doc: 'doc', path, name: 'plans.ben' });
  if (opened.kind !== 'opened') throw new Error('did not open');
  const table = opened.doc.tables[0]!.id;
  await l.rpc.call('count', { doc: 'doc', table });
  const top = await l.rpc.call('children', { doc: 'doc', node: opened.doc.root.id, from: 0, count: 50 });
  const expanded = top.find((n) => n.childCount !== 0)!.id;
  // The node the page has expanded first: after a reopen, the engine knows only the root's id.
  const ask = async () => ({
    deeper: await l.rpc.call('children', { doc: 'doc', node: expanded, from: 0, count: 20 }),
    top: await l.rpc.call('children', { doc: 'doc', node: opened.doc.root.id, from: 0, count: 50 }),
    page: await l.rpc.call('page', { doc: 'doc', table, from: 4990, count: 10 }),
  });
  return { ask, table };
}

describe('an idle editor closes its document in the engine and opens it again on the next request', () => {
  let dir: string;
  let ben: string;
  const seen = { opens: 0, restored: 0 };
  let pool: EnginePool;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'binlens-parking-'));
    // 5 000 plans of 300 nodes (2 MB): counted in the background, past the first frame index checkpoint.
    let seed = 1;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16;
    const plans = Array.from({ length: 5000 }, (_, k) => JSON.stringify({ assignment: Array.from({ length: 300 }, () => 1 + (next() % 8)), sample: k + 1 }));
    writeFileSync(join(dir, 'plans.jsonl'), plans.join('\n') + '\n');
    ben = join(dir, 'plans.ben');
    const ctx = { signal: new AbortController().signal, emit: () => undefined };
    await engineHandlers(nodePlatform).import(
      { input: join(dir, 'plans.jsonl'), importer: 'ben', out: ben, options: { variant: 'mkv_chain' }, force: false },
      ctx,
    );
    pool = new EnginePool({ maxWorkers: 2, idleMs: 10, start: () => inProcess(join(dir, 'indexes'), seen) });
  });
  afterAll(async () => {
    await pool.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const lease = () => parkingLease({ lease: () => pool.lease('view'), closeAfterMs: 30, identity });

  it('gives its thread back once idle, and answers the ids and pages its webview holds as before, from the saved index', async () => {
    const l = lease();
    const { ask } = await screen(l, ben);
    const before = await ask();
    await until(() => l.parked && pool.threads === 0);
    const opens = seen.opens;
    const restored = seen.restored;
    // Node ids, rows and counts the page already shows are answered alike: it has nothing to redraw.
    expect(await ask()).toEqual(before);
    expect(seen.opens).toBe(opens + 1);
    expect(seen.restored).toBe(restored + 1);
    expect(pool.threads).toBe(1);
    l.release();
  });

  it('requests arriving while it opens again wait for that one reopen', async () => {
    const l = lease();
    const { ask, table } = await screen(l, ben);
    const before = await ask();
    await until(() => l.parked);
    const opens = seen.opens;
    const [a, b, c] = await Promise.all([ask(), ask(), l.rpc.call('page', { doc: 'doc', table, from: 4990, count: 10 })]);
    expect(seen.opens).toBe(opens + 1);
    expect([a, b]).toEqual([before, before]);
    expect(c).toEqual(before.page);
    l.release();
  });

  it("keeps what a verify found: the reopened document's tree marks it again", async () => {
    const l = lease();
    const { ask } = await screen(l, ben);
    const placed = (await ask()).top.find((n) => n.range !== undefined && n.range.length > 0)!;
    const checks = [{ name: 'frame', status: 'fail' as const, detail: 'damaged here', offset: placed.range!.offset }];
    const marked = await l.rpc.call('findings', { doc: 'doc', checks });
    expect(marked.children.find((n) => n.id === placed.id)).toMatchObject({ mark: 'error', note: 'frame: damaged here' });
    const before = await ask();
    await until(() => l.parked);
    expect(await ask()).toEqual(before);
    l.release();
  });

  it('a file changed while closed is reported as changed, not served', async () => {
    const copy = join(dir, 'changing.ben');
    writeFileSync(copy, new Uint8Array(await import('node:fs/promises').then((fs) => fs.readFile(ben))));
    const l = lease();
    let stale = 0;
    l.onStale(() => stale++);
    const { ask } = await screen(l, copy);
    await until(() => l.parked);
    appendFileSync(copy, new Uint8Array(16));
    const opens = seen.opens;
    await expect(ask()).rejects.toMatchObject({ error: { message: 'file changed', code: 'cancelled' } });
    expect(stale).toBe(1);
    expect(seen.opens).toBe(opens);
    // The listener's open (the editor's reload) goes through on the lease the request took.
    expect((await l.rpc.call('open', { doc: 'doc', path: copy, name: 'changing.ben' })).kind).toBe('opened');
    l.release();
  });
});
