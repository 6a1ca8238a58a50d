import type { ByteRange } from '../model.js';
import type { BinReader } from './binReader.js';

/**
 * A fixed binary layout declared once: the reader, the writer, the structure tree and the panels
 * take each field's offset, width and name from the same declaration, so no offset is written
 * twice. Fields follow one another in the order declared, as in a spec's table.
 */

type Kind = 'u8' | 'u16le' | 'u24le' | 'u32le' | 'i32le' | 'u64le' | 'i64le' | 'u64leNumber' | 'i64leNumber' | 'bytes' | 'pad';

/** One field: its name in errors and trees, how it is read, and its width in bytes. */
export interface FieldSpec<V = unknown> {
  readonly name: string;
  readonly kind: Kind;
  readonly width: number;
  /** Type-level only: the value a read gives. */
  readonly _value?: V;
}

export const u8 = (name: string): FieldSpec<number> => ({ name, kind: 'u8', width: 1 });
export const u16le = (name: string): FieldSpec<number> => ({ name, kind: 'u16le', width: 2 });
export const u24le = (name: string): FieldSpec<number> => ({ name, kind: 'u24le', width: 3 });
export const u32le = (name: string): FieldSpec<number> => ({ name, kind: 'u32le', width: 4 });
export const i32le = (name: string): FieldSpec<number> => ({ name, kind: 'i32le', width: 4 });
export const u64le = (name: string): FieldSpec<bigint> => ({ name, kind: 'u64le', width: 8 });
export const i64le = (name: string): FieldSpec<bigint> => ({ name, kind: 'i64le', width: 8 });
/** A u64 used as an offset, length or count: it must fit a JS number exactly (BinReader.u64leNumber). */
export const u64leNumber = (name: string): FieldSpec<number> => ({ name, kind: 'u64leNumber', width: 8 });
/** An i64 used as an offset or count (BinReader.i64leNumber: negative values are the caller's to judge). */
export const i64leNumber = (name: string): FieldSpec<number> => ({ name, kind: 'i64leNumber', width: 8 });
export const bytes = (width: number, name: string): FieldSpec<Uint8Array> => ({ name, kind: 'bytes', width });
/** Padding or reserved bytes: skipped when read, zeros when written. */
export const pad = (width: number, name: string): FieldSpec<undefined> => ({ name, kind: 'pad', width });

/** How each kind of field is read (through BinReader, so errors name field and offset) and written. */
const CODECS: Record<
  Kind,
  { read(r: BinReader, name: string, width: number): unknown; write(v: DataView, out: Uint8Array, at: number, width: number, value: unknown): void }
> = {
  u8: { read: (r, n) => r.u8(n), write: (v, _o, at, _w, x) => v.setUint8(at, x as number) },
  u16le: { read: (r, n) => r.u16le(n), write: (v, _o, at, _w, x) => v.setUint16(at, x as number, true) },
  u24le: {
    read: (r, n) => r.u24le(n),
    write: (v, _o, at, _w, x) => {
      v.setUint16(at, (x as number) & 0xffff, true);
      v.setUint8(at + 2, (x as number) >>> 16);
    },
  },
  u32le: { read: (r, n) => r.u32le(n), write: (v, _o, at, _w, x) => v.setUint32(at, x as number, true) },
  i32le: { read: (r, n) => r.i32le(n), write: (v, _o, at, _w, x) => v.setInt32(at, x as number, true) },
  u64le: { read: (r, n) => r.u64le(n), write: (v, _o, at, _w, x) => v.setBigUint64(at, x as bigint, true) },
  i64le: { read: (r, n) => r.i64le(n), write: (v, _o, at, _w, x) => v.setBigInt64(at, x as bigint, true) },
  u64leNumber: { read: (r, n) => r.u64leNumber(n), write: (v, _o, at, _w, x) => v.setBigUint64(at, BigInt(x as number), true) },
  i64leNumber: { read: (r, n) => r.i64leNumber(n), write: (v, _o, at, _w, x) => v.setBigInt64(at, BigInt(x as number), true) },
  bytes: { read: (r, n, w) => r.bytesOf(w, n), write: (_v, out, at, w, x) => out.set((x as Uint8Array).subarray(0, w), at) },
  pad: { read: (r, n, w) => r.skip(w, n), write: (_v, out, at, w) => out.fill(0, at, at + w) },
};

type Specs = Record<string, FieldSpec>;
type ValueOf<S> = S extends FieldSpec<infer V> ? V : never;
/** The values of a layout's fields, padding left out. */
export type LayoutValues<D extends Specs> = { -readonly [K in keyof D as ValueOf<D[K]> extends undefined ? never : K]: ValueOf<D[K]> };

export class FixedLayout<D extends Specs> {
  /** Bytes the layout spans. */
  readonly size: number;
  private readonly offsets = new Map<keyof D, number>();

  constructor(readonly fields: D) {
    let at = 0;
    for (const key of Object.keys(fields)) {
      this.offsets.set(key, at);
      at += fields[key]!.width;
    }
    this.size = at;
  }

  /** The field's offset from the layout's start, plus `base` (where the layout lies in the file). */
  offset(key: keyof D, base = 0): number {
    return base + this.offsets.get(key)!;
  }

  /** The field's bytes in the file when the layout starts at `base`. */
  range(key: keyof D, base = 0): ByteRange {
    return { offset: this.offset(key, base), length: this.fields[key]!.width };
  }

  /** The bytes from the start of field `from` to the end of field `to`. */
  span(from: keyof D, to: keyof D, base = 0): ByteRange {
    const start = this.offset(from, base);
    return { offset: start, length: this.offset(to, base) + this.fields[to]!.width - start };
  }

  /** The name a field carries in errors, trees and panels (after `prefix` in a record of many). */
  name(key: keyof D, prefix?: string): string {
    const name = this.fields[key]!.name;
    return prefix === undefined ? name : `${prefix} ${name}`;
  }

  /** Where a field lies, as a FormatError's location wants it. */
  at(key: keyof D, base = 0, prefix?: string): { offset: number; field: string } {
    return { offset: this.offset(key, base), field: this.name(key, prefix) };
  }

  /** The keys in declared (byte) order. */
  keys(): (keyof D & string)[] {
    return Object.keys(this.fields);
  }

  /**
   * Reads every field at the reader's cursor, each read naming its field (errors locate it);
   * `prefix` names which of many records it is ("asset 3 flags").
   */
  read(r: BinReader, prefix?: string): LayoutValues<D> {
    const out: Record<string, unknown> = {};
    for (const key of this.keys()) {
      const { kind, width } = this.fields[key]!;
      const name = this.name(key, prefix);
      const value = CODECS[kind].read(r, name, width);
      if (kind !== 'pad') out[key] = value;
    }
    return out as LayoutValues<D>;
  }

  /** Writes every field into `out` at `base`; padding stays zero. The inverse of `read`. */
  write(values: LayoutValues<D>, out: Uint8Array, base = 0): void {
    const v = new DataView(out.buffer, out.byteOffset, out.byteLength);
    const given = values as Record<string, unknown>;
    for (const key of this.keys()) {
      const { kind, width } = this.fields[key]!;
      const at = this.offset(key, base);
      CODECS[kind].write(v, out, at, width, given[key]);
    }
  }
}

export function layout<D extends Specs>(fields: D): FixedLayout<D> {
  return new FixedLayout(fields);
}
