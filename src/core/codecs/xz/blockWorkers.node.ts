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
type Answer = { readonly id: number; readonly xz: Uint8Array } | { readonly id: number; readonly error: string };

interface Thread {
  readonly worker: Worker;
  readonly waiting: Map<number, { resolve(xz: Uint8Array): void; reject(e: Error): void }>;
}

export function nodeXzBlockEncoders(entry: string, threads = availableParallelism()): XzBlockEncoders {
  let nextId = 0;
  let closed = false;
  const pool: Thread[] = [];
  const start = (): Thread => {
    const worker = new Worker(entry, { workerData: { binlensPool: MARK }, argv: [], stdout: false, stderr: false });
    const t: Thread = { worker, waiting: new Map() };
    worker.on('message', (a: Answer) => {
      const w = t.waiting.get(a.id);
      t.waiting.delete(a.id);
      if ('xz' in a) w?.resolve(a.xz);
      else w?.reject(new Error(`xz block encoder: ${a.error}`));
    });
    const fail = (e: Error) => {
      for (const w of t.waiting.values()) w.reject(e);
      t.waiting.clear();
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
      // The thread with the fewest blocks waiting: blocks of one stream are about equally slow.
      const t = pool.reduce((a, b) => (b.waiting.size < a.waiting.size ? b : a));
      const id = nextId++;
      return new Promise<Uint8Array>((resolve, reject) => {
        t.waiting.set(id, { resolve, reject });
        t.worker.postMessage({ id, data, opts } satisfies Job, [data.buffer as ArrayBuffer]);
      });
    },
    warm,
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
  return true;
}
