import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { installNativeCodecs } from '../core/codecs/native.js';
import { describeError, FormatError } from '../core/errors.js';
import { nodeCodecs } from '../core/io/nodeCodecs.js';
import type { Check } from '../core/model.js';
import { verifyDocument } from '../core/ops/verify.js';
import { toJson } from './json.js';
import { runPool, type PoolWorkerData } from './verifyPool.js';
import { EXIT_FAILED, EXIT_OK, EXIT_UNREADABLE, closeOpened, expandPaths, openPath } from './files.js';

interface FileVerdict {
  readonly file: string;
  readonly format: string | null;
  readonly ok: boolean;
  readonly checks: readonly (Check & { ok: boolean })[];
  readonly unreadable?: boolean;
}

/**
 * Verifies each file; exit 0 if all pass, 1 if any check failed, 2 if a file could not be read.
 * With `jobs` > 1 the files are verified on that many worker threads and printed as they finish
 * (JSON keeps the files' order); a file whose worker dies is reported unreadable, the rest go on.
 */
export async function verifyCommand(paths: readonly string[], opts: { json: boolean; format?: string; jobs?: number }): Promise<number> {
  const files = await expandPaths(paths);
  const verdicts: FileVerdict[] = [];
  const take = (index: number, verdict: FileVerdict): void => {
    verdicts[index] = verdict;
    if (!opts.json) printVerdict(verdict);
  };
  if ((opts.jobs ?? 1) > 1 && files.length > 1) {
    const data: PoolWorkerData = { binlensPool: POOL, options: { format: opts.format } };
    const crashed = (index: number, e: Error) => take(index, unreadable(files[index]!, null, `the verifier stopped: ${describeError(e)}`));
    await runPool<string, FileVerdict>(process.argv[1]!, data, files, opts.jobs!, take, crashed);
  } else {
    for (const [i, file] of files.entries()) take(i, await verifyFile(file, opts.format));
  }
  if (opts.json) console.log(toJson(verdicts.length === 1 && paths.length === 1 && files[0] === paths[0] ? verdicts[0] : verdicts, 2));
  if (verdicts.some((v) => v.unreadable)) return EXIT_UNREADABLE;
  return verdicts.every((v) => v.ok) ? EXIT_OK : EXIT_FAILED;
}

const POOL = 'verify';

/** True when this thread is a verify pool worker: the CLI's entry then serves jobs instead of parsing arguments. */
export function isVerifyWorker(): boolean {
  return !isMainThread && (workerData as PoolWorkerData | undefined)?.binlensPool === POOL;
}

/** A pool worker's loop: verify each file it is sent, answer with the verdict. */
export function serveVerifyJobs(): void {
  installNativeCodecs(nodeCodecs);
  const { format } = (workerData as PoolWorkerData).options as { format?: string };
  parentPort!.on('message', (m: { index: number; item: string }) => {
    void verifyFile(m.item, format).then((result) => parentPort!.postMessage({ index: m.index, result }));
  });
}

async function verifyFile(file: string, format: string | undefined): Promise<FileVerdict> {
  let opened;
  try {
    opened = await openPath(file, format);
  } catch (e) {
    return unreadable(file, null, describeError(e));
  }
  try {
    const { outcome } = opened;
    if (outcome.kind !== 'opened') return unreadable(file, outcome.handler?.id ?? null, outcome.reason, outcome.error);
    const checks: (Check & { ok: boolean })[] = [];
    for await (const c of verifyDocument(outcome.doc, {})) checks.push({ ...c, ok: c.status !== 'fail' });
    return { file, format: outcome.doc.format, ok: checks.every((c) => c.ok), checks };
  } finally {
    await closeOpened(opened);
  }
}

function unreadable(file: string, format: string | null, detail: string, e?: FormatError): FileVerdict {
  return { file, format, ok: false, unreadable: true, checks: [{ name: 'open', status: 'fail', ok: false, detail, offset: e?.offset, field: e?.field }] };
}

const SYMBOL: Record<Check['status'], string> = { pass: 'ok  ', fail: 'FAIL', warn: 'warn', info: 'info' };

function printVerdict(v: FileVerdict): void {
  console.log(`${v.ok ? 'OK  ' : 'FAIL'} ${v.file}${v.format ? ` (${v.format})` : ''}`);
  for (const c of v.checks) {
    const at = c.offset === undefined ? '' : ` @${c.offset}`;
    console.log(`  ${SYMBOL[c.status]} ${c.name}: ${c.detail}${at}`);
  }
}
