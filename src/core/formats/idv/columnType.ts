/**
 * Logical column types (spec §7.1): what a codec definition means once its load name and
 * parameters are understood. Everything that decodes, shows, summarises or writes values works
 * from these, never from load names.
 */
import { lookup } from '../../lookup.js';
import type { CodecDef } from './model.js';

/** Scalar kinds, named for ML.NET's DataKind letters where they have one. */
export type ScalarKind =
  | 'i8'
  | 'u8'
  | 'i16'
  | 'u16'
  | 'i32'
  | 'u32'
  | 'i64'
  | 'u64'
  | 'f32'
  | 'f64'
  /** `Boolean`: 1 bit per value. */
  | 'bool'
  /** `DvBool` (1.1.1.5): 2 bits per value, `10` = NA. */
  | 'bool2'
  | 'text'
  /** TimeSpan: i64 ticks of 100 ns. */
  | 'ts'
  /** DateTime: i64 ticks since 0001-01-01. */
  | 'dt'
  /** DateTimeOffset: i16 minutes then i64 ticks of the local clock. */
  | 'dz'
  /** Row id: u128 as u64 low, u64 high. */
  | 'rowid';

export type KeyRaw = 'u8' | 'u16' | 'u32' | 'u64';

export interface ScalarType {
  readonly kind: 'scalar';
  readonly scalar: ScalarKind;
}

export interface KeyType {
  readonly kind: 'key';
  readonly raw: KeyRaw;
  /** Number of key values; raw values 1..count are keys, 0 is missing. */
  readonly count: bigint;
  /** Legacy `Key` codec only: the key that raw value 1 stands for (ML.NET today requires 0). */
  readonly min: bigint;
  readonly legacy: boolean;
}

export type ItemType = ScalarType | KeyType;

export interface VectorType {
  readonly kind: 'vector';
  readonly item: ItemType;
  readonly dims: readonly number[];
  /** Product of the dims; 0 = variable length. */
  readonly size: number;
}

export type ColumnType = ItemType | VectorType;

/** A codec this reader (and ML.NET) cannot decode: the column or metadata entry is "dead". */
export interface DeadType {
  readonly kind: 'dead';
  readonly reason: string;
  /**
   * ML.NET refuses the whole file rather than skipping the column: a known codec whose
   * parameters are invalid, or a vector of an unknown item codec (spec §7, §12.9).
   */
  readonly rejected: boolean;
}

export const SCALAR_LOAD_NAMES: Readonly<Record<string, ScalarKind>> = {
  SByte: 'i8',
  Byte: 'u8',
  Int16: 'i16',
  UInt16: 'u16',
  Int32: 'i32',
  UInt32: 'u32',
  Int64: 'i64',
  UInt64: 'u64',
  Single: 'f32',
  Double: 'f64',
  TimeSpan: 'ts',
  DvTimeSpan: 'ts',
  DateTime: 'dt',
  DvDateTime: 'dt',
  DateTimeOffset: 'dz',
  DvDateTimeZone: 'dz',
  TextSpan: 'text',
  Boolean: 'bool',
  DvBool: 'bool2',
  // The row id's load name followed the .NET type's name as it changed (spec §7.1).
  DataViewRowId: 'rowid',
  UInt128: 'rowid',
  RowId: 'rowid',
};

/** The load name today's ML.NET writes for each scalar kind (bool2 is read-only: it writes `Boolean`). */
export const WRITE_LOAD_NAMES: Readonly<Record<ScalarKind, string>> = {
  i8: 'SByte',
  u8: 'Byte',
  i16: 'Int16',
  u16: 'UInt16',
  i32: 'Int32',
  u32: 'UInt32',
  i64: 'Int64',
  u64: 'UInt64',
  f32: 'Single',
  f64: 'Double',
  bool: 'Boolean',
  bool2: 'Boolean',
  text: 'TextSpan',
  ts: 'TimeSpan',
  dt: 'DateTime',
  dz: 'DateTimeOffset',
  rowid: 'DataViewRowId',
};

/** Bytes per value of fixed-width kinds. */
export const SCALAR_BYTES: Readonly<Partial<Record<ScalarKind, number>>> = {
  i8: 1,
  u8: 1,
  i16: 2,
  u16: 2,
  i32: 4,
  u32: 4,
  i64: 8,
  u64: 8,
  f32: 4,
  f64: 8,
  ts: 8,
  dt: 8,
  rowid: 16,
};

const KEY_MAX: Readonly<Record<KeyRaw, bigint>> = { u8: 0xffn, u16: 0xffffn, u32: 0xffffffffn, u64: 0xffffffffffffffffn };

/**
 * What a codec definition means, or why it is dead. Parameter problems the TOC reader found
 * (`def.problem`) make the column dead too, as ML.NET refuses them.
 */
