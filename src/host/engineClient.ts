import { Worker } from 'node:worker_threads';
import * as vscode from 'vscode';
import { RpcClient, type Message, type Transport } from '../shared/rpc.js';
import type { EngineOps } from '../shared/protocol.js';

/**
 * One engine worker: a thread that opens files and runs every decoder, so the extension host's
 * event loop only relays messages. Each editor and each command run gets its own, and
 * disposing it terminates the thread (which is also how a stuck decoder is stopped).
 */
export class Engine implements vscode.Disposable {
  readonly rpc: RpcClient<EngineOps>;
  private readonly worker: Worker;

  constructor(extensionUri: vscode.Uri) {
    this.worker = new Worker(vscode.Uri.joinPath(extensionUri, 'dist', 'engine.js').fsPath);
    const worker = this.worker;
    const transport: Transport = {
      post: (message, transfer) => worker.postMessage(message, transfer as ArrayBuffer[] | undefined),
      listen: (handler) => {
        const listener = (m: Message) => handler(m);
        worker.on('message', listener);
        return () => worker.off('message', listener);
      },
    };
    this.rpc = new RpcClient<EngineOps>(transport);
    worker.on('error', (e) => this.rpc.failAll({ message: `engine failed: ${e.message}`, code: 'internal' }));
    worker.on('exit', () => this.rpc.failAll({ message: 'engine stopped', code: 'cancelled' }));
  }

  /** Opens a document: file URIs by path (positioned reads), other schemes through workspace.fs. */
  async open(doc: string, uri: vscode.Uri, format?: string): Promise<EngineOps['open']['result']> {
    const name = uri.path.split('/').pop() ?? uri.path;
    if (uri.scheme === 'file') return this.rpc.call('open', { doc, path: uri.fsPath, name, format });
    const data = await vscode.workspace.fs.readFile(uri);
    const bytes = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
    return this.rpc.call('open', { doc, bytes, name, format }, { transfer: [bytes] });
  }

  dispose(): void {
    this.rpc.dispose();
    void this.worker.terminate();
  }
}

/** A CancellationToken as an AbortSignal, for calls into the engine. */
export function signalOf(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}
