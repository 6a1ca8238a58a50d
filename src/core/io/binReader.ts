import { FormatError } from '../errors.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A cursor over bytes read from a file at absolute offset `base`. Every read names its field,
 * and running past the end throws a FormatError with the absolute offset, so a format's
 * parsing code reads like its spec and never indexes out of bounds.
 */
export class BinReader {
  private readonly view: DataView;
  pos = 0;

  constructor(
    readonly bytes: Uint8Array,
    readonly base = 0,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Absolute file offset of the cursor. */
  get offset(): number {
    return this.base + this.pos;
  }

  get remaining(): number {
    return this.bytes.length - this.pos;
  }

  /** Moves the cursor to an absolute file offset inside this buffer. */
  seek(absolute: number, field = 'position'): void {
    const rel = absolute - this.base;
    if (rel < 0 || rel > this.bytes.length) {
      throw new FormatError('out-of-range', `offset ${absolute} is outside the bytes read`, { offset: absolute, field });
    }
    this.pos = rel;
  }

  need(n: number, field: string): void {
    if (n > this.remaining) {
      throw new FormatError('truncated', `needs ${n} bytes but only ${this.remaining} remain`, { offset: this.offset, field });
    }
  }

  skip(n: number, field: string): void {
    this.need(n, field);
    this.pos += n;
  }

  bytesOf(n: number, field: string): Uint8Array {
    this.need(n, field);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  u8(field: string): number {
    this.need(1, field);
    return this.bytes[this.pos++]!;
  }

  u16le(field: string): number {
    this.need(2, field);
    const v = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }

  u16be(field: string): number {
    this.need(2, field);
    const v = this.view.getUint16(this.pos, false);
    this.pos += 2;
    return v;
  }

  i16le(field: string): number {
    this.need(2, field);
    const v = this.view.getInt16(this.pos, true);
    this.pos += 2;
    return v;
  }

  u24le(field: string): number {
    this.need(3, field);
    const b = this.bytes;
    const p = this.pos;
    this.pos += 3;
    return b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16);
  }

  u32le(field: string): number {
    this.need(4, field);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  u32be(field: string): number {
    this.need(4, field);
    const v = this.view.getUint32(this.pos, false);
    this.pos += 4;
    return v;
  }

  i32le(field: string): number {
    this.need(4, field);
    const v = this.view.getInt32(this.pos, true);
    this.pos += 4;
    return v;
  }

  u64le(field: string): bigint {
    this.need(8, field);
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }

  i64le(field: string): bigint {
    this.need(8, field);
    const v = this.view.getBigInt64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** A u64 that is used as an offset, length or count: must fit a JS number exactly. */
  u64leNumber(field: string): number {
    const at = this.offset;
    return toSafeNumber(this.u64le(field), field, at);
  }

  /** An i64 used as an offset or count (negative values are the caller's to judge). */
  i64leNumber(field: string): number {
    const at = this.offset;
    const v = this.i64le(field);
    if (v > MAX_SAFE || v < -MAX_SAFE) {
      throw new FormatError('limit', `value ${v} does not fit in 2^53`, { offset: at, field });
    }
    return Number(v);
  }

  f32le(field: string): number {
    this.need(4, field);
    const v = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }

  f64le(field: string): number {
    this.need(8, field);
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** Fixed-width unsigned little-endian integer of 1..8 bytes. */
  uintLE(width: number, field: string): bigint {
    this.need(width, field);
    let v = 0n;
    for (let i = width - 1; i >= 0; i--) v = (v << 8n) | BigInt(this.bytes[this.pos + i]!);
    this.pos += width;
    return v;
  }
}

export function toSafeNumber(v: bigint, field: string, offset?: number): number {
  if (v > MAX_SAFE) throw new FormatError('limit', `value ${v} is larger than 2^53 - 1`, { offset, field });
  return Number(v);
}

/** A u32 LE at a position of a buffer, for fixed layouts read all at once. */
export function u32leAt(bytes: Uint8Array, pos: number): number {
  return (bytes[pos]! | (bytes[pos + 1]! << 8) | (bytes[pos + 2]! << 16) | (bytes[pos + 3]! << 24)) >>> 0;
}
