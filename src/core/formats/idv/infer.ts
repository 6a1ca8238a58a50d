/**
 * Column types for text data: inferred from the values (JSON values of JSON Lines, cell texts
 * of CSV/TSV) or given as ML.NET type names, and the conversion of each value to that type.
 * Inference keeps what the exporters print readable back unchanged: a JSONL written by
 * `binlens` imports to columns that print the same JSONL again.
 */
import { lookup } from '../../lookup.js';
import { FormatError } from '../../errors.js';
import type { ColumnType, ItemType, KeyRaw, ScalarKind } from './columnType.js';
import { MAX_SLOT_COLUMNS, SCALAR_LOAD_NAMES } from './columnType.js';
import { MAX_DATETIME_TICKS, daysFromCivil, float32Text } from './format.js';
import type { DateTimeOffsetValue, Value, VectorValue } from './values.js';
import { checkJsonDepth } from '../../jsonDepth.js';

const BOOL = 1,
  I32 = 2,
  U32 = 4,
  I64 = 8,
  U64 = 16,
  F32 = 32,
  F64 = 64,
  DT = 128,
  TS = 256,
  DZ = 512,
  TEXT = 1024,
  VEC = 2048;
const ALL = 4095;
const INTS = I32 | U32 | I64 | U64;
const FLOATS = F32 | F64;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;
const U64_MAX = (1n << 64n) - 1n;
/** "-0" is not an integer's text: it is the float -0 (a Single or Double column keeps its sign). */
const CANONICAL_INT = /^(0|-?[1-9]\d*)$/;
const FLOAT_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const SPECIAL_FLOATS: Readonly<Record<string, number>> = { NaN: Number.NaN, Infinity: Infinity, '-Infinity': -Infinity };
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,7}))?(?:([+-])(\d{2}):(\d{2}))?$/;
const TIME_SPAN = /^(-)?(?:(\d+)\.)?(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,7}))?$/;
/** Distinct vector lengths tracked before a column is called variable-length. */
const MAX_LENGTHS = 2;

function intBits(v: bigint, jsonNumber: boolean): number {
  let b = 0;
  if (v >= -2147483648n && v <= 2147483647n) b |= I32;
  if (v >= 0n && v <= 4294967295n) b |= U32;
  // JSON numbers never become 64-bit columns: those print as strings in JSONL.
  if (!jsonNumber && v >= I64_MIN && v <= I64_MAX) b |= I64;
  if (!jsonNumber && v >= 0n && v <= U64_MAX) b |= U64;
  return b;
}

function floatBits(x: number, exactFloat32: boolean): number {
  return F64 | (Number.isNaN(x) || exactFloat32 ? F32 : 0);
}

function isVectorObject(v: unknown): v is { length: number; values: unknown[]; indices?: number[] } {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return (
    Number.isSafeInteger(o.length) &&
    (o.length as number) >= 0 &&
    Array.isArray(o.values) &&
    (o.indices === undefined || (Array.isArray(o.indices) && o.indices.length === o.values.length && o.indices.every((i) => Number.isSafeInteger(i))))
  );
}

function ticksObject(v: unknown): bigint | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  return typeof o.ticks === 'string' && /^-?\d+$/.test(o.ticks) ? BigInt(o.ticks) : undefined;
}

function parseJsonCell(s: string): unknown {
  try {
    // A cell nested past MAX_JSON_DEPTH is not a value this reader makes: it stays text.
    checkJsonDepth(s, {});
    return JSON.parse(s) as unknown;
  } catch {
    return undefined;
  }
}

/** What one column's values allow, narrowed as values arrive. */
export class Inference {
  private bits = ALL;
  private seen = 0;
  private missing = 0;
  private items?: Inference;
  private readonly lengths = new Set<number>();
  private fixedLength = true;

  private narrow(b: number): void {
    this.seen++;
    this.bits &= b;
  }

  addMissing(n = 1): void {
    this.seen += n;
    this.missing += n;
  }

