import * as vscode from 'vscode';
import type { OptionSpec } from '../core/model.js';
import type { ConverterDTO } from '../shared/protocol.js';
import { type EngineFactory, signalOf } from './engineClient.js';
import { toErrorDTO } from './errors.js';

type OptionValues = Record<string, string | number | boolean>;

/** Asks for each option, offering its default; undefined when the user cancels. */
async function askOptions(specs: readonly OptionSpec[], location: (uri: vscode.Uri) => string): Promise<OptionValues | undefined> {
  const values: OptionValues = {};
  for (const spec of specs) {
    if (spec.type === 'boolean' || spec.type === 'choice') {
      const items =
        spec.type === 'boolean'
          ? [
              { label: vscode.l10n.t('Yes'), value: true as string | boolean },
              { label: vscode.l10n.t('No'), value: false as string | boolean },
            ]
          : (spec.choices ?? []).map((c) => ({ label: c.label, value: c.value as string | boolean }));
      items.sort((a, b) => Number(b.value === spec.default) - Number(a.value === spec.default));
      const pick = await vscode.window.showQuickPick(items, { title: spec.label, placeHolder: spec.description });
      if (!pick) return undefined;
      values[spec.key] = pick.value;
    } else if (spec.type === 'path') {
      const picked = await vscode.window.showOpenDialog({ title: spec.label, canSelectMany: false, openLabel: vscode.l10n.t('Use') });
      if (picked?.[0]) values[spec.key] = location(picked[0]);
      else if (spec.default === undefined) continue;
      else values[spec.key] = spec.default;
    } else {
      const text = await vscode.window.showInputBox({
        title: spec.label,
        prompt: spec.description,
        value: spec.default === undefined ? '' : String(spec.default),
        validateInput: (v) => (spec.type === 'number' && (v.trim() === '' || !Number.isFinite(Number(v))) ? vscode.l10n.t('Enter a number') : undefined),
      });
      if (text === undefined) return undefined;
      values[spec.key] = spec.type === 'number' ? Number(text) : text;
    }
  }
  return values;
}

function withExtension(uri: vscode.Uri, extension: string): vscode.Uri {
  const name = uri.path.split('/').pop() ?? 'output';
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  return vscode.Uri.joinPath(uri, '..', `${stem}${extension || '.out'}`);
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/**
 * Convert: pick a target the file offers (a Binlens file's converters, or the importers that
 * read a text or raw file), choose where to save, then convert in an engine worker with
 * cancellable progress. The output is written to a temporary file and renamed into place.
 */
export async function convertUri(uri: vscode.Uri, createEngine: EngineFactory, log: vscode.LogOutputChannel): Promise<vscode.Uri | undefined> {
  const engine = createEngine();
  try {
    const opened = await engine.open('convert', uri);
    const name = uri.path.split('/').pop() ?? '';
    const choices: (ConverterDTO & { importer: boolean })[] =
      opened.kind === 'opened'
        ? opened.doc.converters.map((c) => ({ ...c, importer: false }))
        : (await engine.rpc.call('importers', { name })).map((c) => ({ ...c, importer: true }));
    if (choices.length === 0) {
      const why = opened.kind === 'opened' ? vscode.l10n.t('{0} has no conversions yet.', opened.doc.title) : opened.reason;
      void vscode.window.showWarningMessage(vscode.l10n.t('Binlens cannot convert {0}: {1}', name, why));
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      choices.map((c) => ({ label: c.label, description: c.extension || vscode.l10n.t('folder'), choice: c })),
      { title: vscode.l10n.t('Convert {0} to', name) },
    );
    if (!pick) return undefined;
    const converter = pick.choice;
    const options = await askOptions(converter.options, (u) => engine.location(u));
    if (!options) return undefined;
    const target = await vscode.window.showSaveDialog({ defaultUri: withExtension(uri, converter.extension), saveLabel: vscode.l10n.t('Convert'), title: converter.label });
    if (!target) return undefined;
    if (target.toString() === uri.toString()) {
      void vscode.window.showErrorMessage(vscode.l10n.t('The output cannot replace the file being converted.'));
      return undefined;
    }
    let force = false;
    if (await exists(target)) {
      const replace = vscode.l10n.t('Replace');
      const answer = await vscode.window.showWarningMessage(vscode.l10n.t('{0} exists. Replace it?', target.fsPath), { modal: true }, replace);
      if (answer !== replace) return undefined;
      force = true;
    }
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Binlens: {0}', converter.label), cancellable: true },
      (progress, token) => {
        const onEvent = (p: { done: number; total?: number; message?: string }) => progress.report({ message: p.message ?? (p.total ? `${Math.round((100 * p.done) / p.total)} %` : undefined) });
        const signal = signalOf(token);
        return converter.importer
          ? engine.rpc.call('import', { input: engine.location(uri), importer: converter.id, out: engine.location(target), options, force }, { signal, onEvent })
          : engine.rpc.call('convert', { doc: 'convert', converter: converter.id, out: engine.location(target), options, force, input: engine.location(uri) }, { signal, onEvent });
      },
    );
    log.info(`convert ${engine.location(uri)} → ${engine.location(target)}: ${result.summary}`);
    for (const w of result.warnings) log.warn(`  ${w}`);
    const open = vscode.l10n.t('Open result');
    void vscode.window.showInformationMessage(vscode.l10n.t('Converted to {0}: {1}', target.path.split('/').pop() ?? '', result.summary), open).then((choice) => {
      if (choice !== open) return;
      return converter.output === 'folder' ? vscode.commands.executeCommand('revealInExplorer', target) : vscode.commands.executeCommand('vscode.open', target);
    });
    return target;
  } catch (e) {
    const err = toErrorDTO(e);
    if (err.code !== 'cancelled') {
      log.error(`convert ${uri.toString(true)}: ${err.message}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('Binlens could not convert {0}: {1}', uri.path.split('/').pop() ?? '', err.message));
    }
    return undefined;
  } finally {
    engine.dispose();
  }
}
