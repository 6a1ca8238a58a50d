import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../../../test/helpers/bundle.js';
import { startEngineWorker, type EngineWorker } from '../engineWorker.js';
import { JOB_NICE, ownThreadId } from './threadPriority.js';

/** Each thread of this process and its nice value (field 19 of /proc/self/task/TID/stat). */
function niceByThread(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const nice = niceOf(tid);
    if (nice !== undefined) out.set(Number(tid), nice);
  }
  return out;
}

function niceOf(tid: string): number | undefined {
  try {
    // After "pid (name) ", whose name may hold spaces, the fields run from field 3 on.
    const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    return Number(fields[19 - 3]);
  } catch {
    return undefined; // a thread that ended meanwhile
  }
}

describe.runIf(process.platform === 'linux')("the job lane's engine threads run below the others", () => {
  let script = '';
  const started: EngineWorker[] = [];

  let removeScript = () => {};

  beforeAll(async () => {
    // The engine thread's own entry point, bundled as dist/engine.js is.
    ({ path: script, remove: removeScript } = await bundleWorker(join(import.meta.dirname, 'worker.ts'), 'cjs'));
  });

  afterAll(async () => {
    await Promise.all(started.map((w) => w.terminate()));
    removeScript();
  });

  /** Starts an engine thread and waits for it to answer: the threads it added to the process, with their nice values. */
  async function start(lowPriority: boolean): Promise<number[]> {
    const before = niceByThread();
    const worker = startEngineWorker(script, { lowPriority });
    started.push(worker);
    expect((await worker.rpc.call('formats', {})).length).toBeGreaterThan(0);
    return [...niceByThread()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
  }

  it('a job thread is at nice 10; a view thread and the host thread stay where they were', async () => {
    const host = niceByThread().get(ownThreadId()!)!;
    expect(host).toBeLessThan(JOB_NICE);
    // The view thread first: it is not lowered, and neither are threads it made (libuv's pool, if first used there).
    const view = await start(false);
    expect(view.length).toBeGreaterThan(0);
    expect(view.every((nice) => nice === host)).toBe(true);
    // A job thread is one thread: nothing else in the process is lowered with it.
    expect(await start(true)).toEqual([JOB_NICE]);
    expect(niceByThread().get(ownThreadId()!)).toBe(host);
    expect([...niceByThread().values()].filter((nice) => nice === JOB_NICE)).toHaveLength(1);
  });
});
