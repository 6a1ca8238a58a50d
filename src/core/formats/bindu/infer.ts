import type { LeafType, SchemaField } from './model.js';
import type { Value } from './values.js';
import type { ColumnInput } from './writer.js';
import { MAX_DEPTH } from './schema.js';

/**
 * Schema inference for imports: the narrowest open-v1 type whose printed form gives back the
 * input exactly, so CSV → bindu → CSV and JSONL → bindu → JSONL are identical.
 * CSV cells are text: canonical integers become INT32 or INT64, canonical shortest-form
 * numbers FLOAT64, the rest STRING. JSONL keeps JSON's types: integers in 32 bits INT32,
 * other numbers FLOAT64 (the JSON number a double prints), integers past 2^53 INT64 (exact,
 * printed as decimal strings as the CLI contract says), strings that are canonical 64-bit
 * integers INT64 (they print as the same strings), other strings STRING.
 */
export type RawCell = string | number | bigint | boolean | null | object;

const INT_TEXT = /^(0|-?[1-9]\d*)$/;
const I32 = 2 ** 31;
const I64 = 1n << 63n;

function canonicalInt(s: string): bigint | undefined {
  if (!INT_TEXT.test(s)) return undefined;
  const v = BigInt(s);
  return v >= -I64 && v < I64 ? v : undefined;
}

function canonicalFloat(s: string): boolean {
  return s.trim() === s && s !== '' && String(Number(s)) === s;
}

export interface Inferred {
  readonly type: LeafType;
  readonly values: Value[];
  readonly note?: string;
}

function ints(values: readonly bigint[], cells: readonly unknown[]): Inferred {
  const small = values.every((v) => v >= -BigInt(I32) && v < BigInt(I32));
  return small
    ? { type: { code: 'INT', bits: 32, signed: true }, values: cells.map((c, i) => (c === null ? null : Number(values[i]!))) }
    : { type: { code: 'INT', bits: 64, signed: true }, values: cells.map((c, i) => (c === null ? null : values[i]!)) };
}

function withNulls<T>(cells: readonly (T | null)[], f: (c: T) => Value): Value[] {
  return cells.map((c) => (c === null ? null : f(c)));
}

export function inferCsvColumn(cells: readonly (string | null)[]): Inferred {
  const present = cells.filter((c): c is string => c !== null);
  if (present.length) {
    const asInts = present.map(canonicalInt);
    if (asInts.every((v) => v !== undefined)) {
      const all = cells.map((c) => (c === null ? 0n : canonicalInt(c)!));
      return ints(all, cells);
    }
    if (present.every(canonicalFloat)) return { type: { code: 'FLOAT', bits: 64 }, values: withNulls(cells, Number) };
  }
  return { type: { code: 'STRING' }, values: [...cells] };
}

export function inferJsonColumn(cells: readonly RawCell[]): Inferred {
  const present = cells.filter((c) => c !== null);
  const nums = present.every((c) => typeof c === 'number' || typeof c === 'bigint');
  if (present.length && nums) {
    if (present.every((c) => typeof c === 'number' && Number.isInteger(c) && c >= -I32 && c < I32))
      return { type: { code: 'INT', bits: 32, signed: true }, values: withNulls(cells, (c) => c as number) };
    const big = present.filter((c) => typeof c === 'bigint');
    if (big.length && present.every((c) => typeof c === 'bigint' || Number.isSafeInteger(c))) {
      const fits = present.every((c) => BigInt(c as number | bigint) >= -I64 && BigInt(c as number | bigint) < I64);
      if (fits)
        return {
          type: { code: 'INT', bits: 64, signed: true },
          values: withNulls(cells, (c) => BigInt(c as number | bigint)),
          note: 'integers beyond 2^53: stored exactly as INT64, printed as decimal strings',
        };
    }
    // Fractions beside long integers (1e16 is written 10000000000000000) are a FLOAT64 column when
    // every long integer is the shortest text of a double; text would turn every number into a string.
    if (big.every((b) => String(Number(b)) === b.toString())) return { type: { code: 'FLOAT', bits: 64 }, values: withNulls(cells, (c) => Number(c)) };
  }
  if (present.length && present.every((c) => typeof c === 'string' && canonicalInt(c) !== undefined)) {
    return { type: { code: 'INT', bits: 64, signed: true }, values: withNulls(cells, (c) => canonicalInt(c as string)!) };
  }
  const json = present.some((c) => typeof c !== 'string');
  return {
    type: { code: 'STRING' },
    // An integer too long for INT64 keeps its digits (as INT64 values print), not a quoted JSON string.
    values: withNulls(cells, (c) =>
      typeof c === 'string' ? c : typeof c === 'bigint' ? c.toString() : JSON.stringify(c, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
    ),
    note: json ? 'values that are not all strings or all numbers (booleans, objects, mixed): stored as their JSON text' : undefined,
  };
}

/**
 * The schema tree from dotted leaf names: `sensor.temp`, `sensor.seq` become a NESTED `sensor`
 * when each group's leaves are adjacent (column ids are depth-first order); otherwise the
 * names stay flat. So do names nesting deeper than MAX_DEPTH levels: such a schema would be
 * written but refused by every reader (and built by recursion as deep as the name).
 */
export function fieldsFromNames(columns: readonly ColumnInput[]): SchemaField[] {
  interface Group {
    name: string;
    leaf?: ColumnInput;
    children: Group[];
  }
  const root: Group = { name: '', children: [] };
  let last: string[] = [];
  for (const c of columns) {
    const parts = c.name.split('.');
    // A name nesting deeper than a reader accepts stays flat (no group may be NESTED past MAX_DEPTH).
    if (parts.some((p) => p === '') || parts.length - 1 > MAX_DEPTH) return flat(columns);
    let g = root;
    for (let i = 0; i < parts.length - 1; i++) {
      let child = g.children[g.children.length - 1];
      // A group may only grow while it is the most recent one at its depth.
      if (!child || child.name !== parts[i] || child.leaf || last[i] !== parts[i]) {
        if (g.children.some((x) => x.name === parts[i])) return flat(columns);
        child = { name: parts[i]!, children: [] };
        g.children.push(child);
      }
      g = child;
    }
    if (g.children.some((x) => x.name === parts[parts.length - 1])) return flat(columns);
    g.children.push({ name: parts[parts.length - 1]!, leaf: c, children: [] });
    last = parts;
  }
  const toField = (g: Group): SchemaField =>
    g.leaf
      ? { name: g.name, nullable: g.leaf.nullable, type: g.leaf.type }
      : { name: g.name, nullable: false, type: { code: 'NESTED', children: g.children.map(toField) } };
  return root.children.map(toField);
}

function flat(columns: readonly ColumnInput[]): SchemaField[] {
  return columns.map((c) => ({ name: c.name, nullable: c.nullable, type: c.type }));
}
