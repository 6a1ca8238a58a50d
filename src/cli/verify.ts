import { statSync } from 'node:fs';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { installNativeCodecs } from '../core/codecs/native.js';
import { describeError, FormatError } from '../core/errors.js';
import { nodeCodecs } from '../core/io/nodeCodecs.js';
import { openFileWhole } from '../core/io/nodeFile.js';
import type { Check } from '../core/model.js';
import { verifyDeadlineMs, verifyDocument } from '../core/ops/verify.js';
import { toJson } from './json.js';
import { stdoutSink } from './stdout.js';
import { VERIFY_POOL } from './tiering.js';
import { runPool, serveJobs, type PoolWorkerData } from './verifyPool.js';
import { EXIT_FAILED, EXIT_OK, EXIT_UNREADABLE, closeOpened, expandPaths, openPath } from './files.js';

/** A file's checks as verified: the JSON verdict adds `ok` to each (`jsonVerdict`), text reads their status. */
interface FileVerdict {
  readonly file: string;
  readonly format: string | null;
  readonly ok: boolean;
  readonly checks: readonly Check[];
  readonly unreadable?: boolean;
}

/**
 * A file's verdict as it travels from a pool worker: what the exit code needs, and what is printed,
 * text rendered where it was verified (--json: the verdict itself). A string crosses the thread in
 * one copy where the verdict's objects were cloned one by one: that cost each worker 0.2 ms a file.
 */
interface Reported {
  readonly ok: boolean;
  readonly unreadable: boolean;
  readonly out: string | JsonVerdict;
}

function reported(verdict: FileVerdict, json: boolean): Reported {
  return { ok: verdict.ok, unreadable: verdict.unreadable === true, out: json ? jsonVerdict(verdict) : verdictText(verdict) };
}

type JsonVerdict = Omit<FileVerdict, 'checks'> & { readonly checks: readonly (Check & { ok: boolean })[] };

/** The verdict as `--json` prints it: each check with its `ok`, made only here, as text needs no copy of the checks. */
function jsonVerdict(v: FileVerdict): JsonVerdict {
  return { ...v, checks: v.checks.map((c) => ({ ...c, ok: c.status !== 'fail' })) };
}

/**
 * Verifies each file; exit 0 if all pass, 1 if any check failed, 2 if a file could not be read.
 * With `jobs` > 1 the files are verified on that many worker threads and printed as they finish
 * (JSON keeps the files' order); a file whose worker dies or passes its deadline is reported
 * unreadable, the rest go on. Text goes out in pieces of 64 KiB: a console.log per line was a
 * sixth of verifying a folder of small files.
 */
export async function verifyCommand(paths: readonly string[], opts: { json: boolean; format?: string; jobs?: number }): Promise<number> {
  const files = await expandPaths(paths);
  // Only JSON needs every verdict at the end; text keeps the tallies, so 10 000 files cost no more than one.
  const verdicts: JsonVerdict[] = [];
  const out = new TextOut();
  let failed = false;
  let unreadableFiles = false;
  const take = (index: number, r: Reported): void => {
    failed ||= !r.ok;
    unreadableFiles ||= r.unreadable;
    if (typeof r.out === 'string') out.add(r.out);
    else verdicts[index] = r.out;
  };
  if ((opts.jobs ?? 1) > 1 && files.length > 1) {
    const options: WorkerOptions = { format: opts.format, json: opts.json };
    const data: PoolWorkerData = { binlensPool: VERIFY_POOL, options };
    const crashed = (index: number, e: Error) => take(index, reported(unreadable(files[index]!, null, `the verifier stopped: ${describeError(e)}`), opts.json));
    await runPool<string, Reported>(process.argv[1]!, data, files, opts.jobs!, take, crashed, { deadlineMs: (i) => deadlineMs(files[i]!) });
  } else {
    for (const [i, file] of files.entries()) take(i, reported(await verifyFile(file, opts.format), opts.json));
  }
  if (opts.json) out.add(`${toJson(verdicts.length === 1 && paths.length === 1 && files[0] === paths[0] ? verdicts[0] : verdicts, 2)}\n`);
  await out.end();
  if (unreadableFiles) return EXIT_UNREADABLE;
  return failed ? EXIT_FAILED : EXIT_OK;
}

