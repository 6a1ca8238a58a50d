import { basename } from 'node:path';
import { convertersOf } from '../core/dump.js';
import { openFile } from '../core/io/nodeFile.js';
import { createScratchSpace } from '../core/io/nodeScratch.js';
import { writeAtomically } from '../core/io/nodeOutput.js';
import type { ConverterSpec, OptionSpec, OptionValue, OptionValues } from '../core/model.js';
import { importFile } from '../core/ops/import.js';
import { convertDocument } from '../core/ops/read.js';
import { extensionOf, importersFor } from '../core/registry.js';
import { EXIT_OK, EXIT_UNREADABLE, UsageError, closeOpened, openPath } from './files.js';
import { reportOutcome, reportReadError } from './integrity.js';

export interface ConvertArgs {
  readonly to?: string;
  readonly force: boolean;
  readonly set: readonly string[];
  readonly as?: string;
  readonly salvage: boolean;
  readonly strict: boolean;
}

/**
 * Converts IN to OUT. A file Binlens reads offers its converters; any other file (JSONL, TSV,
 * raw bytes) offers the importers that accept its extension. The target is `--to ID` or the
 * one whose extension matches OUT.
 */
export async function convertCommand(input: string, output: string, args: ConvertArgs): Promise<number> {
  const opened = await openPath(input, args.as);
  try {
    if (opened.outcome.kind === 'opened') {
      const { doc } = opened.outcome;
      const converter = pick(convertersOf(doc, basename(input), opened.src.size), output, args.to, doc.title);
      const options = parseOptions(converter.options ?? [], args.set);
      try {
        const outcome = await convertDocument(
          converter,
          options,
          { salvage: args.salvage },
          (run) => writeAtomically(output, { force: args.force, inputs: [input], kind: converter.output }, run),
          { openPath: openFile },
        );
        printReport(outcome.report.summary, outcome.report.warnings);
        return reportOutcome(input, outcome, args.strict);
      } catch (e) {
        return reportReadError(input, doc.format, e, 'convert');
      }
    }
    const choices = await importersFor(basename(input));
    if (choices.length === 0) {
      console.error(`binlens: ${input}: ${opened.outcome.reason}; nothing converts it`);
      return EXIT_UNREADABLE;
    }
    const importer = pick(
      choices.map((c) => c.importer),
      output,
      args.to,
      `a ${extensionOf(input) || 'plain'} file`,
    );
    const options = parseOptions(importer.options ?? [], args.set);
    const host = { openPath: openFile, writeOutput: writeAtomically, scratch: createScratchSpace };
    const report = await importFile(importer, { input, out: output, force: args.force, options }, host);
    printReport(report.summary, report.warnings);
    return EXIT_OK;
  } finally {
    await closeOpened(opened);
  }
}

function pick<T extends ConverterSpec>(list: readonly T[], output: string, to: string | undefined, what: string): T {
  if (list.length === 0) throw new UsageError(`${what}: no conversions are available for it yet`);
  const menu = list.map((c) => `  ${c.id.padEnd(18)} ${c.label}${c.extension ? ` (${c.extension})` : ''}`).join('\n');
  if (to !== undefined) {
    const found = list.find((c) => c.id === to);
    if (!found) throw new UsageError(`--to ${to}: ${what} converts to:\n${menu}`);
    return found;
  }
  const ext = extensionOf(output);
  const matching = list.filter((c) => c.extension === ext);
  if (matching.length === 1) return matching[0]!;
  throw new UsageError(
    `${matching.length > 1 ? `several conversions write ${ext}` : `no conversion writes "${ext || output}"`}; choose one with --to:\n${menu}`,
  );
}

function parseOptions(specs: readonly OptionSpec[], set: readonly string[]): OptionValues {
  const out: Record<string, OptionValue> = {};
  for (const spec of specs) if (spec.default !== undefined) out[spec.key] = spec.default;
  for (const item of set) {
    const eq = item.indexOf('=');
    const key = eq < 0 ? item : item.slice(0, eq);
    const raw = eq < 0 ? 'true' : item.slice(eq + 1);
    const spec = specs.find((s) => s.key === key);
    if (!spec) throw new UsageError(`--set ${key}: unknown option; options: ${specs.map((s) => s.key).join(', ') || 'none'}`);
    out[key] = parseValue(spec, raw);
  }
  return out;
}

function parseValue(spec: OptionSpec, raw: string): OptionValue {
  switch (spec.type) {
    case 'boolean':
      if (raw === 'true' || raw === 'false') return raw === 'true';
      throw new UsageError(`--set ${spec.key}: expected true or false`);
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--set ${spec.key}: expected a number`);
      return n;
    }
    case 'choice':
      if (!spec.choices?.some((c) => c.value === raw)) throw new UsageError(`--set ${spec.key}: one of ${spec.choices?.map((c) => c.value).join(', ')}`);
      return raw;
    case 'string':
    case 'path':
      return raw;
  }
}

function printReport(summary: string, warnings: readonly string[] | undefined): void {
  console.error(summary);
  for (const w of warnings ?? []) console.error(`warning: ${w}`);
}
