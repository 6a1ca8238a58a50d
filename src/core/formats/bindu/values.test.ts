import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LeafType } from './model.js';
import { CanonicalExtremes, type Value, canonicalBytes, compareCanonical } from './values.js';

const cases: { type: LeafType; gen: fc.Arbitrary<Exclude<Value, null>> }[] = [
  { type: { code: 'INT', bits: 64, signed: true }, gen: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }) },
  { type: { code: 'INT', bits: 64, signed: false }, gen: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }) },
  { type: { code: 'INT', bits: 32, signed: true }, gen: fc.integer() },
  { type: { code: 'TS', unit: 'ms' }, gen: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }) },
  { type: { code: 'FLOAT', bits: 64 }, gen: fc.oneof(fc.double(), fc.constantFrom(-0, 0, NaN, -Infinity, Infinity)) },
  { type: { code: 'STRING' }, gen: fc.string() },
  { type: { code: 'BYTES' }, gen: fc.uint8Array({ maxLength: 12 }) },
];

describe('CanonicalExtremes', () => {
  it.each(cases.map((c) => [JSON.stringify(c.type), c] as const))('%s: the first least and greatest values in compareCanonical order', (_name, c) => {
    fc.assert(
      fc.property(fc.array(c.gen, { minLength: 1, maxLength: 40 }), (values) => {
        const bytes = values.map((v) => canonicalBytes(c.type, v));
        const extremes = new CanonicalExtremes(c.type);
        for (const b of bytes) extremes.add(b);
        const ascending = [...bytes].sort((a, b) => compareCanonical(c.type, a, b));
        // Of equal values the first is kept, as the two comparisons per value kept it.
        const first = (like: Uint8Array) => bytes.find((b) => compareCanonical(c.type, b, like) === 0);
        expect(extremes.min).toBe(first(ascending[0]!));
        expect(extremes.max).toBe(first(ascending.at(-1)!));
      }),
    );
  });

  it('is empty before any value', () => {
    const extremes = new CanonicalExtremes({ code: 'FLOAT', bits: 64 });
    expect([extremes.min, extremes.max]).toEqual([undefined, undefined]);
  });
});

describe('compareCanonical', () => {
  /** The spec's sort key (C.8) made the plain way: a 64-bit BigInt read through a DataView. */
  const key = (type: LeafType, b: Uint8Array): bigint => {
    const view = new DataView(b.buffer, b.byteOffset, 8);
    if (type.code === 'INT' && !type.signed) return view.getBigUint64(0, true);
    if (type.code !== 'FLOAT') return view.getBigInt64(0, true);
    const bits = view.getBigUint64(0, true);
    return bits >> 63n ? ~bits & 0xffffffffffffffffn : bits | (1n << 63n);
  };

  const eight = fc.uint8Array({ minLength: 8, maxLength: 8 });
  /** Any two 8-byte values: unrelated, or alike in their low or their high 4 bytes, where comparing halves can go wrong. */
  const pairs = fc.tuple(eight, eight, fc.constantFrom('low', 'high', 'neither')).map(([a, b, alike]) => {
    if (alike === 'low') b.set(a.subarray(0, 4), 0);
    if (alike === 'high') b.set(a.subarray(4), 4);
    return [a, b] as const;
  });

  it.each(cases.slice(0, 5).map((c) => [JSON.stringify(c.type), c] as const))('%s: numbers in the order of their 64-bit keys, any 8 bytes', (_name, c) => {
    fc.assert(
      fc.property(pairs, ([a, b]) => {
        const want = Math.sign(Number(key(c.type, a) - key(c.type, b)));
        expect(Math.sign(compareCanonical(c.type, a, b))).toBe(want);
      }),
    );
  });
});

describe('canonicalBytes', () => {
  /** The spec's bytes (C.6) made the plain way, a BigInt and a DataView per value. */
  const reference = (type: LeafType, v: number | bigint): Uint8Array => {
    const view = new DataView(new ArrayBuffer(8));
    if (type.code === 'FLOAT') view.setFloat64(0, Number.isNaN(v) ? NaN : v === 0 ? 0 : Number(v), true);
    else view.setBigUint64(0, BigInt.asUintN(64, BigInt(v)), true);
    return new Uint8Array(view.buffer);
  };

  it.each(cases.slice(0, 5).map((c) => [JSON.stringify(c.type), c] as const))('%s: 8 bytes as the spec gives them, in an array of their own', (_name, c) => {
    fc.assert(
      fc.property(fc.array(c.gen, { minLength: 2, maxLength: 8 }), (values) => {
        const bytes = values.map((v) => canonicalBytes(c.type, v));
        expect(bytes).toEqual(values.map((v) => reference(c.type, v as number | bigint)));
      }),
    );
  });
});
