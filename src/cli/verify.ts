import { describeError, FormatError } from '../core/errors.js';
import type { Check } from '../core/model.js';
import { verifyDocument } from '../core/ops/verify.js';
import { toJson } from './json.js';
import { EXIT_FAILED, EXIT_OK, EXIT_UNREADABLE, closeOpened, expandPaths, openPath } from './files.js';

interface FileVerdict {
  readonly file: string;
  readonly format: string | null;
  readonly ok: boolean;
  readonly checks: readonly (Check & { ok: boolean })[];
  readonly unreadable?: boolean;
}

/** Verifies each file; exit 0 if all pass, 1 if any check failed, 2 if a file could not be read. */
export async function verifyCommand(paths: readonly string[], opts: { json: boolean; format?: string }): Promise<number> {
  const files = await expandPaths(paths);
  const verdicts: FileVerdict[] = [];
  for (const file of files) {
    const verdict = await verifyFile(file, opts.format);
    verdicts.push(verdict);
    if (!opts.json) printVerdict(verdict);
  }
  if (opts.json) console.log(toJson(verdicts.length === 1 && paths.length === 1 && files[0] === paths[0] ? verdicts[0] : verdicts, 2));
  if (verdicts.some((v) => v.unreadable)) return EXIT_UNREADABLE;
  return verdicts.every((v) => v.ok) ? EXIT_OK : EXIT_FAILED;
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
