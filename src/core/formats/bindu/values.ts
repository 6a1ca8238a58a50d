import { hexString } from '../../describe.js';
import { FormatError } from '../../errors.js';
import type { LeafType } from './model.js';

/**
 * Decoded values and their canonical bytes (spec C.6): what stats, dictionaries, Bloom filters
 * and sorted indexes store. INT up to 32 bits and FLOAT are numbers; 64-bit INT and TS are
 * bigints; STRING and ENUM are strings; BYTES are byte arrays; a null is a missing value.
 */
export type Value = number | bigint | string | Uint8Array | null;

const utf8 = new TextEncoder();
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

export function isBig(type: LeafType): boolean {
  return type.code === 'TS' || (type.code === 'INT' && type.bits === 64);
}

/** Shared scratch for canonical bytes: a DataView and a BigInt per value were most of a chunk scan's garbage. */
const scratch = new DataView(new ArrayBuffer(8));
const scratchBytes = new Uint8Array(scratch.buffer);

function f64Bytes(x: number): Uint8Array {
  // −0 → +0 and every NaN → the one quiet NaN, so equal values have equal bytes.
  scratch.setFloat64(0, Number.isNaN(x) ? NaN : x === 0 ? 0 : x, true);
  const out = scratchBytes.slice();
  if (Number.isNaN(x)) out.set([0, 0, 0, 0, 0, 0, 0xf8, 0x7f]);
  return out;
}

/** Two's complement, 64 bits little-endian; a number (INT up to 32 bits) without a BigInt. */
function intBytes(v: number | bigint): Uint8Array {
  if (typeof v === 'number' && Number.isSafeInteger(v)) {
    scratch.setUint32(0, v >>> 0, true);
    scratch.setUint32(4, Math.floor(v / 2 ** 32) >>> 0, true);
  } else scratch.setBigUint64(0, BigInt.asUintN(64, typeof v === 'bigint' ? v : BigInt(v)), true);
  return scratchBytes.slice();
}

export function canonicalBytes(type: LeafType, v: Exclude<Value, null>): Uint8Array {
  switch (type.code) {
    case 'INT':
    case 'TS':
      return intBytes(v as number | bigint);
    case 'FLOAT':
      return f64Bytes(v as number);
    case 'STRING':
    case 'ENUM':
      return utf8.encode(v as string);
    case 'BYTES':
      return v as Uint8Array;
  }
}

export function valueFromCanonical(type: LeafType, bytes: Uint8Array, where: { offset?: number; field?: string } = {}): Exclude<Value, null> {
  switch (type.code) {
    case 'INT':
    case 'TS': {
      if (bytes.length !== 8) throw new FormatError('corrupt', `an ${type.code} value needs 8 canonical bytes, not ${bytes.length}`, where);
      const dv = new DataView(bytes.buffer, bytes.byteOffset, 8);
      if (type.code === 'TS' || type.bits === 64) return type.code === 'INT' && !type.signed ? dv.getBigUint64(0, true) : dv.getBigInt64(0, true);
      return Number(type.signed ? dv.getBigInt64(0, true) : dv.getBigUint64(0, true));
    }
    case 'FLOAT':
      if (bytes.length !== 8) throw new FormatError('corrupt', `a FLOAT value needs 8 canonical bytes, not ${bytes.length}`, where);
      return new DataView(bytes.buffer, bytes.byteOffset, 8).getFloat64(0, true);
    case 'STRING':
    case 'ENUM':
      return decodeUtf8(bytes, where);
    case 'BYTES':
      return bytes;
  }
}

/** Below this length, ASCII is turned into a string by hand: TextDecoder's per-call cost dominates short values. */
const SHORT_ASCII = 32;

export function decodeUtf8(bytes: Uint8Array, where: { offset?: number; field?: string } = {}): string {
  if (bytes.length <= SHORT_ASCII) {
    let s = '';
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (b >= 0x80) return decodeUtf8Fatal(bytes, where);
      s += String.fromCharCode(b);
    }
    return s;
  }
  return decodeUtf8Fatal(bytes, where);
}

function decodeUtf8Fatal(bytes: Uint8Array, where: { offset?: number; field?: string }): string {
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    throw new FormatError('corrupt', 'invalid UTF-8', where);
  }
}

