/**
 * `cat` and `convert` as every caller runs them, with the integrity rule of integrity.ts: a
 * damaged unit stops the output (the FormatError propagates, and a conversion leaves no file),
 * unless the caller salvages; then every intact unit is written and the damaged ones are listed
 * in the outcome. The CLI maps the outcome to its exit code; the engine shows it to the user.
 */
import { CollectingLog, type Damage } from '../integrity.js';
import type { CatFormat, CatOptions, ByteSink, Converter, ConvertReport, FormatDocument, OptionValues, OutputTarget, TaskContext } from '../model.js';

export interface ReadOptions {
  /** Write every intact unit and list the damaged ones, instead of stopping at the first. */
  readonly salvage?: boolean;
}

export interface ReadOutcome {
  /** Damaged units left out of the output (salvage only). */
  readonly damage: readonly Damage[];
  /** Parts left out by design (a describe-only column): not damage. */
  readonly omissions: readonly string[];
}

export interface ConvertOutcome extends ReadOutcome {
  readonly report: ConvertReport;
}

/** Writes the document's decoded content to `out`. */
export async function catDocument(
  doc: FormatDocument,
  format: CatFormat,
  range: CatOptions,
  out: ByteSink,
  opts: ReadOptions,
  ctx: TaskContext = {},
): Promise<ReadOutcome> {
  if (!doc.cat) throw new Error(`${doc.title}: no cat`);
  const log = new CollectingLog(opts.salvage === true);
  await doc.cat.run(format, range, out, { ...ctx, integrity: log });
  return { damage: log.damage, omissions: log.omissions };
}

/**
 * Runs a converter through `write`, the caller's atomic output (a temporary file renamed into
 * place only when the run returns), so damage that stops a strict conversion leaves no file.
 */
export async function convertDocument(
  converter: Converter,
  options: OptionValues,
  opts: ReadOptions,
  write: (run: (target: OutputTarget) => Promise<ConvertReport>) => Promise<ConvertReport>,
  ctx: TaskContext = {},
): Promise<ConvertOutcome> {
  const log = new CollectingLog(opts.salvage === true);
  const report = await write((target) => converter.run(target, { ...ctx, integrity: log }, options));
  return { report, damage: log.damage, omissions: log.omissions };
}