  addJson(v: unknown): void {
    if (v === null || v === undefined) return this.addMissing();
    switch (typeof v) {
      case 'boolean':
        return this.narrow(BOOL);
      case 'number':
        return this.narrow((Number.isInteger(v) && !Object.is(v, -0) ? intBits(BigInt(v), true) : 0) | floatBits(v, Math.fround(v) === v));
      case 'string': {
        if (lookup(SPECIAL_FLOATS, v) !== undefined) return this.narrow(FLOATS | TEXT);
        if (CANONICAL_INT.test(v) && v.length <= 21) return this.narrow((intBits(BigInt(v), false) & (I64 | U64)) | TEXT);
        return this.narrow(TEXT);
      }
      case 'object': {
        if (Array.isArray(v)) return this.addVector(v.length, v, false);
        if (isVectorObject(v)) return this.addVector(v.length, v.values, false);
        const ticks = ticksObject(v);
        const keys = Object.keys(v);
        if (ticks !== undefined && keys.length === 1) return this.narrow(TS | (ticks >= 0n && ticks <= MAX_DATETIME_TICKS ? DT : 0));
        if (ticks !== undefined && keys.length === 2 && Number.isInteger((v as Record<string, unknown>).offsetMinutes)) return this.narrow(DZ);
        return this.narrow(TEXT);
      }
      default:
        return this.narrow(TEXT);
    }
  }

  addText(s: string): void {
    if (s === '') return this.addMissing();
    const lower = s.toLowerCase();
    if (lower === 'true' || lower === 'false') return this.narrow(BOOL | TEXT);
    if (CANONICAL_INT.test(s)) {
      if (s.length > 40) return this.narrow(TEXT);
      const x = Number(s);
      // Floats only where they hold the integer exactly, so the text reads back the same.
      return this.narrow(intBits(BigInt(s), false) | (Number.isSafeInteger(x) ? floatBits(x, Math.fround(x) === x) : 0) | TEXT);
    }
    const special = lookup(SPECIAL_FLOATS, s);
    if (special !== undefined || FLOAT_TEXT.test(s)) {
      const x = special ?? Number(s);
      return this.narrow(floatBits(x, Number(float32Text(Math.fround(x))) === x) | TEXT);
    }
    const dt = DATE_TIME.exec(s);
    if (dt) return this.narrow((dt[8] ? DZ : DT) | TEXT);
    if (TIME_SPAN.test(s)) return this.narrow(TS | TEXT);
    if (s.startsWith('{') || s.startsWith('[')) {
      const v = parseJsonCell(s);
      if (Array.isArray(v)) return this.addVector(v.length, v, true);
      if (isVectorObject(v)) return this.addVector(v.length, v.values, true);
    }
    return this.narrow(TEXT);
  }

  /** A vector value; its items narrow the item inference (CSV cells hold JSON vectors too). */
  private addVector(length: number, items: readonly unknown[], fromText: boolean): void {
    this.narrow(VEC | (fromText ? TEXT : 0));
    this.items ??= new Inference();
    for (const x of items) this.items.addJson(x);
    if (this.lengths.size <= MAX_LENGTHS) this.lengths.add(length);
    if (this.lengths.size > 1) this.fixedLength = false;
    // CSV/TSV write a fixed-size vector a column per slot: a vector in one cell is variable-length,
    // even when every row has the same length (else CSV → IDV → CSV turns its cell into slot columns).
    if (fromText && length <= MAX_SLOT_COLUMNS) this.fixedLength = false;
  }

  /** One slot of a vector spread over CSV columns (`name[slot]`). */
  addSlotText(s: string): void {
    this.items ??= new Inference();
    this.items.addText(s);
  }

  /** The type of a column of `slots` CSV columns. */
  slotsResult(slots: number): ColumnType {
    const item = (this.items ?? new Inference()).result();
    return { kind: 'vector', item: item.kind === 'vector' ? { kind: 'scalar', scalar: 'text' } : item, dims: [slots], size: slots };
  }

  result(): ColumnType {
    const b = this.bits;
    const scalar = (s: ScalarKind): ColumnType => ({ kind: 'scalar', scalar: s });
    if (this.seen === this.missing) return scalar('text');
    if (b & BOOL) return scalar('bool');
    // Missing integers become NaN in a float column where one fits; ints have no missing value.
    const ints = this.missing > 0 && b & FLOATS ? 0 : b & INTS;
    if (ints & I32) return scalar('i32');
    if (ints & U32) return scalar('u32');
    if (ints & I64) return scalar('i64');
    if (ints & U64) return scalar('u64');
    if (b & F32) return scalar('f32');
    if (b & F64) return scalar('f64');
    if (b & DT) return scalar('dt');
    if (b & TS) return scalar('ts');
    if (b & DZ) return scalar('dz');
    if (b & VEC) {
      const item = (this.items ?? new Inference()).result();
      const len = this.fixedLength && this.lengths.size === 1 ? [...this.lengths][0]! : 0;
      return { kind: 'vector', item: item.kind === 'vector' ? (scalar('text') as ItemType) : item, dims: [len], size: len };
    }
    return scalar('text');
  }
}

