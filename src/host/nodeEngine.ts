import * as vscode from 'vscode';
import { type Engine, fileNameOf } from './engineClient.js';
import { startEngineWorker } from './engineWorker.js';

/**
 * The engine in a worker thread (dist/engine.js): the extension host's event loop only relays
 * messages, and terminating the thread stops a stuck decoder.
 */
export function createNodeEngine(extensionUri: vscode.Uri, indexDir?: string): Engine {
  const { rpc, terminate } = startEngineWorker(vscode.Uri.joinPath(extensionUri, 'dist', 'engine.js').fsPath, { indexDir });
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
    dispose: terminate,
  };
}
