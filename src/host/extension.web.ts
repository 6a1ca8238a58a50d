import type * as vscode from 'vscode';
import { activateBinlens } from './activate.js';
import { createWebEngine } from './webEngine.js';

/** The web extension host (vscode.dev, browser Codespaces): documents decode in the host worker itself. */
export function activate(context: vscode.ExtensionContext): void {
  activateBinlens(context, createWebEngine);
}

export function deactivate(): void {}