// ---- given types: ML.NET's type names as `binlens info` prints them ----

/** Parses `Single`, `Key<UInt32, 5>`, `Vector<Single, 9>`, `Vector<TextSpan>` (also `Text` for TextSpan). */
export function parseTypeText(text: string): ColumnType {
  const s = text.trim();
  const generic = /^(\w+)\s*<(.*)>$/.exec(s);
  const bad = () =>
    new FormatError('corrupt', `unknown type "${text}" (use ML.NET's names, e.g. Single, TextSpan, Key<UInt32, 5>, Vector<Single, 9>)`, { field: 'schema' });
  if (!generic) {
    const scalar = lookup(SCALAR_LOAD_NAMES, s === 'Text' ? 'TextSpan' : s);
    if (!scalar || scalar === 'bool2') throw bad();
    return { kind: 'scalar', scalar };
  }
  const [, name, inner] = generic;
  const parts = splitTop(inner!);
  if (name === 'Key') {
    const raw = lookup(SCALAR_LOAD_NAMES, parts[0] ?? '');
    const max: Record<string, bigint> = { u8: 0xffn, u16: 0xffffn, u32: 0xffffffffn, u64: U64_MAX };
    if (!raw || lookup(max, raw) === undefined || parts.length !== 2 || !/^\d+$/.test(parts[1]!)) throw bad();
    const count = BigInt(parts[1]!);
    if (count < 1n || count > max[raw]!) throw bad();
    return { kind: 'key', raw: raw as KeyRaw, count, min: 0n, legacy: false };
  }
  if (name === 'Vector') {
    const item = parseTypeText(parts[0] ?? '');
    if (item.kind === 'vector') throw bad();
    const dims = parts.slice(1).map((d) => (/^\d+$/.test(d) ? Number(d) : Number.NaN));
    if (dims.some((d) => !Number.isSafeInteger(d))) throw bad();
    const size = dims.length === 0 ? 0 : dims.reduce((a, b) => a * b, 1);
    return { kind: 'vector', item, dims: dims.length ? dims : [0], size };
  }
  throw bad();
}

function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '<') depth++;
    if (ch === '>') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** `name: Type; name: Type` → types by column name. */
export function parseSchema(text: string): Map<string, ColumnType> {
  const out = new Map<string, ColumnType>();
  for (const part of text.split(/[;\n]/)) {
    if (!part.trim()) continue;
    const colon = part.lastIndexOf(':', part.indexOf('<') < 0 ? part.length : part.indexOf('<'));
    if (colon <= 0) throw new FormatError('corrupt', `"${part.trim()}" is not name:Type`, { field: 'schema' });
    out.set(part.slice(0, colon).trim(), parseTypeText(part.slice(colon + 1)));
  }
  return out;
}

// ---- conversion of one value to its column's type ----

export interface Where {
  readonly line: number;
  readonly column: string;
}

function mismatch(v: unknown, t: string, where: Where): FormatError {
  return new FormatError('corrupt', `${JSON.stringify(v)} is not a ${t}`, { field: `line ${where.line}, column ${where.column}` });
}

const INT_RANGES: Readonly<Partial<Record<ScalarKind, readonly [bigint, bigint]>>> = {
  i8: [-128n, 127n],
  u8: [0n, 255n],
  i16: [-32768n, 32767n],
  u16: [0n, 65535n],
  i32: [-2147483648n, 2147483647n],
  u32: [0n, 4294967295n],
  i64: [I64_MIN, I64_MAX],
  u64: [0n, U64_MAX],
};

function integer(v: unknown, kind: ScalarKind, where: Where): number | bigint {
  let big: bigint | undefined;
  if (typeof v === 'number' && Number.isInteger(v)) big = BigInt(v);
  else if (typeof v === 'string' && /^[+-]?\d+$/.test(v.trim())) big = BigInt(v.trim());
  else if (typeof v === 'bigint') big = v;
  const [lo, hi] = INT_RANGES[kind]!;
  if (big === undefined || big < lo || big > hi) throw mismatch(v, kind, where);
  return kind === 'i64' || kind === 'u64' ? big : Number(big);
}

function float(v: unknown, where: Where): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const s = v.trim();
    const special = lookup(SPECIAL_FLOATS, s);
    if (special !== undefined) return special;
    if (FLOAT_TEXT.test(s)) return Number(s);
  }
  throw mismatch(v, 'number', where);
}

