import * as vscode from 'vscode';
import { type Engine, type EngineFactory, fileNameOf } from './engineClient.js';
import { EnginePool, type EngineLease } from './enginePool.js';
import { startEngineWorker } from './engineWorker.js';
import { singleHolder } from './singleHolder.js';

/**
 * Engines in worker threads (dist/engine.js), at most `maxWorkers` of them for every editor and
 * command (enginePool.ts): the extension host's event loop only relays messages.
 */
export function nodeEngines(
  extensionUri: vscode.Uri,
  options: { indexDir?: string; maxWorkers: number; budgetBytes?: number },
): { create: EngineFactory; pool: EnginePool } {
  const script = vscode.Uri.joinPath(extensionUri, 'dist', 'engine.js').fsPath;
  const start = singleHolder((nativeBlake3) => startEngineWorker(script, { indexDir: options.indexDir, nativeBlake3 }));
  const pool = new EnginePool({ maxWorkers: options.maxWorkers, budgetBytes: options.budgetBytes, start });
  return { create: (lane = 'view') => nodeEngine(pool.lease(lane)), pool };
}

function nodeEngine({ rpc, release, abandon }: EngineLease): Engine {
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
    dispose: release,
    abandon,
  };
}
