import { parentPort } from 'node:worker_threads';
import { MemorySource } from '../../core/io/byteSource.js';
import { nodeCodecs } from '../../core/io/nodeCodecs.js';
import { openFile } from '../../core/io/nodeFile.js';
import { writeAtomically } from '../../core/io/nodeOutput.js';
import { createScratchSpace } from '../../core/io/nodeScratch.js';
import { RpcServer, type Message, type Transport } from '../../shared/rpc.js';
import type { EngineOps } from '../../shared/protocol.js';
import { toErrorDTO } from '../errors.js';
import { engineHandlers } from './engine.js';

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

new RpcServer<EngineOps>(
  transport,
  engineHandlers({
    openPath: openFile,
    openBytes: (bytes) => new MemorySource(new Uint8Array(bytes)),
    writeOutput: writeAtomically,
    scratch: createScratchSpace,
    codecs: nodeCodecs,
  }),
  toErrorDTO,
);
