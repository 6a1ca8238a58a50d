import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { type Engine, type EngineFactory, fileNameOf } from './engineClient.js';
import { EnginePool, type EngineLane, type EngineLease } from './enginePool.js';
import { startEngineWorker } from './engineWorker.js';
import { parkingLease, type ParkingLease } from './parking.js';
import { singleHolder } from './singleHolder.js';

/**
 * Engines in worker threads (dist/engine.js), at most `maxWorkers` of them for every editor and
 * command (enginePool.ts): the extension host's event loop only relays messages. An editor's
 * document is closed in its thread after `binlens.engine.closeIdleMinutes` without a request and
 * opened again at the next one (parking.ts).
 */
export function nodeEngines(
  extensionUri: vscode.Uri,
  options: { indexDir?: string; maxWorkers: number; budgetBytes?: number; closeIdleMs?: number },
): { create: EngineFactory; pool: EnginePool } {
  const script = vscode.Uri.joinPath(extensionUri, 'dist', 'engine.js').fsPath;
  const start = singleHolder((nativeBlake3, lane: EngineLane) =>
    startEngineWorker(script, { indexDir: options.indexDir, nativeBlake3, lowPriority: lane === 'job' }),
  );
  const pool = new EnginePool({ maxWorkers: options.maxWorkers, budgetBytes: options.budgetBytes, start });
  const closeAfterMs = options.closeIdleMs ?? vscode.workspace.getConfiguration('binlens').get<number>('engine.closeIdleMinutes', 15) * 60_000;
  const create: EngineFactory = (use = 'view') =>
    use === 'editor' && closeAfterMs > 0
      ? nodeEngine(parkingLease({ lease: () => pool.lease('view'), closeAfterMs, identity: fileIdentity }))
      : nodeEngine(pool.lease(use === 'editor' ? 'view' : use));
  return { create, pool };
}

/** What tells a file changed on disk: its size and mtime. */
async function fileIdentity(path: string): Promise<string | undefined> {
  const st = await stat(path).catch(() => undefined);
  return st && `${st.size}:${st.mtimeMs}`;
}

function nodeEngine(lease: EngineLease | ParkingLease): Engine {
  const { rpc, release, abandon } = lease;
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
    onStale: 'onStale' in lease ? lease.onStale : undefined,
  };
}