export function resolveType(def: CodecDef): ColumnType | DeadType {
  const dead = (reason: string, rejected = true): DeadType => ({ kind: 'dead', reason, rejected });
  if (def.problem) return dead(def.problem);
  const scalar = lookup(SCALAR_LOAD_NAMES, def.loadName);
  if (scalar) return { kind: 'scalar', scalar };
  if (def.loadName === 'Key2' || def.loadName === 'Key') {
    const inner = def.inner ? resolveType(def.inner) : dead('no key type');
    if (inner.kind === 'dead') return inner;
    if (inner.kind !== 'scalar' || !(inner.scalar in KEY_MAX)) return dead(`key type must be Byte, UInt16, UInt32 or UInt64, not ${def.inner?.loadName}`);
    const raw = inner.scalar as KeyRaw;
    const max = KEY_MAX[raw];
    if (def.loadName === 'Key2') {
      const count = def.keyCount ?? 0n;
      if (count <= 0n || count > max) return dead(`key count ${count} is outside 1 .. ${max}`);
      return { kind: 'key', raw, count, min: 0n, legacy: false };
    }
    const legacy = def.legacyKey!;
    if (legacy.contiguous > 1) return dead(`contiguous flag ${legacy.contiguous} is not a bool`);
    if (legacy.count < 0 || BigInt(legacy.count) > max) return dead(`key count ${legacy.count} is outside 0 .. ${max}`);
    // Count 0 meant "unknown cardinality": today's ML.NET reads it as the raw type's maximum.
    return { kind: 'key', raw, count: legacy.count === 0 ? max : BigInt(legacy.count), min: legacy.min, legacy: true };
  }
  if (def.loadName === 'VBuffer') {
    const inner = def.inner ? resolveType(def.inner) : dead('no item type');
    // ML.NET gives up on the whole file when a vector's item codec is unknown (spec §7, "quirk").
    if (inner.kind === 'dead') return { ...inner, rejected: true };
    if (inner.kind === 'vector') return dead('vectors of vectors are not allowed');
    const dims = def.dims ?? [];
    const size = dims.length === 0 ? 0 : dims.reduce((a, b) => a * b, 1);
    if (!Number.isSafeInteger(size) || size > 0x7fffffff) return dead(`vector size ${dims.join('×')} is larger than 2^31 − 1`);
    return { kind: 'vector', item: inner, dims, size };
  }
  return dead(`unknown codec ${JSON.stringify(def.loadName)}`, false);
}

/** Notes about a readable type that ML.NET itself would refuse or treat specially. */
export function typeNotes(def: CodecDef, t: ColumnType): string[] {
  const notes: string[] = [];
  const item = t.kind === 'vector' ? t.item : t;
  const legacy = def.loadName === 'Key' ? def.legacyKey : def.inner?.loadName === 'Key' ? def.inner.legacyKey : undefined;
  if (item.kind === 'key' && item.legacy && legacy) {
    if (legacy.min !== 0n) notes.push(`legacy key with min ${legacy.min}: raw value v ≥ 1 is key ${legacy.min} + v − 1; today's ML.NET refuses this file`);
    if (legacy.contiguous !== 1) notes.push("legacy key marked non-contiguous: today's ML.NET refuses this file");
  }
  return notes;
}

export function itemOf(t: ColumnType): ItemType {
  return t.kind === 'vector' ? t.item : t;
}

export function isNumericItem(t: ItemType): boolean {
  return t.kind === 'scalar' && ['i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64', 'f32', 'f64'].includes(t.scalar);
}

/** ML.NET's name of a type: `Vector<Single, 9374>`, `Key<UInt32, 3>`, `Boolean`. */
export function typeText(t: ColumnType | DeadType, def?: CodecDef): string {
  switch (t.kind) {
    case 'dead':
      return def?.loadName ?? 'unknown';
    case 'scalar':
      return def && lookup(SCALAR_LOAD_NAMES, def.loadName) === t.scalar ? def.loadName : WRITE_LOAD_NAMES[t.scalar];
    case 'key': {
      const raw = WRITE_LOAD_NAMES[t.raw];
      return t.min === 0n ? `Key<${raw}, ${t.count}>` : `Key<${raw}, ${t.min}-${t.min + t.count - 1n}>`;
    }
    case 'vector': {
      const item = typeText(t.item, def?.inner);
      return t.size === 0 ? `Vector<${item}>` : `Vector<${item}, ${t.dims.join(', ')}>`;
    }
  }
}

/**
 * Vectors wider than this go into one JSON cell of CSV/TSV even when a column per slot is asked
 * for: real files have up to tens of thousands of slots; a damaged size of 2^26 would write a
 * header of 67 million cells.
 */
export const MAX_SLOT_COLUMNS = 1 << 16;
