import * as vscode from 'vscode';
import type { OptionSpec } from '../core/model.js';
import type { ConverterDTO } from '../protocol/protocol.js';
import { RpcError, type ErrorDTO } from '../protocol/rpc.js';
import { type Engine, type EngineFactory, fileNameOf, signalOf } from './engineClient.js';
import { toErrorDTO } from './errors.js';
import { SALVAGING_CONVERTERS, firstLines, isDamage, salvageOrder } from './salvage.js';

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

/** What the user chose: run again as it is when a strict conversion meets damage and they ask to salvage. */
interface ConvertPlan {
  readonly converter: ConverterDTO & { importer: boolean };
  readonly options: OptionValues;
  readonly target: vscode.Uri;
  readonly force: boolean;
  /** The file's format, for a located damage message. */
  readonly formatLabel?: string;
}

export interface ConvertDeps {
  readonly createEngine: EngineFactory;
  readonly log: vscode.LogOutputChannel;
}

/**
 * Convert, and Save Intact Part… (`salvage`): one code path. Pick a target the file offers (a
 * Binlens file's converters, or the importers that read a text or raw file; salvage offers the
 * converters only, Recover first), choose where to save, then convert in an engine worker with
 * cancellable progress. The output is written to a temporary file and renamed into place, so a
 * strict run that meets damage leaves no file; its error offers the salvage run of the same plan.
 */
export function convertUri(uri: vscode.Uri, deps: ConvertDeps, salvage = false): Promise<vscode.Uri | undefined> {
  const attempt: Attempt = { plan: undefined, salvaging: salvage };
  return inJobEngine(uri, deps, attempt, async (engine) => {
    const plan = (attempt.plan = await choosePlan(engine, uri, salvage));
    if (!plan) return undefined;
    attempt.salvaging ||= SALVAGING_CONVERTERS.has(plan.converter.id);
    return execute(engine, uri, plan, attempt.salvaging, deps.log);
  });
}

/** A conversion as far as it got: what its failure report says. */
interface Attempt {
  plan: ConvertPlan | undefined;
  salvaging: boolean;
}

/** Runs a conversion in a fresh job engine, ended whatever happens; a failure is reported with the attempt as it then stood. */
async function inJobEngine(
  uri: vscode.Uri,
  deps: ConvertDeps,
  attempt: Attempt,
  run: (engine: Engine) => Promise<vscode.Uri | undefined>,
): Promise<vscode.Uri | undefined> {
  const engine = deps.createEngine('job');
  try {
    return await run(engine);
  } catch (e) {
    reportFailure(uri, attempt.plan, attempt.salvaging, toErrorDTO(e), deps);
    return undefined;
  } finally {
    engine.dispose();
  }
}

async function choosePlan(engine: Engine, uri: vscode.Uri, salvage: boolean): Promise<ConvertPlan | undefined> {
  const opened = await engine.open('convert', uri);
  const name = fileNameOf(uri);
  if (salvage && opened.kind !== 'opened') {
    void vscode.window.showWarningMessage(vscode.l10n.t('Binlens cannot read {0}: {1}', name, opened.reason));
    return undefined;
  }
  const choices: (ConverterDTO & { importer: boolean })[] =
    opened.kind === 'opened'
      ? (salvage ? salvageOrder(opened.doc.converters) : opened.doc.converters).map((c) => ({ ...c, importer: false }))
      : (await engine.rpc.call('importers', { name })).map((c) => ({ ...c, importer: true }));
  if (choices.length === 0) {
    const why = opened.kind === 'opened' ? vscode.l10n.t('{0} has no conversions yet.', opened.doc.title) : opened.reason;
    void vscode.window.showWarningMessage(vscode.l10n.t('Binlens cannot convert {0}: {1}', name, why));
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    choices.map((c) => ({ label: c.label, description: c.extension || vscode.l10n.t('folder'), choice: c })),
    { title: salvage ? vscode.l10n.t('Save the intact part of {0} as', name) : vscode.l10n.t('Convert {0} to', name) },
  );
  if (!pick) return undefined;
  const converter = pick.choice;
  const options = await askOptions(converter.options, (u) => engine.location(u));
  if (!options) return undefined;
  const target = await vscode.window.showSaveDialog({
    defaultUri: withExtension(uri, converter.extension),
    saveLabel: salvage ? vscode.l10n.t('Save Intact Part') : vscode.l10n.t('Convert'),
    title: converter.label,
  });
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
  return { converter, options, target, force, formatLabel: opened.kind === 'opened' ? opened.doc.formatLabel : undefined };
}

