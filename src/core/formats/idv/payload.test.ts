import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ColumnType, ItemType, ScalarKind } from './columnType.js';
import { decodePayload } from './payload.js';
import { type Value, blockValue } from './values.js';
import { encodeBlock } from './writer.js';

/** Block payloads (spec §9) built byte by byte from the spec, decoded, and encoded back. */

const scalar = (s: ScalarKind): ItemType => ({ kind: 'scalar', scalar: s });
const vector = (item: ItemType, size: number): ColumnType => ({ kind: 'vector', item, dims: [size], size });
const origin = { offset: 1000, field: 'test block' };

function bytes(...parts: (number[] | Uint8Array)[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((p) => [...p]));
}
const i32 = (...v: number[]) => [...new Uint8Array(Int32Array.from(v).buffer)];
const i16 = (...v: number[]) => [...new Uint8Array(Int16Array.from(v).buffer)];
const i64 = (...v: bigint[]) => [...new Uint8Array(BigInt64Array.from(v).buffer)];
const f32 = (...v: number[]) => [...new Uint8Array(Float32Array.from(v).buffer)];
const str = (s: string) => {
  const utf8 = new TextEncoder().encode(s);
  return [utf8.length, ...utf8];
};

function values(t: ColumnType, payload: Uint8Array, n: number, reading: 'modern' | 'legacy' = 'modern', dvTypes = false): Value[] {
  const { values } = decodePayload(t, payload, n, origin);
  return Array.from({ length: n }, (_, i) => blockValue(values, i, t, reading, { dvTypes }).value);
}

