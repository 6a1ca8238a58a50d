import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DATETIME_TICKS, dateTimeOffsetText, dateTimeText, float32Text, timeSpanText } from './format.js';
import { convertValue } from './infer.js';
import { scalarType } from './testFiles.js';

/** Dates, times and floats as text, and back. */

const where = { line: 1, column: 'x' };

describe('IDV value text', () => {
  it("prints .NET round-trip dates and constant-format TimeSpans (values from ML.NET's baselines and .NET docs)", () => {
    expect(dateTimeText(635112576000000000n)).toBe('2013-08-05T00:00:00.0000000');
    expect(dateTimeText(0n)).toBe('0001-01-01T00:00:00.0000000');
    expect(dateTimeText(MAX_DATETIME_TICKS)).toBe('9999-12-31T23:59:59.9999999');
    // new DateTime(2000, 1, 1).Ticks = 630822816000000000; + 59 days + 12:34:56.789 = 2000-02-29, a leap day of a century divisible by 400.
    expect(dateTimeText(630822816000000000n + 59n * 864_000_000_000n + 452_967_890_000n)).toBe('2000-02-29T12:34:56.7890000');
    expect(dateTimeOffsetText({ ticks: 633636000000000000n, offsetMinutes: -330 })).toBe('2008-11-30T00:00:00.0000000-05:30');
    expect(timeSpanText(1728000000000n)).toBe('2.00:00:00');
    expect(timeSpanText(0n)).toBe('00:00:00');
    expect(timeSpanText(-15_000_001n)).toBe('-00:00:01.5000001');
  });

  it('reads back every date, offset and TimeSpan it prints', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: MAX_DATETIME_TICKS }),
        fc.integer({ min: -840, max: 840 }),
        fc.bigInt({ min: -(1n << 62n), max: 1n << 62n }),
        (ticks, offset, span) => {
          expect(convertValue(dateTimeText(ticks), scalarType('dt'), where, true)).toBe(ticks);
          expect(convertValue(dateTimeOffsetText({ ticks, offsetMinutes: offset }), scalarType('dz'), where, true)).toEqual({ ticks, offsetMinutes: offset });
          expect(convertValue(timeSpanText(span), scalarType('ts'), where, true)).toBe(span);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('prints a Single in the fewest digits that read back as the same float32', () => {
    expect(float32Text(Math.fround(0.1))).toBe('0.1');
    expect(float32Text(Math.fround(1 / 3))).toBe('0.33333334');
    expect(float32Text(Number.NaN)).toBe('NaN');
    expect(float32Text(-Infinity)).toBe('-Infinity');
    fc.assert(
      fc.property(fc.float({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(Math.fround(Number(float32Text(x)))).toBe(x);
      }),
      { numRuns: 2000 },
    );
  });

  it('finds the same fewest digits as trying 1, 2, … 9 in turn, for any float32 bits', () => {
    const scan = (v: number) => {
      for (let p = 1; ; p++) if (Math.fround(Number(v.toPrecision(p))) === v) return String(Number(v.toPrecision(p)));
    };
    const fromBits = (bits: number) => new Float32Array(new Uint32Array([bits]).buffer)[0]!;
    // Powers of two, their neighbours and subnormals, then any bits at all.
    const edges = [1, 0x80_0000, 0x80_0001, 0x7f_ffff, 0x3f80_0000, 0x3f7f_ffff, 0x3f80_0001, 0x7f7f_ffff, 0x4b80_0000, 0x1e80_0000];
    for (const bits of edges) for (const sign of [0, 0x8000_0000]) expect(float32Text(fromBits((bits | sign) >>> 0))).toBe(scan(fromBits((bits | sign) >>> 0)));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff_ffff }), (bits) => {
        const v = fromBits(bits);
        if (Number.isFinite(v) && v !== 0) expect(float32Text(v)).toBe(scan(v));
      }),
      { numRuns: 200_000 },
    );
  });
});
