/**
 * What Convert and Save Intact Part… decide from an engine's answer, kept free of `vscode` so the
 * rules are unit-tested: whether a failed conversion met damage (and so can be salvaged), which
 * converters salvage by nature, and how a left-out list is cut for a notification.
 */
import type { ErrorDTO } from '../protocol/rpc.js';

/**
 * Converters whose whole job is to keep the intact part (BEN/XBEN/BENDL Recover): picking one is
 * a Save Intact Part run, whichever command offered it, so what it leaves out is always listed.
 */
export const SALVAGING_CONVERTERS: ReadonlySet<string> = new Set(['recover']);

/**
 * A FormatError met after the file opened means damaged data (the CLI's exit 1, DESIGN.md), except
 * an unsupported feature or a safety cap: those stop salvage as much as a strict run. Codes that
 * are not a reader's (cancelled, internal, invalid-request, file-system errors) are not damage.
 */
const DAMAGE_CODES: ReadonlySet<string> = new Set(['truncated', 'bad-magic', 'unsupported-version', 'out-of-range', 'corrupt', 'checksum']);

export function isDamage(error: ErrorDTO): boolean {
  return DAMAGE_CODES.has(error.code);
}

/** The first `max` lines for a one-line notification, and how many more the output channel holds. */
export function firstLines(lines: readonly string[], max: number): { shown: string; more: number } {
  return { shown: lines.slice(0, max).join('; '), more: Math.max(0, lines.length - max) };
}

/** Salvaging converters first in the Save Intact Part pick list, the others in the file's order. */
export function salvageOrder<T extends { readonly id: string }>(converters: readonly T[]): T[] {
  return [...converters.filter((c) => SALVAGING_CONVERTERS.has(c.id)), ...converters.filter((c) => !SALVAGING_CONVERTERS.has(c.id))];
}
