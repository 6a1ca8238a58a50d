import * as vscode from 'vscode';
import { activateBinlens } from './activate.js';
import { createNodeEngine } from './nodeEngine.js';

/** The Node extension host (desktop, Remote-SSH, Codespaces): documents decode in a worker thread. */
export function activate(context: vscode.ExtensionContext): void {
  // Frame indexes and key checkpoints outlive the window: a second open of a big file starts there.
  const indexDir = vscode.Uri.joinPath(context.globalStorageUri, 'indexes').fsPath;
  activateBinlens(context, () => createNodeEngine(context.extensionUri, indexDir));
}

export function deactivate(): void {}