function ticksOfText(s: string, where: Where): { ticks: bigint; offset?: number } {
  const m = DATE_TIME.exec(s.trim());
  if (!m) throw mismatch(s, 'date and time (yyyy-MM-ddTHH:mm:ss.fffffff)', where);
  const [, y, mo, d, h, mi, se, frac, sign, oh, om] = m;
  const days = BigInt(daysFromCivil(Number(y), Number(mo), Number(d)));
  const secs = BigInt(Number(h) * 3600 + Number(mi) * 60 + Number(se));
  const ticks = days * 864_000_000_000n + secs * 10_000_000n + BigInt((frac ?? '').padEnd(7, '0') || '0');
  return { ticks, offset: sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : undefined };
}

function timeSpanTicks(s: string, where: Where): bigint {
  const m = TIME_SPAN.exec(s.trim());
  if (!m) throw mismatch(s, 'TimeSpan ([-][d.]hh:mm:ss[.fffffff])', where);
  const [, neg, d, h, mi, se, frac] = m;
  const t =
    BigInt(d ?? 0) * 864_000_000_000n + BigInt(Number(h) * 3600 + Number(mi) * 60 + Number(se)) * 10_000_000n + BigInt((frac ?? '').padEnd(7, '0') || '0');
  return neg ? -t : t;
}

function item(v: unknown, t: ItemType, where: Where, fromText: boolean): Value {
  if (v === null || v === undefined || (fromText && v === '')) return null;
  const kind = t.kind === 'key' ? t.raw : t.scalar;
  switch (kind) {
    case 'bool':
    case 'bool2':
      if (typeof v === 'boolean') return v;
      if (typeof v === 'string' && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === 'true';
      if (v === 0 || v === 1 || v === '0' || v === '1') return Number(v) === 1;
      throw mismatch(v, 'boolean', where);
    case 'f32':
    case 'f64':
      return float(v, where);
    case 'text':
      return typeof v === 'string' ? v : JSON.stringify(v);
    case 'ts':
    case 'dt': {
      const ticks = ticksObject(v) ?? (typeof v === 'string' ? (kind === 'ts' ? timeSpanTicks(v, where) : ticksOfText(v, where).ticks) : undefined);
      if (ticks === undefined) throw mismatch(v, kind === 'ts' ? 'TimeSpan' : 'DateTime', where);
      return ticks;
    }
    case 'dz': {
      if (typeof v === 'string') {
        const { ticks, offset } = ticksOfText(v, where);
        return { ticks, offsetMinutes: offset ?? 0 } satisfies DateTimeOffsetValue;
      }
      const ticks = ticksObject(v);
      const offset = (v as Record<string, unknown>).offsetMinutes;
      if (ticks === undefined || !Number.isInteger(offset)) throw mismatch(v, 'DateTimeOffset', where);
      return { ticks, offsetMinutes: offset as number };
    }
    case 'rowid': {
      const s = typeof v === 'number' ? String(v) : String(v).trim();
      if (!/^\d+$/.test(s) || BigInt(s) >= 1n << 128n) throw mismatch(v, 'row id', where);
      return BigInt(s);
    }
    default: {
      const x = integer(v, kind, where);
      if (t.kind === 'key' && BigInt(x) > t.count) throw mismatch(v, `key of ${t.count} values`, where);
      return x;
    }
  }
}

/** Converts one value (a JSON value, or a CSV/TSV cell's text) to a column type. */
export function convertValue(v: unknown, t: ColumnType, where: Where, fromText: boolean): Value {
  if (t.kind !== 'vector') return item(v, t, where, fromText);
  if (v === null || v === undefined || (fromText && v === '')) return null;
  const parsed = fromText && typeof v === 'string' ? parseJsonCell(v) : v;
  const raw = Array.isArray(parsed) ? { length: parsed.length, values: parsed } : parsed;
  if (!isVectorObject(raw)) throw mismatch(v, 'vector ({"length":n,"values":[…]})', where);
  if (t.size > 0 && raw.length !== t.size) throw mismatch(v, `vector of ${t.size} slots`, where);
  const values = raw.values.map((x) => item(x, t.item, where, false));
  if (!raw.indices) return { length: raw.length, values } satisfies VectorValue;
  let prev = -1;
  for (const i of raw.indices) {
    if (i <= prev || i >= raw.length) throw mismatch(v, 'sparse vector with increasing indices below its length', where);
    prev = i;
  }
  return { length: raw.length, indices: raw.indices, values };
}
