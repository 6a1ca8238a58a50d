import { afterEach, describe, expect, it, vi } from 'vitest';
import { THREAD_MEMORY, type EngineOps } from '../protocol/protocol.js';
import { EnginePool, type EngineLane, type EngineLease, type PoolWorker } from './enginePool.js';

/** A worker that records the calls it gets and answers each with its op name. */
class FakeWorker implements PoolWorker {
  readonly calls: { op: string; params: Record<string, unknown>; signal?: AbortSignal }[] = [];
  terminated = false;
  private exit: (() => void) | undefined;
  /** Calls answer only when released, to hold them in flight. */
  hold = false;
  private readonly held: (() => void)[] = [];

  /** The bytes each document's caches hold, by full id: what 'memory' reports and 'trim' empties. */
  readonly cached = new Map<string, number>();

  /** The lane the pool started it for (a job lane's thread runs at a lower OS priority). */
  constructor(readonly lane?: EngineLane) {}

  readonly rpc = {
    call: (op: string, params: unknown, opts: { signal?: AbortSignal } = {}) => {
      this.calls.push({ op, params: params as Record<string, unknown>, signal: opts.signal });
      if (op === 'memory') return Promise.resolve([...this.cached].map(([doc, bytes]) => ({ doc, bytes })));
      if (op === 'trim') return Promise.resolve(void this.cached.set((params as { doc: string }).doc, 0));
      if (!this.hold) return Promise.resolve(op);
      return new Promise((resolve, reject) => {
        this.held.push(() => resolve(op));
        opts.signal?.addEventListener('abort', () => reject(new Error('cancelled')));
      });
    },
  } as unknown as PoolWorker['rpc'];

  terminate(): Promise<void> {
    this.terminated = true;
    this.exit?.();
    return Promise.resolve();
  }
  onExit(listener: () => void): void {
    this.exit = listener;
  }
  crash(): void {
    this.exit?.();
  }
}

function pool(maxWorkers: number, idleMs = 1000, budgetBytes?: number) {
  const workers: FakeWorker[] = [];
  const p = new EnginePool({ maxWorkers, idleMs, budgetBytes, budgetDelayMs: 100, start: (lane) => (workers.push(new FakeWorker(lane)), workers.at(-1)!) });
  return { p, workers };
}

const MB = 2 ** 20;

/** Opens `doc` for each lease and has its thread say its caches hold `mb` MB. */
async function openWithCaches(workers: FakeWorker[], leases: readonly EngineLease[], mb: readonly number[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, l] of leases.entries()) {
    await l.rpc.call('open', { doc: 'doc', path: `/f${i}.idv`, name: `f${i}.idv` });
    const w = workers.find((x) => x.calls.some((c) => c.op === 'open' && c.params.path === `/f${i}.idv`))!;
    const id = String(w.calls.findLast((c) => c.op === 'open')!.params.doc);
    w.cached.set(id, mb[i]! * MB);
    ids.push(id);
  }
  return ids;
}

const totalCached = (workers: FakeWorker[]) => workers.reduce((n, w) => n + [...w.cached.values()].reduce((a, b) => a + b, 0), 0);

afterEach(() => vi.useRealTimers());

