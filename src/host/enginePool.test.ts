import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineOps } from '../shared/protocol.js';
import { EnginePool, type PoolWorker } from './enginePool.js';

/** A worker that records the calls it gets and answers each with its op name. */
class FakeWorker implements PoolWorker {
  readonly calls: { op: string; params: Record<string, unknown>; signal?: AbortSignal }[] = [];
  terminated = false;
  private exit: (() => void) | undefined;
  /** Calls answer only when released, to hold them in flight. */
  hold = false;
  private readonly held: (() => void)[] = [];

  readonly rpc = {
    call: (op: string, params: unknown, opts: { signal?: AbortSignal } = {}) => {
      this.calls.push({ op, params: params as Record<string, unknown>, signal: opts.signal });
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

function pool(maxWorkers: number, idleMs = 1000) {
  const workers: FakeWorker[] = [];
  const p = new EnginePool({ maxWorkers, idleMs, start: () => (workers.push(new FakeWorker()), workers.at(-1)!) });
  return { p, workers };
}

afterEach(() => vi.useRealTimers());

describe('the engine pool', () => {
  it('serves fifty editors on as many threads as the view lane has, spread evenly', () => {
    const { p, workers } = pool(4);
    const leases = Array.from({ length: 50 }, () => p.lease('view'));
    expect(workers).toHaveLength(2);
    for (const [i, l] of leases.entries()) void l.rpc.call('page', { doc: 'doc', table: 't', from: i, count: 1 });
    expect(workers.map((w) => w.calls.length)).toEqual([25, 25]);
  });

  it('keeps jobs off the threads that page for editors, and shares one thread when there is one', () => {
    const four = pool(4);
    four.p.lease('view');
    const job = four.p.lease('job');
    four.p.lease('job');
    void job.rpc.call('verify', { doc: 'verify' });
    expect(four.workers).toHaveLength(3);
    expect(four.workers[0]!.calls).toEqual([]);
    expect(four.workers[1]!.calls.map((c) => c.op)).toEqual(['verify']);
    const one = pool(1);
    one.p.lease('view');
    one.p.lease('job');
    expect(one.workers).toHaveLength(1);
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