describe('IDV block payloads, by hand from the spec', () => {
  it('Boolean: one bit per value, least significant bit first', () => {
    const payload = bytes([0b1000_0101, 0b0000_0010]);
    expect(values(scalar('bool'), payload, 10)).toEqual([true, false, true, false, false, false, false, true, false, true]);
    expect(encodeBlock(scalar('bool'), [true, false, true, false, false, false, false, true, false, true])).toEqual(payload);
  });

  it('DvBool: two bits per value in little-endian words, 10 = NA (false today, missing in the legacy reading)', () => {
    // spec §15: u32 0x00000224 → false, true, NA, false, NA
    const payload = bytes(i32(0x224));
    expect(values(scalar('bool2'), payload, 5)).toEqual([false, true, false, false, false]);
    expect(values(scalar('bool2'), payload, 5, 'legacy')).toEqual([false, true, null, false, null]);
    const seventeen = bytes(i32(0x4000_0001), i32(1));
    expect(values(scalar('bool2'), seventeen, 17)).toEqual([true, ...Array(14).fill(false), true, true]);
  });

  it('DvBool: the pattern 11 is refused with its place', () => {
    expect(() => values(scalar('bool2'), bytes(i32(0b1100)), 2)).toThrow(expect.objectContaining({ code: 'corrupt', offset: 1000, field: 'test block bits' }));
  });

  it('TextSpan: count, UTF-16 end boundaries with the NA bit, one string', () => {
    // spec §15: boundaries 3, 6, NA, 6 (""), NA; "fooxyz"
    const payload = bytes(i32(5), i32(3, 6, 0x80000006 | 0, 6, 0x80000006 | 0), str('fooxyz'));
    expect(values(scalar('text'), payload, 5)).toEqual(['foo', 'xyz', '', '', '']);
    expect(values(scalar('text'), payload, 5, 'legacy')).toEqual(['foo', 'xyz', null, '', null]);
  });

  it('TextSpan: boundaries count UTF-16 code units, not bytes', () => {
    const payload = bytes(i32(2), i32(2, 3), str('😀é'));
    expect(values(scalar('text'), payload, 2)).toEqual(['😀', 'é']);
    expect(encodeBlock(scalar('text'), ['😀', 'é'])).toEqual(payload);
  });

  it('TextSpan: refuses a count that is not the row count, boundaries going back, and a text of the wrong length', () => {
    expect(() => values(scalar('text'), bytes(i32(2), i32(1, 2), str('ab')), 3)).toThrow(/holds 2 values, expected 3/);
    expect(() => values(scalar('text'), bytes(i32(2), i32(2, 1), str('ab')), 2)).toThrow(/before the previous one/);
    expect(() => values(scalar('text'), bytes(i32(1), i32(3), str('ab')), 1)).toThrow(/2 UTF-16 code units but the boundaries end at 3/);
  });

  it('DateTimeOffset: all offsets first, then all ticks of the local clock', () => {
    const payload = bytes(i16(60, -30), i64(633636000000000000n, 1n));
    expect(values(scalar('dz'), payload, 2)).toEqual([
      { ticks: 633636000000000000n, offsetMinutes: 60 },
      { ticks: 1n, offsetMinutes: -30 },
    ]);
    expect(encodeBlock(scalar('dz'), values(scalar('dz'), payload, 2))).toEqual(payload);
  });

  it('DateTime and TimeSpan: ticks; long.MinValue is the legacy NA, read as 0 today', () => {
    const payload = bytes(i64(635112576000000000n, -(1n << 63n)));
    expect(values(scalar('dt'), payload, 2)).toEqual([635112576000000000n, 0n]);
    expect(values(scalar('ts'), payload, 2, 'legacy')).toEqual([635112576000000000n, null]);
  });

  it('legacy integer NA: the minimum of a DvTypes-era integer is missing only in the legacy reading of 1.1.1.5 files', () => {
    const payload = bytes([0x80, 0x7f]);
    expect(values(scalar('i8'), payload, 2, 'legacy', true)).toEqual([null, 127]);
    expect(values(scalar('i8'), payload, 2, 'modern', true)).toEqual([-128, 127]);
    expect(values(scalar('i8'), payload, 2, 'legacy', false)).toEqual([-128, 127]);
  });

  it('DataViewRowId: u64 low then u64 high', () => {
    const payload = bytes(i64(5n, 1n));
    expect(values(scalar('rowid'), payload, 1)).toEqual([(1n << 64n) + 5n]);
    expect(encodeBlock(scalar('rowid'), [(1n << 64n) + 5n])).toEqual(payload);
  });

  it('VBuffer: a dense and a sparse vector share one value stream', () => {
    // 2 vectors of size 4; counts −1 (dense) and 2 (sparse); 2 indices 1, 3; values 1 2 3 4 | 7 9
    const payload = bytes(i32(2, 4), i32(-1, 2), i32(2), i32(1, 3), f32(1, 2, 3, 4, 7, 9));
    const t = vector(scalar('f32'), 4);
    expect(values(t, payload, 2)).toEqual([
      { length: 4, values: [1, 2, 3, 4] },
      { length: 4, indices: [1, 3], values: [7, 9] },
    ]);
    expect(encodeBlock(t, values(t, payload, 2))).toEqual(payload);
  });

  it('VBuffer: variable-length vectors carry their lengths; text items form one TextSpan payload', () => {
    const payload = bytes(i32(2, 0), i32(1, 2), i32(-1, -1), i32(0), i32(3), i32(1, 3, 4), str('abcd'));
    const t: ColumnType = { kind: 'vector', item: scalar('text'), dims: [0], size: 0 };
    expect(values(t, payload, 2)).toEqual([
      { length: 1, values: ['a'] },
      { length: 2, values: ['bc', 'd'] },
    ]);
    expect(encodeBlock(t, values(t, payload, 2))).toEqual(payload);
  });

  it('VBuffer: Boolean items pack bits continuously across vectors', () => {
    const payload = bytes(i32(2, 3), i32(-1, -1), i32(0), [0b101_011]);
    const t = vector(scalar('bool'), 3);
    expect(values(t, payload, 2)).toEqual([
      { length: 3, values: [true, true, false] },
      { length: 3, values: [true, false, true] },
    ]);
  });

  it('VBuffer: refuses sparse counts ≥ length, indices not increasing or too large, and a wrong size', () => {
    const t = vector(scalar('f32'), 2);
    expect(() => values(t, bytes(i32(1, 2), i32(2), i32(2), i32(0, 1), f32(1, 2)), 1)).toThrow(/stores 2 of 2 slots/);
    expect(() => values(vector(scalar('f32'), 3), bytes(i32(1, 3), i32(2), i32(2), i32(1, 1), f32(1, 2)), 1)).toThrow(/not increasing/);
    expect(() => values(vector(scalar('f32'), 3), bytes(i32(1, 3), i32(1), i32(1), i32(3), f32(1)), 1)).toThrow(/not increasing or not below/);
    expect(() => values(t, bytes(i32(1, 3), i32(-1), i32(0), f32(1, 2, 3)), 1)).toThrow(/size 3 does not match/);
  });

  it('VBuffer: an index count larger than the sparse counts is tolerated and noted (ML.NET never checks it)', () => {
    const got = decodePayload(vector(scalar('f32'), 3), bytes(i32(1, 3), i32(1), i32(2), i32(1, 2), f32(5)), 1, origin);
    expect(got.notes).toEqual(['2 indices stored but the sparse counts add up to 1']);
  });

  it('reports bytes left after the values, and refuses payloads that end early', () => {
    expect(decodePayload(scalar('i32'), bytes(i32(1), [9, 9]), 1, origin).trailing).toBe(2);
    expect(() => decodePayload(scalar('i64'), bytes(i32(1)), 1, origin)).toThrow(expect.objectContaining({ code: 'truncated', field: 'test block values' }));
  });

  it('decodes what the writer encodes, for any values of every scalar kind', () => {
    const arbitraries: [ItemType, fc.Arbitrary<Value>][] = [
      [scalar('i8'), fc.integer({ min: -128, max: 127 })],
      [scalar('u16'), fc.integer({ min: 0, max: 65535 })],
      [scalar('i32'), fc.integer()],
      [scalar('u32'), fc.integer({ min: 0, max: 2 ** 32 - 1 })],
      [scalar('i64'), fc.bigInt({ min: -(1n << 63n) + 1n, max: (1n << 63n) - 1n })],
      [scalar('u64'), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n })],
      [scalar('f32'), fc.float({ noNaN: true })],
      [scalar('f64'), fc.double({ noNaN: true })],
      [scalar('bool'), fc.boolean()],
      [scalar('text'), fc.string({ unit: 'grapheme' })],
      [scalar('dt'), fc.bigInt({ min: 0n, max: 3_155_378_975_999_999_999n })],
      [scalar('ts'), fc.bigInt({ min: -(1n << 63n) + 1n, max: (1n << 63n) - 1n })],
    ];
    for (const [t, arb] of arbitraries) {
      fc.assert(
        fc.property(fc.array(arb, { maxLength: 40 }), (list) => {
          expect(values(t, encodeBlock(t, list), list.length)).toEqual(list);
        }),
        { numRuns: 60 },
      );
    }
  });
});
