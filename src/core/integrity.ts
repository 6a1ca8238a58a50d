/**
 * How read paths (cat, convert, tables, previews) treat data that a checksum or hash says is
 * damaged. The rule: no damaged byte leaves as if it were good. A read path stops at the first
 * damaged unit unless its caller asked to salvage; then the unit is left out (or written as null
 * where a row must stay whole), recorded here, and the intact rest goes on.
 *
 * Formats call `reportDamage` where they find a unit (chunk, frame, block, sample, key range)
 * whose check failed, before any of its bytes leave. They also say once what their checks cover
 * (`Coverage`), so that verify can say what an "OK" does not mean and the fuzzer knows where a
 * flipped byte must never pass silently.
 */
import { FormatError, type FormatErrorCode } from './errors.js';
import type { ByteRange, Cell, OptionSpec, Scalar, TaskContext } from './model.js';

/** A unit of a file that a read path left out, or would have handed out, although it is damaged. */
export interface Damage {
  /** The unit, in the format's words: "chunk 3", "frame 12 (column price)", "block 2". */
  readonly unit: string;
  /** What failed: "BLAKE3 hash differs from the footer's". */
  readonly detail: string;
  /** The unit's bytes in the file. */
  readonly range?: ByteRange;
  /** Rows, samples or keys the unit held (first, and how many when known). */
  readonly rows?: { readonly from: number; readonly count?: number };
  /** Where the failure was found, when it is not the start of `range`. */
  readonly offset?: number;
  /** The failed check's kind; 'checksum' when not given. */
  readonly code?: FormatErrorCode;
}

/** What a caller of a read path says about damage, and where the read path reports it. */
export interface IntegrityLog {
  /** True: leave damaged units out and go on. False: the first damaged unit stops the output. */
  readonly salvage: boolean;
  /** Called for each damaged unit left out (salvage only: otherwise reportDamage throws). */
  damaged(d: Damage): void;
  /** A part left out by design, not damage: a bindu column whose codec only describes itself. */
  omitted(what: string): void;
}

/** A damaged unit met by a read path that does not salvage. */
export class DamagedDataError extends FormatError {
  readonly damage: Damage;

  constructor(damage: Damage) {
    super(damage.code ?? 'checksum', `${damage.unit}: ${damage.detail}`, { offset: damage.offset ?? damage.range?.offset });
    this.damage = damage;
  }
}

/**
 * Reports a damaged unit before any of its data leaves. Throws `DamagedDataError` unless the
 * caller salvages; when it returns, the caller leaves the unit out (or null) and goes on.
 */
export function reportDamage(ctx: Pick<TaskContext, 'integrity'>, damage: Damage): void {
  if (!ctx.integrity?.salvage) throw new DamagedDataError(damage);
  ctx.integrity.damaged(damage);
}

/** A unit from a decoder's error: its location and message become the damage's. */
export function damageFrom(unit: string, e: FormatError, extra: Omit<Damage, 'unit' | 'detail' | 'offset' | 'code'> = {}): Damage {
  return { unit, detail: e.field === undefined ? e.detail : `${e.field}: ${e.detail}`, offset: e.offset, code: e.code, ...extra };
}

/** Notes a part left out by design; read paths without a log say nothing. */
export function reportOmitted(ctx: Pick<TaskContext, 'integrity'>, what: string): void {
  ctx.integrity?.omitted(what);
}

/** One part of a file and the check that covers it, or none. */
export interface CoveragePart {
  /** "chunk data", "frames", "footer". */
  readonly part: string;
  /** The check that covers it ("BLAKE3 chunk hashes in the footer"), or null when none does. */
  readonly check: string | null;
  /**
   * Its bytes, when the part is a set of byte ranges. A byte inside a covered part's range never
   * changes what a strict read path outputs without the read path failing.
   */
  readonly ranges?: readonly ByteRange[];
}

/** What each of a file's checks covers, as the format knows it after opening. */
export interface Coverage {
  readonly parts: readonly CoveragePart[];
}

/** The byte ranges that some check covers, merged and sorted. */
export function coveredRanges(c: Coverage): ByteRange[] {
  const all = c.parts.filter((p) => p.check !== null).flatMap((p) => p.ranges ?? []);
  const sorted = [...all].filter((r) => r.length > 0).sort((a, b) => a.offset - b.offset);
  const out: { offset: number; length: number }[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.offset <= last.offset + last.length) last.length = Math.max(last.length, r.offset + r.length - last.offset);
    else out.push({ offset: r.offset, length: r.length });
  }
  return out;
}

/** A log that keeps what it is told, for the CLI and the engine to report at the end. */
export class CollectingLog implements IntegrityLog {
  readonly damage: Damage[] = [];
  readonly omissions: string[] = [];

  constructor(readonly salvage: boolean) {}

  damaged(d: Damage): void {
    this.damage.push(d);
  }

  omitted(what: string): void {
    if (!this.omissions.includes(what)) this.omissions.push(what);
  }
}

/** One line for a damaged unit: where, what, and which rows it held. */
export function describeDamage(d: Damage): string {
  const at = d.range ? ` bytes ${d.range.offset}–${d.range.offset + d.range.length}` : d.offset !== undefined ? ` at offset ${d.offset}` : '';
  const rows = d.rows ? `, rows ${d.rows.from}${d.rows.count === undefined ? '…' : d.rows.count > 1 ? `–${d.rows.from + d.rows.count - 1}` : ''}` : '';
  return `${d.unit}${at}${rows}: ${d.detail}`;
}

/**
 * The table parameter that shows damaged values anyway, labelled as such. Tables whose units can
 * be damaged offer it through `params`/`withParams`; off, a damaged cell shows no value.
 */
export const SHOW_DAMAGED: OptionSpec = {
  key: 'showDamaged',
  label: 'Show damaged values anyway',
  type: 'boolean',
  default: false,
  description: 'Values whose checksum failed are hidden; this shows what they decode to, marked as damaged.',
};

/** A cell whose unit failed its check: no value, or (shown anyway) the value decoded regardless, labelled. */
export function damagedCell(detail: string, shownAnyway?: Scalar): Cell {
  if (shownAnyway === undefined) return { text: 'damaged', title: detail, mark: 'error' };
  const text = shownAnyway === null ? 'null' : String(shownAnyway);
  return { text: `damaged: ${text}`, title: `decoded anyway, although ${detail}`, mark: 'error' };
}
