/**
 * One decoded value, under either reading of legacy NA sentinels (spec §9.3):
 * - `modern`: what today's ML.NET reports (NA bits read as false / "" / 0 ticks; integer
 *   minimums and NaN are ordinary values);
 * - `legacy`: what ML.NET ≤ 0.5 meant when it wrote a 1.1.1.5 file: every NA sentinel is a
 *   missing value (null).
 * Either way `na` says the stored bits are a legacy NA sentinel, so the viewer can flag it.
 */
import type { ColumnType, ItemType } from './columnType.js';
import type { BlockValues, ItemValues, VectorValues } from './payload.js';

export type Reading = 'modern' | 'legacy';

export interface DateTimeOffsetValue {
  /** Ticks of the local clock time. */
  readonly ticks: bigint;
  readonly offsetMinutes: number;
}

export interface VectorValue {
  readonly length: number;
  /** Present for sparse vectors: the slots that `values` hold. */
  readonly indices?: readonly number[];
  readonly values: readonly Value[];
}

/**
 * Scalars as JS values: 8–32-bit integers, floats and keys up to UInt32 as numbers; 64-bit
 * integers, UInt64 keys, row ids and TimeSpan/DateTime ticks as bigints.
 */
export type Value = null | boolean | number | bigint | string | DateTimeOffsetValue | VectorValue;

/** How legacy NA sentinels are recognised in this file. */
export interface NaRules {
  /** 1.1.1.5 files (DvTypes era): integer minimums and NaN are NA too. */
  readonly dvTypes: boolean;
}

const LONG_MIN = -(1n << 63n);
const INT_MIN: Readonly<Record<string, number>> = { i8: -128, i16: -32768, i32: -2147483648 };

export interface ReadValue {
  readonly value: Value;
  /** The stored bits are a legacy NA sentinel. */
  readonly na: boolean;
}

const PLAIN = (value: Value): ReadValue => ({ value, na: false });

/** Value `i` of an item stream. */
export function itemValue(items: ItemValues, i: number, type: ItemType, reading: Reading, rules: NaRules): ReadValue {
  const legacy = reading === 'legacy';
  switch (items.kind) {
    case 'number': {
      const v = items.values[i]!;
      if (rules.dvTypes && type.kind === 'scalar') {
        const min = INT_MIN[type.scalar];
        if ((min !== undefined && v === min) || ((type.scalar === 'f32' || type.scalar === 'f64') && Number.isNaN(v)))
          return { value: legacy ? null : v, na: true };
      }
      return PLAIN(v);
    }
    case 'bigint': {
      const v = items.values[i]!;
      if (type.kind === 'scalar' && (type.scalar === 'ts' || type.scalar === 'dt') && v === LONG_MIN) return { value: legacy ? null : 0n, na: true };
      if (rules.dvTypes && type.kind === 'scalar' && type.scalar === 'i64' && v === LONG_MIN) return { value: legacy ? null : v, na: true };
      return PLAIN(v);
    }
    case 'bool': {
      const v = items.values[i]!;
      return v === 2 ? { value: legacy ? null : false, na: true } : PLAIN(v === 1);
    }
    case 'text': {
      const end = items.ends[i]!;
      if (end < 0) return { value: legacy ? null : '', na: true };
      const start = i === 0 ? 0 : items.ends[i - 1]! & 0x7fffffff;
      return PLAIN(items.text.slice(start, end));
    }
    case 'dz': {
      const ticks = items.ticks[i]!;
      const offset = items.offsets[i]!;
      if (ticks === LONG_MIN) return { value: legacy ? null : { ticks: 0n, offsetMinutes: 0 }, na: true };
      // ML.NET reads the offset short.MinValue as 0 (spec §9.3).
      return PLAIN({ ticks, offsetMinutes: offset === -32768 ? 0 : offset });
    }
    case 'rowid':
      return PLAIN((items.halves[2 * i + 1]! << 64n) | items.halves[2 * i]!);
  }
}

/** The vector in row `i`; `na` when any stored item is a legacy NA. */
export function vectorValue(v: VectorValues, i: number, item: ItemType, reading: Reading, rules: NaRules): ReadValue {
  const count = v.counts[i]!;
  const length = v.lengths[i]!;
  const start = v.valueStarts[i]!;
  const stored = count < 0 ? length : count;
  const values: Value[] = new Array(stored);
  let na = false;
  for (let k = 0; k < stored; k++) {
    const r = itemValue(v.items, start + k, item, reading, rules);
    values[k] = r.value;
    na ||= r.na;
  }
  if (count < 0) return { value: { length, values }, na };
  const from = v.indexStarts[i]!;
  return { value: { length, indices: Array.from(v.indices.subarray(from, from + count)), values }, na };
}

/** Row `i` of a decoded block. */
export function blockValue(block: BlockValues, i: number, type: ColumnType, reading: Reading, rules: NaRules): ReadValue {
  if (block.kind === 'vector') return vectorValue(block, i, (type as { item: ItemType }).item, reading, rules);
  return itemValue(block, i, type as ItemType, reading, rules);
}

/** A vector's stored values as a dense array of `length` slots (unstored slots get the item's default). */
export function densify(v: VectorValue, fill: Value): Value[] {
  if (!v.indices) return [...v.values];
  const out: Value[] = new Array(v.length).fill(fill);
  v.indices.forEach((slot, k) => (out[slot] = v.values[k]!));
  return out;
}

/** The default value of an item type: what unstored slots of a sparse vector hold. */
export function defaultValue(t: ItemType): Value {
  if (t.kind === 'key') return t.raw === 'u64' ? 0n : 0;
  switch (t.scalar) {
    case 'i64':
    case 'u64':
    case 'ts':
    case 'dt':
    case 'rowid':
      return 0n;
    case 'bool':
    case 'bool2':
      return false;
    case 'text':
      return '';
    case 'dz':
      return { ticks: 0n, offsetMinutes: 0 };
    default:
      return 0;
  }
}
