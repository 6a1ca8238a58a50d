/**
 * Values as text: JSON per the CLI contract (../shared/DESIGN.md, "idv and bindu, jsonl"), and
 * the plain text of a CSV/TSV cell or a table cell. Dates and times follow ML.NET's text saver
 * ("o" round-trip format, TimeSpan "c" format), so a TSV reads like ML.NET's own.
 */
import type { ColumnType, ItemType } from './columnType.js';
import type { DateTimeOffsetValue, Value, VectorValue } from './values.js';

const TICKS_PER_SECOND = 10_000_000n;
const TICKS_PER_DAY = 864_000_000_000n;
/** DateTime.MaxValue.Ticks. */
export const MAX_DATETIME_TICKS = 3_155_378_975_999_999_999n;

function isDz(v: Value): v is DateTimeOffsetValue {
  return typeof v === 'object' && v !== null && 'offsetMinutes' in v;
}

/** NaN and the infinities spelled as .NET and the CLI contract spell them. */
function nonFinite(v: number): string {
  return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
}

const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);

/** Whether `p` significant digits read back as the float32 `v`. */
const readsBack = (v: number, p: number) => Math.fround(Number(v.toPrecision(p))) === v;

/**
 * The shortest decimal that reads back as the same float32 (what .NET's "R" prints for Single):
 * the fewest significant digits p, 1 to 9 (9 always do).
 *
 * A binary search over p, where a scan from 1 took up to 9 `toPrecision` calls a value (a third
 * of an IDV page's decode). It finds the same p because p + 1 digits round at least as close to
 * `v` as p digits, and the decimals that read back as `v` lie in an interval symmetric about it:
 * half a float32 step either side. Not at a power of two, whose step below is half the one
 * above: those few values keep the scan.
 */
export function float32Text(v: number): string {
  if (!Number.isFinite(v)) return nonFinite(v);
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  f32[0] = v;
  let p = 1;
  if ((f32Bits[0]! & 0x7f_ffff) === 0) while (!readsBack(v, p)) p++;
  else
    for (let hi = 9; p < hi; ) {
      const mid = (p + hi) >> 1;
      if (readsBack(v, mid)) hi = mid;
      else p = mid + 1;
    }
  return String(Number(v.toPrecision(p)));
}

/** CSV/TSV number text; -0 keeps its sign for Double as for Single (String(-0) is "0"). */
function numberText(v: number, item: ItemType): string {
  if (item.kind === 'scalar' && item.scalar === 'f32') return float32Text(v);
  if (Object.is(v, -0)) return '-0';
  return Number.isFinite(v) ? String(v) : nonFinite(v);
}

// ---- dates (proleptic Gregorian, as .NET) ----

function civilFromDays(days: number): [number, number, number] {
  // Days since 0001-01-01 → year, month, day (Howard Hinnant's algorithm, shifted to 0001-03-01 eras).
  const z = days + 306; // 0000-03-01 is 306 days before 0001-01-01
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return [y, m, d];
}

export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const mp = m > 2 ? m - 3 : m + 9;
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 306;
}

const pad = (n: number | bigint, w: number) => String(n).padStart(w, '0');

/** DateTime ticks as `yyyy-MM-ddTHH:mm:ss.fffffff` (.NET "o", kind unspecified). */
export function dateTimeText(ticks: bigint): string {
  if (ticks < 0n || ticks > MAX_DATETIME_TICKS) return `ticks ${ticks} (not a DateTime)`;
  const days = ticks / TICKS_PER_DAY;
  const rest = ticks % TICKS_PER_DAY;
  const [y, m, d] = civilFromDays(Number(days));
  const secs = rest / TICKS_PER_SECOND;
  const frac = rest % TICKS_PER_SECOND;
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}T${pad(secs / 3600n, 2)}:${pad((secs / 60n) % 60n, 2)}:${pad(secs % 60n, 2)}.${pad(frac, 7)}`;
}

export function dateTimeOffsetText(v: DateTimeOffsetValue): string {
  const sign = v.offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(v.offsetMinutes);
  return `${dateTimeText(v.ticks)}${sign}${pad(Math.floor(abs / 60), 2)}:${pad(abs % 60, 2)}`;
}

/** TimeSpan ticks in .NET's constant ("c") format: `[-][d.]hh:mm:ss[.fffffff]`. */
export function timeSpanText(ticks: bigint): string {
  const neg = ticks < 0n;
  const t = neg ? -ticks : ticks;
  const days = t / TICKS_PER_DAY;
  const secs = (t % TICKS_PER_DAY) / TICKS_PER_SECOND;
  const frac = t % TICKS_PER_SECOND;
  return `${neg ? '-' : ''}${days > 0n ? `${days}.` : ''}${pad(secs / 3600n, 2)}:${pad((secs / 60n) % 60n, 2)}:${pad(secs % 60n, 2)}${frac > 0n ? `.${pad(frac, 7)}` : ''}`;
}

// ---- JSON (jsonl) ----

function jsonNumber(v: number): string {
  return Number.isFinite(v) ? String(v) : `"${nonFinite(v)}"`;
}

/** One value as JSON text, per the jsonl conventions of the CLI contract. */
export function jsonOf(v: Value, t: ColumnType): string {
  if (v === null) return 'null';
  if (t.kind === 'vector') {
    const vec = v as VectorValue;
    const values = vec.values.map((x) => jsonOf(x, t.item)).join(',');
    return vec.indices ? `{"length":${vec.length},"indices":[${vec.indices.join(',')}],"values":[${values}]}` : `{"length":${vec.length},"values":[${values}]}`;
  }
  if (t.kind === 'scalar' && (t.scalar === 'ts' || t.scalar === 'dt')) return `{"ticks":"${v as bigint}"}`;
  if (isDz(v)) return `{"ticks":"${v.ticks}","offsetMinutes":${v.offsetMinutes}}`;
  switch (typeof v) {
    case 'number':
      return jsonNumber(v);
    case 'bigint':
      return `"${v}"`;
    case 'boolean':
      return v ? 'true' : 'false';
    case 'string':
      return JSON.stringify(v);
    default:
      return 'null';
  }
}

// ---- plain text (CSV/TSV cells, table cells) ----

/** A scalar as the text of a CSV/TSV cell; null is the empty cell. */
export function itemText(v: Value, t: ItemType): string {
  if (v === null) return '';
  if (t.kind === 'scalar') {
    if (t.scalar === 'dt') return dateTimeText(v as bigint);
    if (t.scalar === 'ts') return timeSpanText(v as bigint);
    if (t.scalar === 'dz') return dateTimeOffsetText(v as DateTimeOffsetValue);
  }
  switch (typeof v) {
    case 'number':
      return numberText(v, t);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'string':
      return v;
    case 'bigint':
      return String(v);
    default:
      return '';
  }
}

/** A short preview of a vector for a table cell: `[9] 1, 2, 3 …` or `[9374, 2 stored] 5: 0.3, 17: 1`. */
export function vectorPreview(v: VectorValue, item: ItemType, max = 8): string {
  const shown = v.values.slice(0, max).map((x, k) => (v.indices ? `${v.indices[k]}: ${itemText(x, item)}` : itemText(x, item) || '""'));
  const more = v.values.length > max ? ' …' : '';
  return `[${v.length}${v.indices ? `, ${v.values.length} stored` : ''}] ${shown.join(', ')}${more}`;
}
