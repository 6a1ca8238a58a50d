import type * as vscode from 'vscode';
import type { OpenResultDTO } from '../protocol/protocol.js';
import type { EngineLane, EngineRpc } from './enginePool.js';

/**
 * Where documents are decoded: a share of the worker thread pool in the Node extension host
 * (nodeEngine.ts, enginePool.ts), or the web extension host itself (webEngine.ts). Each editor and
 * each command run gets its own, with its own document names; disposing it stops its work and
 * closes its documents.
 */
export interface Engine extends vscode.Disposable {
  readonly rpc: EngineRpc;
  open(doc: string, uri: vscode.Uri, format?: string): Promise<OpenResultDTO>;
  /** How this engine names a file for convert and import: a path in Node, a URI on the web. */
  location(uri: vscode.Uri): string;
  /** Ends the thread under this engine now, as it no longer answers (enginePool.ts); absent where there is no thread to end. */
  abandon?(): void;
  /** An editor's engine closed its document while idle and found the file changed on the next request (parking.ts): open it again. */
  onStale?(listener: () => void): void;
}

/** Who an engine is for: an editor (the view lane, its documents closed while idle), a compare view ('view') or a job. */
export type EngineUse = EngineLane | 'editor';

/** An engine for interactive use (an editor, a compare view) or for a job (verify, convert, dump). */
export type EngineFactory = (use?: EngineUse) => Engine;

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
