import * as vscode from 'vscode';
import type { CheckDTO, VerifySummaryDTO } from '../shared/protocol.js';
import { type EngineFactory, signalOf } from './engineClient.js';
import { toErrorDTO } from './errors.js';

/** A file open in an editor: verify runs there, so what the checks find marks the editor's tree. */
export interface OpenForVerify {
  verify(signal: AbortSignal, onEvent: (e: { check?: CheckDTO }) => void): Promise<VerifySummaryDTO>;
}

export interface VerifyDeps {
  readonly createEngine: EngineFactory;
  readonly diagnostics: vscode.DiagnosticCollection;
  readonly log: vscode.LogOutputChannel;
  /** The file's open editor document, if any; else the file is opened in the command's own engine. */
  readonly inEditor?: (uri: vscode.Uri) => OpenForVerify | undefined;
}

interface Totals {
  passed: number;
  failed: number;
  unreadable: number;
}

/** Files under the given URIs: files as they are, folders searched recursively for Binlens extensions. */
async function expand(uris: readonly vscode.Uri[], extensions: ReadonlySet<string>, token: vscode.CancellationToken): Promise<vscode.Uri[]> {
  const out: vscode.Uri[] = [];
  const visit = async (uri: vscode.Uri, explicit: boolean): Promise<void> => {
    if (token.isCancellationRequested) return;
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.Directory) {
      const entries = (await vscode.workspace.fs.readDirectory(uri)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const [name] of entries) await visit(vscode.Uri.joinPath(uri, name), false);
    } else if (explicit || extensions.has(extensionOf(uri.path))) out.push(uri);
  };
  for (const uri of uris) await visit(uri, true);
  return out;
}

function extensionOf(path: string): string {
  const name = path.split('/').pop() ?? '';
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

function diagnostic(c: CheckDTO): vscode.Diagnostic {
  const at = c.offset === undefined ? '' : ` (offset ${c.offset}, 0x${c.offset.toString(16)})`;
  const d = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 0), `${c.name}: ${c.detail}${at}`, c.status === 'fail' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
  d.source = 'Binlens';
  d.code = c.field ?? c.name;
  return d;
}

/**
 * Verifies files one after another in an engine worker, streaming every finding to the log and
 * failures and warnings to the Problems panel, with a cancellable progress notification and a
 * summary at the end.
 */
export async function verifyUris(uris: readonly vscode.Uri[], deps: VerifyDeps): Promise<Totals> {
  const totals: Totals = { passed: 0, failed: 0, unreadable: 0 };
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Binlens: verifying'), cancellable: true },
    async (progress, token) => {
      const engine = deps.createEngine('job');
      try {
        const formats = await engine.rpc.call('formats', {});
        const files = await expand(uris, new Set(formats.flatMap((f) => f.extensions)), token);
        for (const [i, uri] of files.entries()) {
          if (token.isCancellationRequested) break;
          const name = vscode.workspace.asRelativePath(uri);
          progress.report({ message: `${name} (${i + 1}/${files.length})`, increment: 100 / Math.max(1, files.length) });
          const diags: vscode.Diagnostic[] = [];
          deps.log.info(`verify ${uri.fsPath || uri.toString()}`);
          const onEvent = (e: { check?: CheckDTO }) => {
            if (!e.check) return;
            const c = e.check;
            const line = `  ${c.status.padEnd(4)} ${c.name}: ${c.detail}${c.offset === undefined ? '' : ` @${c.offset}`}`;
            if (c.status === 'fail') deps.log.error(line);
            else if (c.status === 'warn') deps.log.warn(line);
            else deps.log.info(line);
            if (c.status === 'fail' || c.status === 'warn') diags.push(diagnostic(c));
          };
          try {
            const open = deps.inEditor?.(uri);
            const opened = open ? undefined : await engine.open('verify', uri);
            if (opened?.kind === 'unrecognised') {
              totals.unreadable++;
              deps.log.error(`  unreadable: ${opened.reason}`);
              diags.push(diagnostic({ name: 'open', status: 'fail', detail: opened.reason }));
            } else {
              const summary = open
                ? await open.verify(signalOf(token), onEvent)
                : await engine.rpc.call('verify', { doc: 'verify' }, { signal: signalOf(token), onEvent });
              if (summary.ok) totals.passed++;
              else totals.failed++;
              if (!open) await engine.rpc.call('close', { doc: 'verify' });
            }
          } catch (e) {
            const err = toErrorDTO(e);
            if (err.code === 'cancelled') break;
            totals.unreadable++;
            deps.log.error(`  ${err.message}`);
            diags.push(diagnostic({ name: 'verify', status: 'fail', detail: err.message }));
          }
          deps.diagnostics.set(uri, diags);
        }
      } finally {
        engine.dispose();
      }
    },
  );
  const text = vscode.l10n.t('Binlens verify: {0} passed, {1} failed, {2} unreadable', totals.passed, totals.failed, totals.unreadable);
  deps.log.info(text);
  if (totals.failed + totals.unreadable > 0) {
    void vscode.window.showErrorMessage(text, vscode.l10n.t('Show Problems')).then((choice) => choice && vscode.commands.executeCommand('workbench.actions.view.problems'));
  } else {
    void vscode.window.showInformationMessage(text);
  }
  return totals;
}
