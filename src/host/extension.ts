import type * as vscode from 'vscode';
import { activateBinlens } from './activate.js';
import { createNodeEngine } from './nodeEngine.js';

/** The Node extension host (desktop, Remote-SSH, Codespaces): documents decode in a worker thread. */
export function activate(context: vscode.ExtensionContext): void {
  activateBinlens(context, () => createNodeEngine(context.extensionUri));
}

export function deactivate(): void {}
