import * as vscode from 'vscode';
import { MAX_FINDINGS, type CheckDTO } from '../protocol/protocol.js';
import { verifyDeadlineMs } from '../core/ops/verify.js';
import { type EngineFactory, fileNameOf, signalOf } from './engineClient.js';
import { toErrorDTO } from './errors.js';
import { DeadlineExceeded, runVerifyQueue, untilAborted } from './verifyQueue.js';

/** A file open in an editor: the verify runs on a job thread all the same, and hands what failed to the editor, whose tree marks it. */
export interface OpenForVerify {
  /** Where the failed checks of a verify starting now go (asked before it starts: the editor drops them if the file is opened again meanwhile). */
  findingsSink(): (failed: readonly CheckDTO[]) => Promise<void>;
}

export interface VerifyDeps {
  readonly createEngine: EngineFactory;
  readonly diagnostics: vscode.DiagnosticCollection;
  readonly log: vscode.LogOutputChannel;
  /** The file's open editor document, if any: it is told what failed. */
  readonly inEditor?: (uri: vscode.Uri) => OpenForVerify | undefined;
}

interface Totals {
  passed: number;
  failed: number;
  unreadable: number;
}

/** A file to verify and its size (for its deadline). */
interface FileToVerify {
  readonly uri: vscode.Uri;
  readonly size: number;
}

/** Files under the given URIs: files as they are, folders searched recursively for Binlens extensions. */
async function expand(uris: readonly vscode.Uri[], extensions: ReadonlySet<string>, token: vscode.CancellationToken): Promise<FileToVerify[]> {
  const out: FileToVerify[] = [];
  const visit = async (uri: vscode.Uri, explicit: boolean): Promise<void> => {
    if (token.isCancellationRequested) return;
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.Directory) {
      const entries = (await vscode.workspace.fs.readDirectory(uri)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const [name] of entries) await visit(vscode.Uri.joinPath(uri, name), false);
    } else if (explicit || extensions.has(extensionOf(uri.path))) out.push({ uri, size: stat.size });
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
  const d = new vscode.Diagnostic(
    new vscode.Range(0, 0, 0, 0),
    `${c.name}: ${c.detail}${at}`,
    c.status === 'fail' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
  );
  d.source = 'Binlens';
  d.code = c.field ?? c.name;
  return d;
}

/** Files verified at once: each on its own lease of the pool's job threads (two by default). */
const PARALLEL_FILES = 2;

type Verdict = keyof Totals;

/** One file's verdict, with its log lines and problems, reported together when it is done. */
interface FileReport {
  readonly verdict: Verdict;
  readonly lines: readonly { readonly level: 'info' | 'warn' | 'error'; readonly text: string }[];
  readonly diagnostics: readonly vscode.Diagnostic[];
}

/**
 * Verifies files, several at once on the engine pool's job threads (verifyQueue.ts), and reports
 * each file as it finishes: its findings to the log in one piece, its failures and warnings to
 * the Problems panel, "n of N" to a cancellable progress notification; a summary at the end. A
 * file that throws is reported unreadable; one that passes its deadline (ops/verify.ts) has its
 * thread ended and replaced, and is reported as not answering. The rest go on.
 */
export async function verifyUris(uris: readonly vscode.Uri[], deps: VerifyDeps): Promise<Totals> {
  const totals: Totals = { passed: 0, failed: 0, unreadable: 0 };
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Binlens: verifying'), cancellable: true },
    async (progress, token) => {
      const lister = deps.createEngine('job');
      let files: FileToVerify[];
      try {
        const formats = await lister.rpc.call('formats', {});
        files = await expand(uris, new Set(formats.flatMap((f) => f.extensions)), token);
      } finally {
        lister.dispose();
      }
      await runVerifyQueue(files, {
        parallel: PARALLEL_FILES,
        signal: signalOf(token),
        deadlineMs: (f) => verifyDeadlineMs(f.size),
        verify: (f, signal) => verifyFile(f.uri, deps, signal),
        report: ({ uri }, report, done, total) => {
          totals[report.verdict]++;
          deps.log.info(`verify ${uri.fsPath || uri.toString()}`);
          for (const l of report.lines) deps.log[l.level](l.text);
          deps.diagnostics.set(uri, [...report.diagnostics]);
          progress.report({ message: `${vscode.workspace.asRelativePath(uri)} (${done}/${total})`, increment: 100 / Math.max(1, total) });
        },
      });
    },
  );
  const text = vscode.l10n.t('Binlens verify: {0} passed, {1} failed, {2} unreadable', totals.passed, totals.failed, totals.unreadable);
  deps.log.info(text);
  if (totals.failed + totals.unreadable > 0) {
    void vscode.window
      .showErrorMessage(text, vscode.l10n.t('Show Problems'))
      .then((choice) => choice && vscode.commands.executeCommand('workbench.actions.view.problems'));
  } else {
    void vscode.window.showInformationMessage(text);
  }
  return totals;
}

