import { RpcClient, type Message, type Transport } from '../src/protocol/rpc.js';
import type { CompareOps, HostNotice, ViewNotice, ViewOps } from '../src/protocol/protocol.js';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export const vscode = acquireVsCodeApi();

const transport: Transport = {
  post: (message) => vscode.postMessage(message),
  listen: (handler) => {
    const listener = (e: MessageEvent<Message>) => handler(e.data);
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  },
};

/** Requests to the host about the open document. */
export const host = new RpcClient<ViewOps>(transport);

let compare: RpcClient<CompareOps> | undefined;

/**
 * Requests to the host of a compare view. Made on first use, so a document's editor never has two
 * clients on its transport: each numbers its requests from 1, and the page uses one or the other.
 */
export function compareHost(): RpcClient<CompareOps> {
  compare ??= new RpcClient<CompareOps>(transport);
  return compare;
}

export function notify(n: ViewNotice): void {
  transport.post({ kind: 'notify', topic: n.topic, payload: n.payload });
}

export function onNotice(handler: (n: HostNotice) => void): void {
  transport.listen((m) => {
    if (m.kind === 'notify') handler({ topic: m.topic, payload: m.payload } as HostNotice);
  });
}

/** UI state that survives the webview being hidden and shown (setState/getState). */
export interface ViewState {
  tab?: string;
  rows?: Record<string, number>;
}

export function loadState(): ViewState {
  const s = vscode.getState();
  return typeof s === 'object' && s !== null ? (s as ViewState) : {};
}

export function saveState(patch: Partial<ViewState>): void {
  vscode.setState({ ...loadState(), ...patch });
}
