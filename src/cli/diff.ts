/**
 * `binlens diff A B [--json] [--key COLUMN]` (DESIGN.md, CLI contract): exit 0 same, 1 different,
 * 2 trouble (unreadable file, damaged data, usage), as diff(1). `--key`: tables' rows matched by
 * that column's value instead of by position.
 *
 * Text: a header line per file, a line per difference, a summary line with the counts.
 * JSON lines: `{"type":"difference","kind","at","text","data"?}` per difference (and
 * `"kind":"not-shown"` for differences only counted), then
 * `{"type":"summary","a":{"file","format","title"},"b":{…},"same","differences","counts"}`.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { rethrowUnlessFormatError } from '../core/errors.js';
import type { FormatDocument } from '../core/model.js';
import { diffDocuments } from '../core/ops/diff.js';
import { DiffSideError } from '../core/ops/diffKit.js';
import { EXIT_FAILED, EXIT_OK, EXIT_UNREADABLE, closeOpened, openPath, type Opened } from './files.js';
import { stdoutSink } from './stdout.js';

export interface DiffArgs {
  readonly json: boolean;
  readonly as?: string;
  readonly key?: string;
}

const ENC = new TextEncoder();

export async function diffCommand(pathA: string, pathB: string, args: DiffArgs): Promise<number> {
  const opened: Opened[] = [];
  try {
    const docs: FormatDocument[] = [];
    for (const path of [pathA, pathB]) {
      const o = await openPath(path, args.as);
      opened.push(o);
      if (o.outcome.kind !== 'opened') {
        console.error(`binlens: ${path}: ${o.outcome.reason}`);
        return EXIT_UNREADABLE;
      }
      docs.push(o.outcome.doc);
    }
    const [a, b] = docs as [FormatDocument, FormatDocument];
    const out = (line: string) => stdoutSink.write(ENC.encode(`${line}\n`));
    const side = (path: string, doc: FormatDocument) => ({ file: path, format: doc.format, title: doc.title });
    // Before the header: a --key the family cannot take is refused before any output.
    const run = diffDocuments(
      { doc: a, name: basename(pathA), size: (await stat(pathA)).size },
      { doc: b, name: basename(pathB), size: (await stat(pathB)).size },
      {},
      { key: args.key },
    );
    if (!args.json) {
      await out(`--- A ${pathA} (${a.format}: ${a.title})`);
      await out(`+++ B ${pathB} (${b.format}: ${b.title})`);
    }
    try {
      for (;;) {
        const step = await run.next();
        if (step.done) {
          const { differences, counts } = step.value;
          if (args.json) await out(JSON.stringify({ type: 'summary', a: side(pathA, a), b: side(pathB, b), same: differences === 0, differences, counts }));
          else await out(summaryLine(differences, counts));
          return differences === 0 ? EXIT_OK : EXIT_FAILED;
        }
        const d = step.value;
        if (args.json) await out(JSON.stringify({ type: 'difference', kind: d.kind, at: d.at, text: d.text, ...(d.data ? { data: d.data } : {}) }));
        else await out(`${d.kind} ${d.at}: ${d.text}`);
      }
    } catch (e) {
      return reportTrouble(e, { A: pathA, B: pathB }, { A: a.format, B: b.format });
    }
  } finally {
    for (const o of opened) await closeOpened(o);
  }
}

function summaryLine(differences: number, counts: Readonly<Record<string, number>>): string {
  const parts = Object.entries(counts).map(([k, n]) => `${k} ${n}`);
  const head = differences === 0 ? 'same' : `${differences} ${differences === 1 ? 'difference' : 'differences'}`;
  return `summary: ${head}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

/** Damaged or undecodable data on one side: exit 2, naming the file and the located error; never a diff of damaged values. */
function reportTrouble(e: unknown, paths: Record<'A' | 'B', string>, formats: Record<'A' | 'B', string>): number {
  const sideError = e instanceof DiffSideError ? e : undefined;
  const error = sideError ? sideError.error : e;
  rethrowUnlessFormatError(error, 'cancelled');
  const where = sideError ? `${paths[sideError.side]} (${formats[sideError.side]})` : `${paths.A} / ${paths.B}`;
  const damaged = error.code !== 'unsupported' && error.code !== 'limit' && error.code !== 'bad-input';
  console.error(`binlens: ${where}: ${damaged ? 'damaged: ' : ''}${error.message}`);
  // A key that does not fit the files, or the keyed diff's cap, says what to do itself.
  if (error.code !== 'bad-input' && error.field !== '--key')
    console.error('binlens: no diff: the files cannot be compared where data is damaged or unreadable');
  return EXIT_UNREADABLE;
}