/** Verifies one file on a lease of its own, then hands what failed to its open editor's document, if it has one. */
async function verifyFile(uri: vscode.Uri, deps: VerifyDeps, signal: AbortSignal): Promise<FileReport | 'cancelled'> {
  const first = await verifyOnce(uri, deps, signal);
  // Another file's thread was ended under this one (it hung there): this file did nothing wrong.
  return first === 'thread ended' ? await verifyOnce(uri, deps, signal).then((r) => (r === 'thread ended' ? stopped(uri) : r)) : first;
}

function stopped(uri: vscode.Uri): FileReport {
  // In English, as the engine's own check details are.
  const detail = `the engine stopped twice while verifying ${fileNameOf(uri)}`;
  return { verdict: 'unreadable', lines: [{ level: 'error', text: `  ${detail}` }], diagnostics: [diagnostic({ name: 'verify', status: 'fail', detail })] };
}

async function verifyOnce(uri: vscode.Uri, deps: VerifyDeps, signal: AbortSignal): Promise<FileReport | 'cancelled' | 'thread ended'> {
  const lines: { level: 'info' | 'warn' | 'error'; text: string }[] = [];
  const diags: vscode.Diagnostic[] = [];
  const failed: CheckDTO[] = [];
  const onEvent = (e: { check?: CheckDTO }) => {
    if (!e.check) return;
    const c = e.check;
    lines.push({
      level: c.status === 'fail' ? 'error' : c.status === 'warn' ? 'warn' : 'info',
      text: `  ${c.status.padEnd(4)} ${c.name}: ${c.detail}${c.offset === undefined ? '' : ` @${c.offset}`}`,
    });
    if (c.status === 'fail' || c.status === 'warn') diags.push(diagnostic(c));
    if (c.status === 'fail' && failed.length < MAX_FINDINGS) failed.push(c);
  };
  // Even for a file open in an editor: the editor's engine is a view thread that other editors page from.
  const toEditor = deps.inEditor?.(uri)?.findingsSink();
  const engine = deps.createEngine('job');
  try {
    // A thread stuck in a loop answers neither the call nor its cancel: the deadline ends the wait.
    const opened = await untilAborted(engine.open('verify', uri), signal);
    if (opened.kind === 'unrecognised') {
      lines.push({ level: 'error', text: `  unreadable: ${opened.reason}` });
      diags.push(diagnostic({ name: 'open', status: 'fail', detail: opened.reason }));
      return { verdict: 'unreadable', lines, diagnostics: diags };
    }
    const summary = await untilAborted(engine.rpc.call('verify', { doc: 'verify' }, { signal, onEvent }), signal);
    // The report does not wait for the editor's thread; an editor closed meanwhile has nothing to mark.
    if (toEditor && failed.length > 0) void toEditor(failed).catch(() => undefined);
    return { verdict: summary.ok ? 'passed' : 'failed', lines, diagnostics: diags };
  } catch (e) {
    if (signal.reason instanceof DeadlineExceeded) {
      // Its thread is ended and the pool starts a fresh one: the other files go on.
      engine.abandon?.();
      const detail = `${signal.reason.message}: the verifier stopped`;
      lines.push({ level: 'error', text: `  ${detail}` });
      diags.push(diagnostic({ name: 'verify', status: 'fail', detail }));
      return { verdict: 'unreadable', lines, diagnostics: diags };
    }
    const err = toErrorDTO(e);
    if (signal.aborted) return 'cancelled';
    if (err.code === 'cancelled') return 'thread ended';
    lines.push({ level: 'error', text: `  ${err.message}` });
    diags.push(diagnostic({ name: 'verify', status: 'fail', detail: err.message }));
    return { verdict: 'unreadable', lines, diagnostics: diags };
  } finally {
    engine.dispose();
  }
}