/** Runs the plan in `engine` (which has the file open as 'convert') and tells the user what came of it. */
async function execute(engine: Engine, uri: vscode.Uri, plan: ConvertPlan, salvage: boolean, log: vscode.LogOutputChannel): Promise<vscode.Uri> {
  const { converter, options, target, force } = plan;
  const title = salvage ? vscode.l10n.t('Binlens: saving the intact part ({0})', converter.label) : vscode.l10n.t('Binlens: {0}', converter.label);
  const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
    const onEvent = (p: { done: number; total?: number; message?: string }) =>
      progress.report({ message: p.message ?? (p.total ? `${Math.round((100 * p.done) / p.total)} %` : undefined) });
    const signal = signalOf(token);
    return converter.importer
      ? engine.rpc.call('import', { input: engine.location(uri), importer: converter.id, out: engine.location(target), options, force }, { signal, onEvent })
      : engine.rpc.call(
          'convert',
          { doc: 'convert', converter: converter.id, out: engine.location(target), options, force, input: engine.location(uri), salvage },
          { signal, onEvent },
        );
  });
  const outName = fileNameOf(target);
  log.info(`${salvage ? 'save intact part' : 'convert'} ${engine.location(uri)} → ${engine.location(target)}: ${result.summary}`);
  for (const w of result.warnings) log.warn(`  ${w}`);
  const damaged = result.damaged ?? [];
  const omitted = result.omitted ?? [];
  for (const d of damaged) log.warn(`  left out (damaged): ${d}`);
  for (const o of omitted) log.warn(`  left out (not decodable by design): ${o}`);
  const open = vscode.l10n.t('Open result');
  const showList = vscode.l10n.t('Show List');
  const opening = (choice: string | undefined) => {
    if (choice === showList) return log.show(true);
    if (choice !== open) return;
    return converter.output === 'folder' ? vscode.commands.executeCommand('revealInExplorer', target) : vscode.commands.executeCommand('vscode.open', target);
  };
  // Damaged units first, then parts no codec here decodes (left out by design, not damage).
  const leftOut = [...damaged, ...omitted.map((o) => vscode.l10n.t('{0} (not damaged: no codec decodes it)', o))];
  const heading = salvage ? vscode.l10n.t('Saved the intact part to {0}', outName) : vscode.l10n.t('Converted to {0}: {1}', outName, result.summary);
  if (leftOut.length > 0) {
    const { shown, more } = firstLines(leftOut, 3);
    const message =
      more > 0
        ? vscode.l10n.t('{0}. Left out ({1}): {2}; and {3} more, listed in the Binlens output', heading, leftOut.length, shown, more)
        : vscode.l10n.t('{0}. Left out ({1}): {2}', heading, leftOut.length, shown);
    void vscode.window.showWarningMessage(message, showList, open).then(opening);
  } else {
    // Not "nothing was damaged": a converter may keep a good prefix without listing the rest (Recover of a cut stream).
    const message = salvage ? vscode.l10n.t('{0}: {1}', heading, result.summary) : heading;
    void vscode.window.showInformationMessage(message, open).then(opening);
  }
  return target;
}

/**
 * A failed run, said where it failed. Damage met by a strict conversion offers Save Intact Part…
 * for the same target, options and destination: a fresh engine runs the same plan with salvage.
 */
function reportFailure(uri: vscode.Uri, plan: ConvertPlan | undefined, salvage: boolean, err: ErrorDTO, deps: ConvertDeps): void {
  if (err.code === 'cancelled') return;
  const name = fileNameOf(uri);
  deps.log.error(`${salvage ? 'save intact part' : 'convert'} ${uri.toString(true)}: ${err.message}`);
  if (!plan || !isDamage(err) || plan.converter.importer) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Binlens could not convert {0}: {1}', name, err.message));
    return;
  }
  const what = plan.formatLabel ? `${name} (${plan.formatLabel})` : name;
  if (salvage) {
    // Salvage stops only where it cannot tell intact from damaged (a structure it cannot walk past).
    void vscode.window.showErrorMessage(vscode.l10n.t('Binlens could not save an intact part of {0}: damaged: {1}. Nothing was written.', what, err.message));
    return;
  }
  const saveIntact = vscode.l10n.t('Save Intact Part…');
  void vscode.window
    .showErrorMessage(vscode.l10n.t('Binlens stopped converting {0}: damaged: {1}. Nothing was written.', what, err.message), saveIntact)
    .then((choice) => (choice === saveIntact ? salvagePlan(uri, plan, deps) : undefined));
}

/** The salvage run of a plan the user already made: the file opened afresh in a new engine. */
function salvagePlan(uri: vscode.Uri, plan: ConvertPlan, deps: ConvertDeps): Promise<vscode.Uri | undefined> {
  return inJobEngine(uri, deps, { plan, salvaging: true }, async (engine) => {
    const opened = await engine.open('convert', uri);
    if (opened.kind !== 'opened') throw new RpcError({ message: opened.reason, code: 'corrupt', offset: opened.offset });
    return execute(engine, uri, plan, true, deps.log);
  });
}
