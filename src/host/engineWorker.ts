import { Worker } from 'node:worker_threads';
import { RpcClient, type Message, type Transport } from '../shared/rpc.js';
import type { EngineOps } from '../shared/protocol.js';

/** What the host tells a new engine thread (its workerData). */
export interface EngineWorkerOptions {
  /** The folder of saved indexes (the extension's global storage); absent = none kept. */
  readonly indexDir?: string;
}

export interface EngineWorker {
  readonly rpc: RpcClient<EngineOps>;
  terminate(): void;
  /** Called once when the thread ends, by `terminate` or by a crash. */
  onExit(listener: () => void): void;
}

/**
 * The engine worker thread (dist/engine.js) and an RPC client speaking to it: everything the
 * Node engine is, minus VS Code, so tests can measure the host side of it directly.
 */
export function startEngineWorker(script: string, options: EngineWorkerOptions = {}): EngineWorker {
  const worker = new Worker(script, { workerData: options });
  const transport: Transport = {
    post: (message, transfer) => worker.postMessage(message, transfer as ArrayBuffer[] | undefined),
    listen: (handler) => {
      const listener = (m: Message) => handler(m);
      worker.on('message', listener);
      return () => worker.off('message', listener);
    },
  };
  const rpc = new RpcClient<EngineOps>(transport);
  worker.on('error', (e) => rpc.failAll({ message: `engine failed: ${e.message}`, code: 'internal' }));
  worker.on('exit', () => rpc.failAll({ message: 'engine stopped', code: 'cancelled' }));
  return {
    rpc,
    terminate() {
      rpc.dispose();
      void worker.terminate();
    },
    onExit: (listener) => void worker.once('exit', listener),
  };
}
