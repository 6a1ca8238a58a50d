import { parentPort, workerData } from 'node:worker_threads';
import { RpcServer } from '../../protocol/rpc.js';
import type { EngineOps } from '../../protocol/protocol.js';
import type { EngineWorkerOptions } from '../engineWorker.js';
import { toErrorDTO } from '../errors.js';
import { portTransport } from '../portTransport.js';
import { engineHandlers } from './engine.js';
import { IndexStore } from './indexStore.js';
import { nodePlatform } from './nodePlatform.js';
import { lowerOwnPriority } from './threadPriority.js';

/** The engine in a Node worker thread: the extension host only relays messages to it. */
const port = parentPort;
if (!port) throw new Error('engine.js runs as a worker thread');

const options = (workerData ?? {}) as EngineWorkerOptions;
if (options.lowPriority) lowerOwnPriority();
// Closing the port empties the thread's event loop, and the thread ends on its own.
const platform = {
  ...nodePlatform,
  // One engine thread at a time uses the BLAKE3 addon (singleHolder.ts).
  ...(options.nativeBlake3 === false && nodePlatform.codecs ? { codecs: { ...nodePlatform.codecs, keyedBlake3: undefined } } : {}),
  endThread: () => port.close(),
  ...(options.indexDir ? { indexes: new IndexStore(options.indexDir) } : {}),
};
new RpcServer<EngineOps>(portTransport(port), engineHandlers(platform), toErrorDTO);
