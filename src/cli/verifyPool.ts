import { Worker } from 'node:worker_threads';

/** What a pool worker is told when it starts: which job it serves, and where it says what it is on. */
export interface PoolWorkerData {
  readonly binlensPool: string;
  readonly options: unknown;
  /** Set by `runPool`: one Int32, the index of the item the worker is on (-1: none). */
  readonly current?: SharedArrayBuffer;
}

/** How the pool hands out work and when it gives up on an item. */
export interface PoolOptions {
  /**
   * Items a worker holds ahead of its answers (default 64; more are sent when half are done).
   * A worker that waits for its next item after each answer idles a message round trip per item.
   * The default is twice the answers a worker gathers per message, so the refill its answers
   * bring arrives while it still has half its items: with 16 it ran dry every 16 files, sent a
   * message of 16 (under load, of 6) answers and waited for the round trip.
   */
  readonly ahead?: number;
  /** How long item `index` may take once its worker is on it before the worker is replaced; absent = no limit. */
  readonly deadlineMs?: (index: number) => number;
  /** How often deadlines are checked (ms, default 1000). */
  readonly checkEveryMs?: number;
}

/**
 * Each worker's young generation (MB). V8's default on this machine let two workers verifying
 * 10 000 small files reach 203 MB peak RSS; 8 MB kept it to 163 MB at about the same CPU time
 * (4 MB: 157 MB).
 */
const YOUNG_MB = 8;

/** Main → worker: items to work, in order. Worker → main: answers, several at a time. */
interface JobsMessage<T> {
  readonly jobs: readonly { readonly index: number; readonly item: T }[];
  /** No more jobs: the worker closes its port once its items are answered, and its thread ends. */
  readonly end?: boolean;
}
interface ResultsMessage<R> {
  readonly results: readonly { readonly index: number; readonly result: R }[];
}

/**
 * Runs `items` through `size` worker threads started from `entry` (the CLI's own script, which
 * serves jobs when started as a pool worker: `serveJobs`). Items and answers travel in batches:
 * a message per file and answer cost 0.2–0.7 ms each in the worker on the two busy cores, more
 * than verifying a small file. Each worker keeps a few items ahead so it never waits for work,
 * and writes the index of the item it is on into shared memory, so the pool knows which file a
 * worker was on when it died (an exception outside the format's errors, an out-of-memory) or
 * passed that file's deadline (a decoder in an endless loop): that file alone is reported through
 * `onCrash`, the worker's other items go back in line and a fresh worker takes its place.
 */
export async function runPool<T, R>(
  entry: string,
  data: PoolWorkerData,
  items: readonly T[],
  size: number,
  onResult: (index: number, result: R) => void,
  onCrash: (index: number, error: Error) => void,
  options: PoolOptions = {},
): Promise<void> {
  /** Items to hand out: those a lost worker held first, then the rest in order. */
  const returned: number[] = [];
  let next = 0;
  let done = 0;
  if (items.length === 0) return;
  let checker: ReturnType<typeof setInterval> | undefined;
  await new Promise<void>((resolve) => {
    const finish = (): void => {
      if (++done === items.length) resolve();
    };
    const pool: Pool<T, R> = {
      entry,
      data,
      items,
      ahead: Math.max(1, options.ahead ?? 2 * ANSWERS_PER_MESSAGE),
      deadlineMs: options.deadlineMs,
      live: new Set(),
      take: () => returned.shift() ?? (next < items.length ? next++ : undefined),
      requeue: (indexes) => returned.unshift(...indexes),
      answered: (index, result) => {
        onResult(index, result);
        finish();
      },
      crashed: (index, error) => {
        onCrash(index, error);
        finish();
        if (done < items.length) startWorker(pool);
        for (const other of pool.live) other.refill();
      },
    };
    if (options.deadlineMs) {
      checker = setInterval(() => {
        const now = performance.now();
        for (const w of pool.live) w.check(now);
      }, options.checkEveryMs ?? 1000);
    }
    for (let i = 0; i < Math.min(size, items.length); i++) startWorker(pool);
  });
  clearInterval(checker);
}

/** A worker as its pool sees it: asked for more work when another is lost, and for its deadline. */
interface PoolThread {
  refill(): void;
  check(now: number): void;
}

/** What a worker thread shares with its pool: the items, the line of those left to hand out, and the live workers. */
interface Pool<T, R> {
  readonly entry: string;
  readonly data: PoolWorkerData;
  readonly items: readonly T[];
  readonly ahead: number;
  readonly deadlineMs: PoolOptions['deadlineMs'];
  readonly live: Set<PoolThread>;
  /** The next item to hand out, if any is left. */
  take(): number | undefined;
  /** Puts the items a lost worker held first in line. */
  requeue(indexes: Iterable<number>): void;
  answered(index: number, result: R): void;
  /** Item `index` lost its worker: reported, and a fresh worker started while items remain. */
  crashed(index: number, error: Error): void;
}

