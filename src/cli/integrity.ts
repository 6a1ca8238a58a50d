import { describeDamage } from '../core/integrity.js';
import { rethrowUnlessFormatError } from '../core/errors.js';
import type { ReadOutcome } from '../core/ops/read.js';
import { EXIT_FAILED, EXIT_OK, EXIT_UNREADABLE } from './files.js';

/**
 * Exit codes and stderr lines for what `cat` and `convert` met (DESIGN.md, CLI contract):
 * 0 all output intact; 1 damage stopped the output, or salvage left units out, or (--strict)
 * parts were left out by design; 2 the file could not be read at all.
 */
export function reportOutcome(file: string, outcome: ReadOutcome, strict: boolean): number {
  for (const what of outcome.omissions) console.error(`binlens: ${file}: left out: ${what}`);
  if (outcome.damage.length > 0) {
    console.error(`binlens: ${file}: salvaged; left out ${outcome.damage.length} damaged ${outcome.damage.length === 1 ? 'unit' : 'units'}:`);
    for (const d of outcome.damage) console.error(`  ${describeDamage(d)}`);
    return EXIT_FAILED;
  }
  return strict && outcome.omissions.length > 0 ? EXIT_FAILED : EXIT_OK;
}

/**
 * A FormatError met after the file opened: the data is damaged there (exit 1), unless the
 * reader cannot go on for reasons that are not damage (an unsupported feature, a safety cap, a
 * conversion's graph or node map that does not fit the data).
 */
export function reportReadError(file: string, format: string, e: unknown, wrote: 'cat' | 'convert'): number {
  rethrowUnlessFormatError(e, 'cancelled');
  // Not damage: a missing feature, a safety cap, or a file given beside the input that does not fit it.
  const damaged = e.code !== 'unsupported' && e.code !== 'limit' && e.code !== 'bad-input';
  console.error(`binlens: ${file} (${format}): ${damaged ? 'damaged: ' : ''}${e.message}`);
  if (damaged)
    console.error(`binlens: ${wrote === 'cat' ? 'nothing after the damage was written' : 'no output was written'}; --salvage writes every intact part`);
  return damaged ? EXIT_FAILED : EXIT_UNREADABLE;
}
