import { Worker } from 'node:worker_threads';
import * as vscode from 'vscode';
import { RpcClient, type Message, type Transport } from '../shared/rpc.js';
import type { EngineOps } from '../shared/protocol.js';
import { type Engine, fileNameOf } from './engineClient.js';

/**
 * The engine in a worker thread (dist/engine.js): the extension host's event loop only relays
 * messages, and terminating the thread stops a stuck decoder.
 */
export function createNodeEngine(extensionUri: vscode.Uri): Engine {
  const worker = new Worker(vscode.Uri.joinPath(extensionUri, 'dist', 'engine.js').fsPath);
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
    async open(doc, uri, format) {
      const name = fileNameOf(uri);
      // Local files are read with positioned reads in the worker; other schemes through workspace.fs.
      if (uri.scheme === 'file') return rpc.call('open', { doc, path: uri.fsPath, name, format });
      const data = await vscode.workspace.fs.readFile(uri);
      const bytes = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
      return rpc.call('open', { doc, bytes, name, format }, { transfer: [bytes] });
    },
    location: (uri) => (uri.scheme === 'file' ? uri.fsPath : uri.toString()),
    dispose() {
      rpc.dispose();
      void worker.terminate();
    },
  };
}
