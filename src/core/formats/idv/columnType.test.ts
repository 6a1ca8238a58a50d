import { describe, expect, it } from 'vitest';
import { resolveType, typeText } from './columnType.js';
import type { CodecDef } from './model.js';

/** Codec definitions → types, per the load-name table and parameter rules of spec §7. */

const def = (loadName: string, extra: Partial<CodecDef> = {}): CodecDef => ({ offset: 0, length: 0, loadName, paramOffset: 0, paramLength: 0, ...extra });

describe('IDV column types', () => {
  it('reads every load name of spec §7.1, the legacy and renamed ones included', () => {
    const names = [
      'SByte',
      'Byte',
      'Int16',
      'UInt16',
      'Int32',
      'UInt32',
      'Int64',
      'UInt64',
      'Single',
      'Double',
      'TimeSpan',
      'DvTimeSpan',
      'DateTime',
      'DvDateTime',
      'DateTimeOffset',
      'DvDateTimeZone',
      'TextSpan',
      'Boolean',
      'DvBool',
      'DataViewRowId',
      'UInt128',
      'RowId',
    ];
    expect(names.map((n) => resolveType(def(n)))).toEqual(
      [
        'i8',
        'u8',
        'i16',
        'u16',
        'i32',
        'u32',
        'i64',
        'u64',
        'f32',
        'f64',
        'ts',
        'ts',
        'dt',
        'dt',
        'dz',
        'dz',
        'text',
        'bool',
        'bool2',
        'rowid',
        'rowid',
        'rowid',
      ].map((scalar) => ({ kind: 'scalar', scalar })),
    );
    expect(typeText(resolveType(def('RowId')), def('RowId'))).toBe('RowId');
  });

  it('reads Key2 counts within the raw type and refuses the rest', () => {
    expect(resolveType(def('Key2', { inner: def('Byte'), keyCount: 255n }))).toEqual({ kind: 'key', raw: 'u8', count: 255n, min: 0n, legacy: false });
    expect(resolveType(def('Key2', { inner: def('Byte'), keyCount: 256n }))).toEqual({
      kind: 'dead',
      reason: 'key count 256 is outside 1 .. 255',
      rejected: true,
    });
    expect(resolveType(def('Key2', { inner: def('UInt32'), keyCount: 0n }))).toMatchObject({ kind: 'dead' });
    expect(resolveType(def('Key2', { inner: def('Int32'), keyCount: 3n }))).toEqual({
      kind: 'dead',
      reason: 'key type must be Byte, UInt16, UInt32 or UInt64, not Int32',
      rejected: true,
    });
  });

  it("reads legacy Key: count 0 means the raw type's maximum; a bool byte above 1 is refused", () => {
    expect(resolveType(def('Key', { inner: def('UInt16'), legacyKey: { contiguous: 1, min: 0n, count: 0 } }))).toEqual({
      kind: 'key',
      raw: 'u16',
      count: 65535n,
      min: 0n,
      legacy: true,
    });
    expect(resolveType(def('Key', { inner: def('UInt16'), legacyKey: { contiguous: 2, min: 0n, count: 3 } }))).toMatchObject({
      kind: 'dead',
      reason: 'contiguous flag 2 is not a bool',
    });
    expect(typeText(resolveType(def('Key', { inner: def('UInt32'), legacyKey: { contiguous: 1, min: 1n, count: 3 } })))).toBe('Key<UInt32, 1-3>');
  });

  it('reads vectors of fixed, multi-dimensional and variable size; vectors of vectors and unknown items are dead', () => {
    expect(typeText(resolveType(def('VBuffer', { inner: def('Single'), dims: [2, 3] })))).toBe('Vector<Single, 2, 3>');
    expect(resolveType(def('VBuffer', { inner: def('Single'), dims: [2, 3] }))).toMatchObject({ size: 6 });
    expect(resolveType(def('VBuffer', { inner: def('Single'), dims: [0] }))).toMatchObject({ size: 0 });
    expect(resolveType(def('VBuffer', { inner: def('Single'), dims: [] }))).toMatchObject({ size: 0 });
    expect(resolveType(def('VBuffer', { inner: def('VBuffer', { inner: def('Single'), dims: [1] }), dims: [1] }))).toMatchObject({ kind: 'dead' });
    // An unknown codec is skipped (a dead column); inside a vector ML.NET refuses the file instead.
    expect(resolveType(def('Image'))).toEqual({ kind: 'dead', reason: 'unknown codec "Image"', rejected: false });
    // Names of Object.prototype's members are unknown codecs too, not functions found by indexing.
    for (const name of ['constructor', 'toString', '__proto__'])
      expect(resolveType(def(name))).toMatchObject({ kind: 'dead', reason: `unknown codec "${name}"` });
    expect(resolveType(def('VBuffer', { inner: def('Image'), dims: [1] }))).toEqual({ kind: 'dead', reason: 'unknown codec "Image"', rejected: true });
    expect(resolveType(def('Int32', { problem: '2 parameter bytes left unread' }))).toEqual({
      kind: 'dead',
      reason: '2 parameter bytes left unread',
      rejected: true,
    });
  });
});