describe('the engine pool', () => {
  it('serves fifty editors on as many threads as the view lane has, spread evenly', () => {
    const { p, workers } = pool(4);
    const leases = Array.from({ length: 50 }, () => p.lease('view'));
    expect(workers).toHaveLength(2);
    for (const [i, l] of leases.entries()) void l.rpc.call('page', { doc: 'doc', table: 't', from: i, count: 1 });
    expect(workers.map((w) => w.calls.length)).toEqual([25, 25]);
  });

  it('keeps jobs off the threads that page for editors, starting theirs as job threads, and shares one view thread when there is one', () => {
    const four = pool(4);
    four.p.lease('view');
    const job = four.p.lease('job');
    four.p.lease('job');
    void job.rpc.call('verify', { doc: 'verify' });
    expect(four.workers.map((w) => w.lane)).toEqual(['view', 'job', 'job']);
    expect(four.workers[0]!.calls).toEqual([]);
    expect(four.workers[1]!.calls.map((c) => c.op)).toEqual(['verify']);
    const one = pool(1);
    one.p.lease('view');
    one.p.lease('job');
    // The one thread pages for editors too: it is not started as a job thread.
    expect(one.workers.map((w) => w.lane)).toEqual(['view']);
  });

  it("gives each client its own document names: two editors of one file both say 'doc' and never meet", async () => {
    const { p, workers } = pool(1);
    const [a, b] = [p.lease('view'), p.lease('view')];
    await a.rpc.call('open', { doc: 'doc', path: '/x.ben', name: 'x.ben' });
    await b.rpc.call('open', { doc: 'doc', path: '/x.ben', name: 'x.ben' });
    await a.rpc.call('diff', { diff: 'd', a: 'a', b: 'b' });
    await b.rpc.call('formats', {} as EngineOps['formats']['params']);
    const names = workers[0]!.calls.map((c) => c.params);
    expect(names[0]!.doc).not.toBe(names[1]!.doc);
    expect(names[2]).toMatchObject({ diff: `${String(names[0]!.doc).split('/')[0]}/d`, a: `${String(names[0]!.doc).split('/')[0]}/a` });
    expect(names[3]).toEqual({});
  });

  it('a released client has its documents forgotten and its calls in flight cancelled; other clients go on', async () => {
    const { p, workers } = pool(1);
    const [a, b] = [p.lease('view'), p.lease('view')];
    const w = workers[0]!;
    w.hold = true;
    const pending = a.rpc.call('count', { doc: 'doc', table: 't' });
    const other = b.rpc.call('page', { doc: 'doc', table: 't', from: 0, count: 1 });
    a.release();
    await expect(pending).rejects.toThrow('cancelled');
    const forget = w.calls.find((c) => c.op === 'forget')!;
    expect(forget.params.prefix).toBe(`${String(w.calls[0]!.params.doc).split('/')[0]}/`);
    expect(w.calls.find((c) => c.op === 'page')!.signal!.aborted).toBe(false);
    await expect(a.rpc.call('top', { doc: 'doc' })).rejects.toThrow('released');
    void other;
  });

  it('ends a thread left without clients after its idle time, and starts a fresh one for the next', () => {
    vi.useFakeTimers();
    const { p, workers } = pool(2, 1000);
    const a = p.lease('view');
    a.release();
    vi.advanceTimersByTime(999);
    const b = p.lease('view');
    expect(workers).toHaveLength(1);
    b.release();
    vi.advanceTimersByTime(1000);
    expect([workers[0]!.terminated, p.threads]).toEqual([true, 0]);
    p.lease('view');
    expect(workers).toHaveLength(2);
  });

  it('a client whose thread no longer answers ends it: the other clients there are told, and the next lease gets a fresh thread', async () => {
    const { p, workers } = pool(2);
    const [stuck, neighbour] = [p.lease('job'), p.lease('job')];
    expect(workers).toHaveLength(1);
    stuck.abandon();
    expect([workers[0]!.terminated, p.threads]).toEqual([true, 0]);
    await expect(neighbour.rpc.call('verify', { doc: 'doc' })).rejects.toThrow('engine stopped');
    const fresh = p.lease('job');
    await fresh.rpc.call('verify', { doc: 'doc' });
    expect(workers).toHaveLength(2);
    expect(workers[1]!.calls.map((c) => c.op)).toEqual(['verify']);
  });

  it('replaces a crashed thread for the next client', () => {
    const { p, workers } = pool(1);
    p.lease('view');
    workers[0]!.crash();
    expect(p.threads).toBe(0);
    p.lease('view');
    expect(workers).toHaveLength(2);
  });
});

