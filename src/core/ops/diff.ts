/**
 * `binlens diff A B`: the family's own semantic diff when both files are of one family that has
 * one (DiffSpec on the document), else their structure dumps compared line by line. Every read
 * is strict: damaged data throws (tagged with its side, diffKit.ts) rather than being compared.
 */
import { writeDump } from '../dump.js';
import { FormatError } from '../errors.js';
import type { Difference, DiffOptions, DiffSummary, FormatDocument, TaskContext } from '../model.js';
import { catLines, pullLines, Tally, zip, type DiffSide } from './diffKit.js';

export interface DiffInput {
  readonly doc: FormatDocument;
  /** The file name the structure dump prints. */
  readonly name: string;
  readonly size: number;
}

/** Differing dump lines listed before the rest are only counted. */
export const STRUCTURE_LINES_SHOWN = 10;

export function diffDocuments(a: DiffInput, b: DiffInput, ctx: TaskContext = {}, options: DiffOptions = {}): AsyncGenerator<Difference, DiffSummary> {
  const spec = a.doc.diff;
  // Same constructor: the family's diff reaches the other side's internals through its spec.
  const family = a.doc.format === b.doc.format && spec && b.doc.diff && Object.getPrototypeOf(spec) === Object.getPrototypeOf(b.doc.diff) ? spec : undefined;
  if (options.key !== undefined && !family?.keyed) {
    const what =
      a.doc.format === b.doc.format ? `${a.doc.format} files have no columns` : `files of two families (${a.doc.format}, ${b.doc.format}) have no shared rows`;
    throw new FormatError('bad-input', `${what} to match rows by: --key applies to tables (IDV, bindu)`, { field: '--key' });
  }
  return family ? family.run(b.doc, ctx, options) : checkedStructure(a, b, ctx);
}

/**
 * The structure diff. Two files of one family meet here only when one of them offers no diff (an
 * fst whose root or layout does not decode): its content is read through its strict cat first, so
 * damage is trouble (exit 2), not a difference, and content that cannot be decoded at all is too.
 */
async function* checkedStructure(a: DiffInput, b: DiffInput, ctx: TaskContext): AsyncGenerator<Difference, DiffSummary> {
  if (a.doc.format === b.doc.format) {
    for (const [side, input] of [
      ['A', a],
      ['B', b],
    ] as const) {
      if (input.doc.diff) continue;
      // catLines throws 'unsupported' for a document without cat.
      const cat = input.doc.cat;
      for await (const _line of catLines(side, input.doc, cat?.formats[0] ?? 'raw', ctx));
    }
  }
  return yield* diffStructure(a, b, ctx);
}

/**
 * The two structure dumps, line by line by position. The file name line is left out: it differs
 * whenever the paths do, which says nothing about content.
 */
export async function* diffStructure(
  a: DiffInput,
  b: DiffInput,
  ctx: TaskContext = {},
  shown = STRUCTURE_LINES_SHOWN,
): AsyncGenerator<Difference, DiffSummary> {
  const tally = new Tally();
  if (a.doc.format !== b.doc.format) {
    tally.add('format-differs');
    yield {
      kind: 'format-differs',
      at: 'format',
      text: `${a.doc.format} (${a.doc.title}) → ${b.doc.format} (${b.doc.title})`,
      data: { a: a.doc.format, b: b.doc.format },
    };
  }
  let line = 0;
  let listed = 0;
  for await (const [la, lb] of zip(dumpLines('A', a, ctx), dumpLines('B', b, ctx))) {
    line++;
    if (la === lb || (la?.startsWith('file: ') && lb?.startsWith('file: '))) continue;
    tally.add('structure-differs');
    if (listed++ < shown)
      yield { kind: 'structure-differs', at: `dump line ${line}`, text: `${la ?? '(none)'} → ${lb ?? '(none)'}`, data: { line, a: la ?? null, b: lb ?? null } };
  }
  const more = listed - shown;
  if (more > 0)
    yield { kind: 'not-shown', at: 'dump lines', text: `${more} more differing dump lines not listed`, data: { of: 'structure-differs', count: more } };
  return tally.summary();
}

function dumpLines(side: DiffSide, input: DiffInput, ctx: TaskContext): AsyncGenerator<string> {
  return pullLines(side, (write) => writeDump(input.doc, { fileName: input.name, size: input.size, signal: ctx.signal }, write));
}
