import * as vscode from 'vscode';
import { openCompare, pickPair } from './compareCommand.js';
import { convertUri } from './convertCommand.js';
import { DistrictsMemory } from './districtsMemory.js';
import { DUMP_SCHEME, DumpProvider, openAsText } from './dumpProvider.js';
import { ANY_VIEW_TYPE, BinlensEditorProvider, VIEW_TYPE } from './editorProvider.js';
import type { EngineFactory } from './engineClient.js';
import { verifyUris } from './verifyCommand.js';

/** Registers everything Binlens contributes; `createEngine` says where documents are decoded. */
export function activateBinlens(context: vscode.ExtensionContext, createEngine: EngineFactory): void {
  const extensionUri = context.extensionUri;
  const log = vscode.window.createOutputChannel('Binlens', { log: true });
  const diagnostics = vscode.languages.createDiagnosticCollection('binlens');

  // A file open in a Binlens editor is verified in that editor's engine, so its tree marks what fails.
  const verify = (uris: readonly vscode.Uri[]) => verifyUris(uris, { createEngine, diagnostics, log, inEditor: (uri) => provider.openDocument(uri) });
  const convert = (uri: vscode.Uri) => convertUri(uri, { createEngine, log });
  const saveIntact = (uri: vscode.Uri) => convertUri(uri, { createEngine, log }, true);
  const provider = new BinlensEditorProvider(
    extensionUri,
    createEngine,
    { verify: (u) => verify([u]), convert, saveIntact, openAsText },
    new DistrictsMemory(context.workspaceState),
  );

  /** The file a command is about: the argument, the focused Binlens editor, the active text editor, or a picked file. */
  const target = async (arg: unknown): Promise<vscode.Uri | undefined> => {
    if (arg instanceof vscode.Uri) return arg;
    const active = provider.activeUri() ?? vscode.window.activeTextEditor?.document.uri;
    if (active && active.scheme !== DUMP_SCHEME) return active;
    const picked = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: vscode.l10n.t('Select') });
    return picked?.[0];
  };

  const editorOptions = { webviewOptions: { retainContextWhenHidden: false }, supportsMultipleEditorsPerDocument: true };
  context.subscriptions.push(
    log,
    diagnostics,
    vscode.window.registerCustomEditorProvider(VIEW_TYPE, provider, editorOptions),
    vscode.window.registerCustomEditorProvider(ANY_VIEW_TYPE, provider, editorOptions),
    vscode.workspace.registerTextDocumentContentProvider(DUMP_SCHEME, new DumpProvider(createEngine)),
    vscode.commands.registerCommand('binlens.verify', async (arg?: unknown, all?: unknown) => {
      const uris = Array.isArray(all) && all.every((u) => u instanceof vscode.Uri) && all.length > 0 ? (all as vscode.Uri[]) : [await target(arg)];
      const files = uris.filter((u): u is vscode.Uri => u !== undefined);
      if (files.length) await verify(files);
    }),
    vscode.commands.registerCommand('binlens.convert', async (arg?: unknown) => {
      const uri = await target(arg);
      if (uri) await convert(uri);
    }),
    vscode.commands.registerCommand('binlens.saveIntact', async (arg?: unknown) => {
      const uri = await target(arg);
      if (uri) await saveIntact(uri);
    }),
    vscode.commands.registerCommand('binlens.openAsText', async (arg?: unknown) => {
      const uri = await target(arg);
      if (uri) await openAsText(uri);
    }),
    vscode.commands.registerCommand('binlens.compare', async (arg?: unknown, all?: unknown) => {
      const pair = await pickPair(arg, all, provider.activeUri());
      if (pair) openCompare(...pair, { extensionUri, createEngine, reveal: (uri, at, column) => provider.openAt(uri, at, column) });
    }),
  );
}
