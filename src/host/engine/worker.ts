import { parentPort, workerData } from 'node:worker_threads';
import { RpcServer, type Message, type Transport } from '../../protocol/rpc.js';
import type { EngineOps } from '../../protocol/protocol.js';
import type { EngineWorkerOptions } from '../engineWorker.js';
import { toErrorDTO } from '../errors.js';
import { engineHandlers } from './engine.js';
import { IndexStore } from './indexStore.js';
import { nodePlatform } from './nodePlatform.js';

/** The engine in a Node worker thread: the extension host only relays messages to it. */
const port = parentPort;
if (!port) throw new Error('engine.js runs as a worker thread');

const transport: Transport = {
  post: (message, transfer) => port.postMessage(message, transfer as ArrayBuffer[] | undefined),
  listen: (handler) => {
    const listener = (m: Message) => handler(m);
    port.on('message', listener);
    return () => port.off('message', listener);
  },
};

const options = (workerData ?? {}) as EngineWorkerOptions;
// Closing the port empties the thread's event loop, and the thread ends on its own.
const platform = {
  ...nodePlatform,
  // One engine thread at a time uses the BLAKE3 addon (singleHolder.ts).
  ...(options.nativeBlake3 === false && nodePlatform.codecs ? { codecs: { ...nodePlatform.codecs, keyedBlake3: undefined } } : {}),
  endThread: () => port.close(),
  ...(options.indexDir ? { indexes: new IndexStore(options.indexDir) } : {}),
};
new RpcServer<EngineOps>(transport, engineHandlers(platform), toErrorDTO);