/** Sort key of canonical bytes (spec C.8): signed or unsigned numbers, IEEE totalOrder, or bytes. */
export function compareCanonical(type: LeafType, a: Uint8Array, b: Uint8Array): number {
  if ((type.code === 'INT' || type.code === 'TS' || type.code === 'FLOAT') && a.length === 8 && b.length === 8) {
    return keyHigh(type, a) - keyHigh(type, b) || keyLow(type, a) - keyLow(type, b);
  }
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * The least and greatest of a run of canonical bytes, in `compareCanonical`'s order. A numeric
 * value's key is made once as it comes, where a comparison makes two: a chunk scan compared
 * each value twice, a quarter of verifying a small file.
 */
export class CanonicalExtremes {
  min: Uint8Array | undefined;
  max: Uint8Array | undefined;
  private minHigh = 0;
  private minLow = 0;
  private maxHigh = 0;
  private maxLow = 0;
  /** INT, TS and FLOAT: their canonical bytes are always 8 long, so `compareCanonical` compares their keys. */
  private readonly numeric: boolean;

  constructor(private readonly type: LeafType) {
    this.numeric = type.code === 'INT' || type.code === 'TS' || type.code === 'FLOAT';
  }

  /** `b`: canonical bytes of a value of this type (`canonicalBytes`). */
  add(b: Uint8Array): void {
    if (!this.numeric) {
      if (!this.min || !this.max) this.min = this.max = b;
      else if (compareCanonical(this.type, b, this.min) < 0) this.min = b;
      else if (compareCanonical(this.type, b, this.max) > 0) this.max = b;
      return;
    }
    const high = keyHigh(this.type, b);
    const low = keyLow(this.type, b);
    if (!this.min) {
      this.min = this.max = b;
      this.minHigh = this.maxHigh = high;
      this.minLow = this.maxLow = low;
    } else if (high < this.minHigh || (high === this.minHigh && low < this.minLow)) {
      this.min = b;
      this.minHigh = high;
      this.minLow = low;
    } else if (high > this.maxHigh || (high === this.maxHigh && low > this.maxLow)) {
      this.max = b;
      this.maxHigh = high;
      this.maxLow = low;
    }
  }
}

/**
 * A numeric value's sort key (spec C.8: signed or unsigned integers, IEEE totalOrder) as its high
 * and low 32 bits, unsigned numbers compared high first. Read from the bytes, as a DataView and a
 * 64-bit BigInt per value were most of what a chunk scan allocated (issue 21 item 3).
 */
function keyHigh(type: LeafType, b: Uint8Array): number {
  const high = (b[4]! | (b[5]! << 8) | (b[6]! << 16) | (b[7]! << 24)) >>> 0;
  if (type.code === 'INT' && !type.signed) return high;
  // Signed: the sign bit flipped. totalOrder: all bits of negatives flipped, only the sign bit of positives.
  if (type.code !== 'FLOAT' || high < 0x80000000) return (high ^ 0x80000000) >>> 0;
  return ~high >>> 0;
}

function keyLow(type: LeafType, b: Uint8Array): number {
  const low = (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >>> 0;
  return type.code === 'FLOAT' && b[7]! >= 0x80 ? ~low >>> 0 : low;
}

/**
 * A value as the JSONL of `binlens cat` prints it (DESIGN.md CLI contract): 64-bit integers and
 * timestamps as decimal strings, NaN and infinities as strings, BYTES as lower-case hex.
 */
export function jsonValue(v: Value): unknown {
  if (v === null) return null;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (v instanceof Uint8Array) return hexString(v);
  return v;
}

/** A value as one CSV field's text (before quoting); null is the empty field. */
export function textValue(v: Value): string {
  if (v === null) return '';
  if (v instanceof Uint8Array) return hexString(v);
  return String(v);
}

/** The canonical bytes a user typed into a query box, read as a value of the column's type. */
export function parseQueryValue(type: LeafType, text: string): Uint8Array {
  switch (type.code) {
    case 'INT':
    case 'TS':
      if (!/^-?\d+$/.test(text.trim())) throw new FormatError('corrupt', `"${text}" is not an integer`);
      return canonicalBytes(type, BigInt(text.trim()));
    case 'FLOAT': {
      const x = Number(text);
      if (text.trim() === '' || (Number.isNaN(x) && text.trim() !== 'NaN')) throw new FormatError('corrupt', `"${text}" is not a number`);
      return canonicalBytes(type, x);
    }
    case 'BYTES':
      if (!/^([0-9a-fA-F]{2})*$/.test(text)) throw new FormatError('corrupt', 'BYTES values are typed as hex');
      return Uint8Array.from(text.match(/../g) ?? [], (h) => parseInt(h, 16));
    default:
      return utf8.encode(text);
  }
}