describe('the memory budget across documents', () => {
  it('has the least recently used documents give back their caches, across threads, until the rest fit', async () => {
    const { p, workers } = pool(4, 1000, 150 * MB);
    const leases = Array.from({ length: 4 }, () => p.lease('view'));
    const [a, b, c, d] = await openWithCaches(workers, leases, [100, 100, 100, 40]);
    expect(workers).toHaveLength(2);
    // Used since, oldest first: c, a, d, b.
    for (const i of [2, 0, 3, 1]) await leases[i]!.rpc.call('page', { doc: 'doc', table: 't', from: 0, count: 10 });
    expect(await p.enforceBudget()).toEqual([c, a]);
    expect(totalCached(workers)).toBe(140 * MB);
    // b grows, c comes back into use: now d is the oldest with caches, then b.
    workers.find((w) => w.cached.has(b!))!.cached.set(b!, 230 * MB);
    await leases[2]!.rpc.call('page', { doc: 'doc', table: 't', from: 0, count: 10 });
    expect(await p.enforceBudget()).toEqual([d, b]);
    expect(totalCached(workers)).toBe(0);
  });

  it('keeps the total within the budget whatever the sizes and the order of use', async () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let round = 0; round < 20; round++) {
      const budget = (50 + (next() % 300)) * MB;
      const { p, workers } = pool(1 + (next() % 6), 1000, budget);
      const leases = Array.from({ length: 2 + (next() % 20) }, () => p.lease('view'));
      await openWithCaches(
        workers,
        leases,
        leases.map(() => next() % 120),
      );
      for (let k = 0; k < 30; k++) await leases[next() % leases.length]!.rpc.call('page', { doc: 'doc', table: 't', from: 0, count: 1 });
      const before = totalCached(workers);
      const trimmed = await p.enforceBudget();
      expect(totalCached(workers)).toBeLessThanOrEqual(budget);
      // Nothing is given back while the total fits.
      if (before <= budget) expect(trimmed).toEqual([]);
      await p.dispose();
    }
  });

  it('counts the caches a moment after clients have asked something, once for a burst of calls', async () => {
    vi.useFakeTimers();
    const { p, workers } = pool(1, 1000, 10 * MB);
    const lease = p.lease('view');
    const [id] = await openWithCaches(workers, [lease], [30]);
    for (let i = 0; i < 5; i++) await lease.rpc.call('page', { doc: 'doc', table: 't', from: i, count: 1 });
    const counts = () => workers[0]!.calls.filter((c) => c.op === 'memory').length;
    expect(counts()).toBe(0);
    await vi.advanceTimersByTimeAsync(100);
    expect(counts()).toBe(1);
    expect(workers[0]!.cached.get(id!)).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(counts()).toBe(1);
  });

  it('a document left alone for the idle time gives back its caches while the total fits; a quiet pool sets no timer', async () => {
    vi.useFakeTimers();
    const workers: FakeWorker[] = [];
    const p = new EnginePool({
      maxWorkers: 2,
      budgetBytes: 1000 * MB,
      budgetDelayMs: 100,
      idleCachesMs: 5000,
      start: () => (workers.push(new FakeWorker()), workers.at(-1)!),
    });
    const [a, b] = [p.lease('view'), p.lease('view')];
    const [idA, idB] = await openWithCaches(workers, [a, b], [50, 50]);
    await vi.advanceTimersByTimeAsync(3000);
    await b.rpc.call('page', { doc: 'doc', table: 't', from: 0, count: 1 });
    await vi.advanceTimersByTimeAsync(2000);
    // Five seconds after the first call: a was left alone that long, b was asked something two seconds ago.
    expect(workers[0]!.cached).toEqual(
      new Map([
        [idA, 0],
        [idB, 50 * MB],
      ]),
    );
    await vi.advanceTimersByTimeAsync(5000);
    expect(workers[0]!.cached).toEqual(
      new Map([
        [idA, 0],
        [idB, 0],
      ]),
    );
    expect(vi.getTimerCount()).toBe(0);
    await p.dispose();
  });
});

describe("a thread's own memory in the budget", () => {
  it("a thread's own memory (its grown WebAssembly heaps) is counted with the documents and given back first, in that thread", async () => {
    const { p, workers } = pool(4, 1000, 150 * MB);
    const leases = Array.from({ length: 2 }, () => p.lease('view'));
    const [a] = await openWithCaches(workers, leases, [60, 60]);
    const grown = workers.find((w) => w.cached.has(a!))!;
    grown.cached.set(THREAD_MEMORY, 64 * MB);
    expect(await p.enforceBudget()).toEqual([`thread ${workers.indexOf(grown)}`]);
    expect(grown.calls.findLast((c) => c.op === 'trim')?.params).toEqual({ doc: THREAD_MEMORY });
    expect(totalCached(workers)).toBe(120 * MB);
  });
});
