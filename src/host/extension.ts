import { availableParallelism } from 'node:os';
import * as vscode from 'vscode';
import { activateBinlens } from './activate.js';
import { nodeEngines } from './nodeEngine.js';

/** The Node extension host (desktop, Remote-SSH, Codespaces): documents decode in worker threads. */
export function activate(context: vscode.ExtensionContext): void {
  // Frame indexes and key checkpoints outlive the window: a second open of a big file starts there.
  const indexDir = vscode.Uri.joinPath(context.globalStorageUri, 'indexes').fsPath;
  const setting = vscode.workspace.getConfiguration('binlens').get<number>('engine.maxWorkers', 0);
  const maxWorkers = setting >= 1 ? Math.floor(setting) : Math.min(4, availableParallelism());
  const budgetMb = vscode.workspace.getConfiguration('binlens').get<number>('memory.budgetMB', 256);
  const engines = nodeEngines(context.extensionUri, { indexDir, maxWorkers, budgetBytes: Math.max(16, budgetMb) * 2 ** 20 });
  context.subscriptions.push({ dispose: () => void engines.pool.dispose() });
  activateBinlens(context, engines.create);
}

export function deactivate(): void {}