/** Starts one worker thread of `pool`, feeds it items a batch ahead, and watches what it is on. */
function startWorker<T, R>(pool: Pool<T, R>): void {
  const { items, ahead, live } = pool;
  const current = new Int32Array(new SharedArrayBuffer(4));
  current[0] = -1;
  const worker = new Worker(pool.entry, {
    workerData: { ...pool.data, current: current.buffer },
    argv: [],
    stdout: false,
    stderr: false,
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB },
  });
  /** Items sent and not answered, in the order the worker takes them. */
  const held = new Set<number>();
  let watched = { index: -1, since: 0 };
  let lost = false;
  const feed = (): void => {
    if (held.size > ahead / 2) return;
    const jobs: { index: number; item: T }[] = [];
    for (let index = pool.take(); index !== undefined; index = held.size + jobs.length < ahead ? pool.take() : undefined)
      jobs.push({ index, item: items[index]! });
    for (const j of jobs) held.add(j.index);
    if (jobs.length > 0) worker.postMessage({ jobs } satisfies JobsMessage<T>);
    else if (held.size === 0) {
      // The worker ends by itself once told: Worker.terminate() after WebAssembly has run can
      // crash Node 20 (engineWorker.ts), and did here once in 10 000 files.
      live.delete(self);
      worker.postMessage({ jobs: [], end: true } satisfies JobsMessage<T>);
    }
  };
  const self: PoolThread = {
    refill: () => lost || feed(),
    check: (now: number) => {
      const index = Atomics.load(current, 0);
      if (index !== watched.index) watched = { index, since: now };
      else if (index >= 0 && held.has(index) && pool.deadlineMs && now - watched.since > pool.deadlineMs(index)) {
        lose(new Error(`no answer in ${((now - watched.since) / 1000).toFixed(0)} s: its worker was stopped`), true);
      }
    },
  };
  worker.on('message', (m: ResultsMessage<R>) => {
    for (const { index, result } of m.results) {
      if (!held.delete(index)) continue;
      pool.answered(index, result);
    }
    feed();
  });
  const lose = (e: Error, stuck = false): void => {
    if (lost) return;
    lost = true;
    live.delete(self);
    if (stuck) void worker.terminate();
    if (held.size === 0) return;
    // The item it was on; when it died between items, the oldest it held, so a worker that
    // dies at once on every start cannot loop over the same items for ever.
    const on = Atomics.load(current, 0);
    const blamed = held.has(on) ? on : held.values().next().value!;
    held.delete(blamed);
    pool.requeue(held);
    pool.crashed(blamed, e);
  };
  worker.on('error', (e) => lose(e));
  worker.on('exit', (code) => lose(new Error(`the worker exited with code ${code}`)));
  live.add(self);
  feed();
}

/** The part of a worker's port `serveJobs` uses (parentPort in a worker). */
export interface JobPort {
  on(event: 'message', listener: (m: JobsMessage<never>) => void): unknown;
  postMessage(m: unknown): void;
  close(): void;
}

/** Answers gathered before they are posted, unless the worker runs out of work or this long passes. */
const ANSWERS_PER_MESSAGE = 32;
const ANSWER_WITHIN_MS = 50;

/**
 * A pool worker's side of `runPool`: items are worked one at a time in the order they came, the
 * index of the one in hand is kept in the shared `current`, and answers go back in batches.
 */
export function serveJobs<T, R>(port: JobPort, current: SharedArrayBuffer | undefined, work: (item: T) => Promise<R>): void {
  const on = current ? new Int32Array(current) : new Int32Array(1);
  const waiting: { index: number; item: T }[] = [];
  let answers: { index: number; result: R }[] = [];
  let sentAt = performance.now();
  let busy = false;
  const send = (): void => {
    if (answers.length > 0) port.postMessage({ results: answers } satisfies ResultsMessage<R>);
    answers = [];
    sentAt = performance.now();
  };
  let ending = false;
  const drain = async (): Promise<void> => {
    busy = true;
    for (let m = waiting.shift(); m; m = waiting.shift()) {
      Atomics.store(on, 0, m.index);
      answers.push({ index: m.index, result: await work(m.item) });
      Atomics.store(on, 0, -1);
      if (answers.length >= ANSWERS_PER_MESSAGE || waiting.length === 0 || performance.now() - sentAt >= ANSWER_WITHIN_MS) send();
    }
    busy = false;
    if (ending) port.close();
  };
  port.on('message', (m: JobsMessage<T>) => {
    waiting.push(...m.jobs);
    ending ||= m.end === true;
    if (!busy) void drain();
  });
}