/** The file's deadline in a pool worker (ops/verify.ts); its size from here, as the worker has not opened it yet. */
function deadlineMs(file: string): number {
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    // The worker reports why the file cannot be read.
  }
  return verifyDeadlineMs(size);
}

/** True when this thread is a verify pool worker: the CLI's entry then serves jobs instead of parsing arguments. */
export function isVerifyWorker(): boolean {
  return !isMainThread && (workerData as PoolWorkerData | undefined)?.binlensPool === VERIFY_POOL;
}

/** A pool worker's loop: verify each file it is sent, in order, answer with the verdict. */
export function serveVerifyJobs(): void {
  // BLAKE3 from hash-wasm, not the addon: with the addon in two worker threads at once the process
  // died of SIGSEGV inside it (napi-rs callbacks jumping to unrelocated addresses) in 1 run of 3 over
  // 10 000 files, where a crash in a worker can no longer be contained; 0 of 8 without it.
  installNativeCodecs({ ...nodeCodecs, keyedBlake3: undefined });
  const data = workerData as PoolWorkerData;
  const { format, json } = data.options as WorkerOptions;
  serveJobs<string, Reported>(parentPort!, data.current, async (file) => reported(await verifyFile(file, format), json));
}

/** What a pool worker is told of the command line. */
interface WorkerOptions {
  readonly format: string | undefined;
  readonly json: boolean;
}

async function verifyFile(file: string, format: string | undefined): Promise<FileVerdict> {
  let opened;
  try {
    opened = await openPath(file, format, readSmallWhole);
  } catch (e) {
    return unreadable(file, null, describeError(e));
  }
  try {
    const { outcome } = opened;
    if (outcome.kind !== 'opened') return unreadable(file, outcome.handler?.id ?? null, outcome.reason, outcome.error);
    const checks: Check[] = [];
    let ok = true;
    for await (const c of verifyDocument(outcome.doc, {})) {
      checks.push(c);
      ok &&= c.status !== 'fail';
    }
    return { file, format: outcome.doc.format, ok, checks };
  } finally {
    await closeOpened(opened);
  }
}

/** Files up to this size are read in one synchronous piece (nodeFile.ts `openFileWhole`); larger ones are paged. */
const WHOLE_BELOW = 1 << 20;
const readSmallWhole = (path: string) => openFileWhole(path, WHOLE_BELOW);

function unreadable(file: string, format: string | null, detail: string, e?: FormatError): FileVerdict {
  // `ok` in its place in the JSON (the contract's order), where jsonVerdict would add it last.
  const open: Check & { ok: boolean } = { name: 'open', status: 'fail', ok: false, detail, offset: e?.offset, field: e?.field };
  return { file, format, ok: false, unreadable: true, checks: [open] };
}

const SYMBOL: Record<Check['status'], string> = { pass: 'ok  ', fail: 'FAIL', warn: 'warn', info: 'info' };

function verdictText(v: FileVerdict): string {
  let text = `${v.ok ? 'OK  ' : 'FAIL'} ${v.file}${v.format ? ` (${v.format})` : ''}\n`;
  for (const c of v.checks) {
    const at = c.offset === undefined ? '' : ` @${c.offset}`;
    text += `  ${SYMBOL[c.status]} ${c.name}: ${c.detail}${at}\n`;
  }
  return text;
}

/** stdout in pieces: text is gathered up to 64 KiB and written at once, waiting for a full pipe to drain. */
class TextOut {
  private pending = '';
  private writing: Promise<void> = Promise.resolve();

  add(text: string): void {
    this.pending += text;
    if (this.pending.length >= 1 << 16) this.flush();
  }

  private flush(): void {
    const chunk = Buffer.from(this.pending);
    this.pending = '';
    this.writing = this.writing.then(() => stdoutSink.write(chunk));
  }

  async end(): Promise<void> {
    if (this.pending) this.flush();
    await this.writing;
  }
}
