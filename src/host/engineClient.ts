import type * as vscode from 'vscode';
import type { RpcClient } from '../shared/rpc.js';
import type { EngineOps, OpenResultDTO } from '../shared/protocol.js';

/**
 * Where documents are decoded: a worker thread in the Node extension host (nodeEngine.ts), or
 * the web extension host itself (webEngine.ts). Each editor and each command run gets its own;
 * disposing it stops its work.
 */
export interface Engine extends vscode.Disposable {
  readonly rpc: RpcClient<EngineOps>;
  open(doc: string, uri: vscode.Uri, format?: string): Promise<OpenResultDTO>;
  /** How this engine names a file for convert and import: a path in Node, a URI on the web. */
  location(uri: vscode.Uri): string;
}

export type EngineFactory = () => Engine;

/** A CancellationToken as an AbortSignal, for calls into the engine. */
export function signalOf(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}

export function fileNameOf(uri: vscode.Uri): string {
  return uri.path.split('/').pop() ?? uri.path;
}
