import type * as vscode from 'vscode';
import type { Message, Transport } from '../protocol/rpc.js';

/** A webview's postMessage channel as an RPC transport: the editor's page and the compare view's. */
export function webviewTransport(webview: vscode.Webview): Transport {
  return {
    post: (message) => void webview.postMessage(message),
    listen: (handler) => {
      const sub = webview.onDidReceiveMessage((m: Message) => handler(m));
      return () => sub.dispose();
    },
  };
}
