import type { Converter, FormatDocument, StructNode } from './model.js';
import { isLazy } from './model.js';
import { fileConverter } from './converterSpec.js';
import { errorNode } from './describe.js';
import { rethrowUnlessFormatError, throwIfAborted } from './errors.js';

/**
 * Renders a document's structure as the annotated, deterministic `binlens-dump` text: one line
 * per node, `OFFSET LENGTH  label = value`, indented by depth. Two files' dumps diff cleanly in
 * VS Code's diff view or through git textconv. `syntaxes/binlens-dump.tmLanguage.json` colours it.
 */
export const DUMP_VERSION = 1;

/** Lazy children are fetched in pages of this many, so huge lists stream with bounded memory. */
const PAGE = 1000;

export interface DumpOptions {
  readonly fileName: string;
  readonly size: number;
  readonly signal?: AbortSignal;
  /** Stop listing a lazy list after this many children (the CLI prints everything). */
  readonly maxChildren?: number;
}

export type DumpWrite = (text: string) => void | Promise<void>;

export async function writeDump(doc: FormatDocument, opts: DumpOptions, write: DumpWrite): Promise<void> {
  await writeDumpHead(doc, opts, '', write);
  await write('\nstructure:\n');
  await writeNode(doc.structure(), 0, opts, write);
}

/**
 * The lines every dump starts with: version, file, format, size, warnings, the summary fields.
 * `kind` marks a variant after the version (`brief`), so a reader never mistakes one for the other.
 */
export async function writeDumpHead(doc: FormatDocument, opts: DumpOptions, kind: string, write: DumpWrite): Promise<void> {
  await write(`binlens-dump ${DUMP_VERSION}${kind ? ` ${kind}` : ''}\n`);
  await write(`file: ${oneLine(opts.fileName)}\n`);
  await write(`format: ${doc.format} (${doc.title})\n`);
  await write(`size: ${opts.size}\n`);
  if (doc.warnings.length > 0) {
    await write('\nwarnings:\n');
    for (const w of doc.warnings)
      await write(`  ${w.status === 'fail' ? '!!' : '!'} ${oneLine(`${w.name}: ${w.detail}`)}${w.offset === undefined ? '' : ` @${hex(w.offset)}`}\n`);
  }
  await write('\nsummary:\n');
  for (const f of doc.summary) {
    await write(`${rangeColumns(f.range)}  ${oneLine(`${f.name} = ${f.display ?? String(f.value)}${markText(f.mark, f.note)}`)}\n`);
  }
}

const LINE_BREAKS = /[\n\r\u0085\u2028\u2029]/g;

/**
 * Text from a file (names, keys, dictionary entries) with its line breaks escaped: a dump is one
 * entry per line, and editors also break lines at U+0085, U+2028 and U+2029.
 */
export function oneLine(text: string): string {
  return text.replace(LINE_BREAKS, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

async function writeNode(node: StructNode, depth: number, opts: DumpOptions, write: (text: string) => void | Promise<void>): Promise<void> {
  throwIfAborted(opts.signal);
  const value = node.value === undefined ? '' : ` = ${node.value}`;
  await write(`${rangeColumns(node.range)}  ${'  '.repeat(depth)}${oneLine(`${node.label}${value}${markText(node.mark, node.note)}`)}\n`);
  const children = node.children;
  if (children === undefined) return;
  if (!isLazy(children)) {
    for (const child of children) await writeNode(child, depth + 1, opts, write);
    return;
  }
  const limit = opts.maxChildren ?? Number.POSITIVE_INFINITY;
  let from = 0;
  while (from < limit) {
    let batch: readonly StructNode[];
    try {
      batch = await children.load(from, Math.min(PAGE, limit - from), opts.signal);
    } catch (e) {
      // A list that cannot be read further ends here, with the reason, like the viewer shows it.
      rethrowUnlessFormatError(e, 'cancelled');
      await writeNode(errorNode(e, 'unreadable'), depth + 1, opts, write);
      return;
    }
    for (const child of batch) await writeNode(child, depth + 1, opts, write);
    if (batch.length === 0) break;
    from += batch.length;
  }
  const total = children.count();
  if (from >= limit && (total === undefined || total > from)) {
    await write(`${rangeColumns(undefined)}  ${'  '.repeat(depth + 1)}… ${total === undefined ? 'more' : total - from} not shown\n`);
  }
}

function hex(n: number): string {
  return n.toString(16).padStart(8, '0');
}

export function rangeColumns(range: StructNode['range']): string {
  if (range === undefined) return `${'-'.padEnd(8)} ${'-'.padStart(8)}`;
  return `${hex(range.offset)} ${String(range.length).padStart(8)}`;
}

export function markText(mark: StructNode['mark'], note: string | undefined): string {
  if (mark === 'error') return `  !! ${note ?? 'error'}`;
  if (mark === 'warn') return `  ! ${note ?? 'warning'}`;
  return note === undefined ? '' : `  # ${note}`;
}

/**
 * "Annotated structure" as a conversion every format offers: the dump text written to a file,
 * e.g. to keep beside the data or to diff in another tool.
 */
export function dumpConverter(doc: FormatDocument, fileName: string, size: number): Converter {
  const encoder = new TextEncoder();
  return fileConverter({ id: 'dump', label: 'Annotated structure (binlens-dump text)', extension: '.binlens-dump' }, async (sink, ctx) => {
    let lines = 0;
    await writeDump(doc, { fileName, size, signal: ctx.signal }, (text) => {
      lines += text.split('\n').length - 1;
      return sink.write(encoder.encode(text));
    });
    return { summary: `${lines} lines of structure` };
  });
}

/** The conversions a document offers: its own, then the ones every format has. */
export function convertersOf(doc: FormatDocument, fileName: string, size: number): Converter[] {
  return [...doc.converters, dumpConverter(doc, fileName, size)];
}
