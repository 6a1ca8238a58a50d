import type { Message, Transport } from '../protocol/rpc.js';

/** The part of a Node worker's port (parentPort in the thread, the Worker on the host's side) a transport uses. */
export interface NodePort {
  postMessage(message: unknown, transfer?: ArrayBuffer[]): void;
  on(event: 'message', listener: (m: Message) => void): unknown;
  off(event: 'message', listener: (m: Message) => void): unknown;
}

/** RPC messages over a worker thread's port, from either end; byte buffers are transferred, not copied. */
export function portTransport(port: NodePort): Transport {
  return {
    post: (message, transfer) => port.postMessage(message, transfer as ArrayBuffer[] | undefined),
    listen: (handler) => {
      const listener = (m: Message) => handler(m);
      port.on('message', listener);
      return () => port.off('message', listener);
    },
  };
}
