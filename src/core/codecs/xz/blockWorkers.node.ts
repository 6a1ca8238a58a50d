import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { xzCompressBlock } from './blockEncode.js';
import type { XzEncodeOptions } from './encode.js';
import type { XzBlockEncoders } from './blockEncoders.js';

/**
 * xz block encoders on Node worker threads, one per core: what `ParallelXzWriter` compresses
 * on. A worker runs `entry` (the host's own script: dist/cli.js for the CLI), whose start calls
 * `serveXzBlocksIfWorker()`; each has its own liblzma. Data goes out and back transferred, not copied.
 */
const MARK = 'binlens-xz-blocks';

interface Job {
  readonly id: number;
  readonly data: Uint8Array;
  readonly opts: XzEncodeOptions;
}
/** A block's result, or (`ready`) the thread started and listens for blocks. */
type Answer = { readonly id: number; readonly xz: Uint8Array } | { readonly id: number; readonly error: string } | { readonly ready: true };

interface Thread {
  readonly worker: Worker;
  readonly waiting: Map<number, { resolve(xz: Uint8Array): void; reject(e: Error): void }>;
  ready: boolean;
}

export function nodeXzBlockEncoders(entry: string, threads = availableParallelism()): XzBlockEncoders {
  let nextId = 0;
  let closed = false;
  const pool: Thread[] = [];
  /** Callers of nextIdle(), told when a thread is next idle; `failed` once a thread ended or erred. */
  let idleWaiters: { resolve(): void; reject(e: Error): void }[] = [];
  let failed: Error | undefined;
  const tellIdle = (e?: Error) => {
    const told = idleWaiters;
    idleWaiters = [];
    for (const w of told)
      if (e) w.reject(e);
      else w.resolve();
  };
  const start = (): Thread => {
    const worker = new Worker(entry, { workerData: { binlensPool: MARK }, argv: [], stdout: false, stderr: false });
    const t: Thread = { worker, waiting: new Map(), ready: false };
    worker.on('message', (a: Answer) => {
      if ('ready' in a) t.ready = true;
      else {
        const w = t.waiting.get(a.id);
        t.waiting.delete(a.id);
        if ('xz' in a) w?.resolve(a.xz);
        else w?.reject(new Error(`xz block encoder: ${a.error}`));
      }
      if (t.waiting.size === 0) tellIdle();
    });
    const fail = (e: Error) => {
      for (const w of t.waiting.values()) w.reject(e);
      t.waiting.clear();
      // A writer waiting for this thread to start or finish would wait forever: it gets the error.
      failed ??= e;
      tellIdle(e);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`xz block encoder thread ended (exit code ${code})`)));
    return t;
  };
  const warm = () => {
    while (!closed && pool.length < threads) pool.push(start());
  };
  return {
    threads,
    encode(data, opts) {
      if (closed) return Promise.reject(new Error('xz block encoders closed'));
      warm();
      // The thread with the fewest blocks waiting (blocks of one stream are about equally slow), a started one
      // first: the writer sends a block when idle() says a thread can start it now.
      const load = (t: Thread) => t.waiting.size * 2 + (t.ready ? 0 : 1);
      const t = pool.reduce((a, b) => (load(b) < load(a) ? b : a));
      const id = nextId++;
      return new Promise<Uint8Array>((resolve, reject) => {
        t.waiting.set(id, { resolve, reject });
        t.worker.postMessage({ id, data, opts } satisfies Job, [data.buffer as ArrayBuffer]);
      });
    },
    warm,
    idle: () => pool.filter((t) => t.ready && t.waiting.size === 0).length,
    nextIdle: () => (failed ? Promise.reject(failed) : new Promise<void>((resolve, reject) => idleWaiters.push({ resolve, reject }))),
    close() {
      if (closed) return;
      closed = true;
      // Each thread ends by itself once its port closes: Worker.terminate() after WebAssembly ran can crash Node 20.
      for (const t of pool) t.worker.postMessage({ end: true });
    },
  };
}

/** In a worker thread started by `nodeXzBlockEncoders`: compresses the blocks it is sent, one at a time, in order. */
export function serveXzBlocksIfWorker(): boolean {
  if (isMainThread || (workerData as { binlensPool?: string } | undefined)?.binlensPool !== MARK) return false;
  const port = parentPort!;
  let queue = Promise.resolve();
  port.on('message', (m: Job | { end: true }) => {
    if ('end' in m) return void queue.then(() => port.close());
    queue = queue.then(async () => {
      try {
        const xz = await xzCompressBlock(m.data, m.opts);
        port.postMessage({ id: m.id, xz } satisfies Answer, [xz.buffer as ArrayBuffer]);
      } catch (e) {
        port.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) } satisfies Answer);
      }
    });
  });
  port.postMessage({ ready: true } satisfies Answer);
  return true;
}
