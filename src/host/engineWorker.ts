import { Worker } from 'node:worker_threads';
import { RpcClient } from '../protocol/rpc.js';
import type { EngineOps } from '../protocol/protocol.js';
import { portTransport } from './portTransport.js';

/** What the host tells a new engine thread (its workerData). */
export interface EngineWorkerOptions {
  /** The folder of saved indexes (the extension's global storage); absent = none kept. */
  readonly indexDir?: string;
  /** False: hash BLAKE3 with hash-wasm, as another thread has the addon (singleHolder.ts). */
  readonly nativeBlake3?: boolean;
  /** True: a job lane's thread, which runs below the threads a person waits on (threadPriority.ts). */
  readonly lowPriority?: boolean;
}

export interface EngineWorker {
  readonly rpc: RpcClient<EngineOps>;
  /** Stops the thread, whatever it is doing; resolves once it has ended. */
  terminate(): Promise<void>;
  /** Called once when the thread ends, by `terminate` or by a crash, with its exit code (0: it ended by itself). */
  onExit(listener: (code: number) => void): void;
}

/** How long a thread asked to end may take before it is terminated. */
const GRACE_MS = 3000;

/**
 * The engine worker thread (dist/engine.js) and an RPC client speaking to it: everything the
 * Node engine is, minus VS Code, so tests can measure the host side of it directly.
 */
export function startEngineWorker(script: string, options: EngineWorkerOptions = {}): EngineWorker {
  const worker = new Worker(script, { workerData: options });
  const rpc = new RpcClient<EngineOps>(portTransport(worker));
  worker.on('error', (e) => rpc.failAll({ message: `engine failed: ${e.message}`, code: 'internal' }));
  worker.on('exit', () => rpc.failAll({ message: 'engine stopped', code: 'cancelled' }));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    rpc,
    async terminate() {
      // Terminating a thread that has run WebAssembly can crash the whole process: 3 of 9 runs
      // of 1 000 engine threads opened and terminated segfaulted here (Node 20, Linux), 0 of 8
      // since. The engine closes its documents and lets the thread end by itself; a thread that
      // does not (a decoder stuck in a loop) is terminated after a grace period.
      const stuck = setTimeout(() => void worker.terminate(), GRACE_MS);
      await rpc.call('shutdown', {}).catch(() => undefined);
      await exited;
      clearTimeout(stuck);
      rpc.dispose();
    },
    onExit: (listener) => void worker.once('exit', (code: number) => listener(code)),
  };
}
