import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeadlineExceeded, runVerifyQueue, untilAborted } from './verifyQueue.js';

afterEach(() => vi.useRealTimers());

/** Files whose verify waits until the test settles it; records what ran at once and what was reported. */
function harness(names: readonly string[], parallel: number) {
  const running = new Map<string, { settle(v: string): void; signal: AbortSignal }>();
  const reports: string[] = [];
  let most = 0;
  const cancel = new AbortController();
  const finished = runVerifyQueue(names, {
    parallel,
    signal: cancel.signal,
    deadlineMs: (f) => (f.startsWith('big') ? 5000 : 1000),
    verify: (file, signal) =>
      untilAborted(new Promise<string>((settle) => running.set(file, { settle, signal })), signal)
        .catch((e: unknown) => (e instanceof DeadlineExceeded ? `stuck after ${e.ms} ms` : 'cancelled'))
        .finally(() => {
          running.delete(file);
        }),
    report: (file, result, done, total) => reports.push(`${done}/${total} ${file}: ${result}`),
  });
  const tick = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
    most = Math.max(most, running.size);
  };
  return { running, reports, cancel, finished, tick, most: () => most };
}

describe('the folder verify queue', () => {
  it('verifies files `parallel` at a time and reports each as it finishes, n of N', async () => {
    const h = harness(['a', 'b', 'c', 'd', 'e'], 2);
    await h.tick();
    expect([...h.running.keys()]).toEqual(['a', 'b']);
    h.running.get('b')!.settle('passed');
    await h.tick();
    expect([...h.running.keys()]).toEqual(['a', 'c']);
    for (const f of ['c', 'a', 'd', 'e']) {
      h.running.get(f)!.settle(f === 'd' ? 'failed' : 'passed');
      await h.tick();
    }
    await h.finished;
    expect(h.reports).toEqual(['1/5 b: passed', '2/5 c: passed', '3/5 a: passed', '4/5 d: failed', '5/5 e: passed']);
    expect(h.most()).toBe(2);
  });

  it('a file that never answers is given up at its deadline and the rest go on; a larger file is given longer', async () => {
    vi.useFakeTimers();
    const h = harness(['hangs', 'big-ok', 'after'], 2);
    await h.tick();
    await vi.advanceTimersByTimeAsync(999);
    expect(h.reports).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await h.tick();
    expect(h.reports).toEqual(['1/3 hangs: stuck after 1000 ms']);
    expect([...h.running.keys()]).toEqual(['big-ok', 'after']);
    h.running.get('after')!.settle('passed');
    await vi.advanceTimersByTimeAsync(3000);
    h.running.get('big-ok')!.settle('passed');
    await h.finished;
    expect(h.reports).toEqual(['1/3 hangs: stuck after 1000 ms', '2/3 after: passed', '3/3 big-ok: passed']);
  });

  it('cancel tells the files in flight and starts no other; nothing cancelled is reported', async () => {
    const h = harness(['a', 'b', 'c', 'd'], 2);
    await h.tick();
    h.running.get('a')!.settle('passed');
    await h.tick();
    const inFlight = [...h.running.values()].map((r) => r.signal);
    h.cancel.abort();
    await h.finished;
    expect(inFlight.map((s) => s.aborted)).toEqual([true, true]);
    expect(h.reports).toEqual(['1/4 a: passed']);
    expect(h.running.size).toBe(0);
  });
});
