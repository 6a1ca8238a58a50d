import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bg4Implementations, bg4Regroup, bg4Split } from './bg4.js';

describe('BG4 byte grouping', () => {
  it('groups the spec example: [A1 A2 A3 A4 B1 B2] → A1 B1 A2 B2 A3 A4', () => {
    const [A1, A2, A3, A4, B1, B2] = [0xa1, 0xa2, 0xa3, 0xa4, 0xb1, 0xb2];
    expect([...bg4Split(Uint8Array.of(A1, A2, A3, A4, B1, B2))]).toEqual([A1, B1, A2, B2, A3, A4]);
    expect([...bg4Regroup(Uint8Array.of(A1, B1, A2, B2, A3, A4))]).toEqual([A1, A2, A3, A4, B1, B2]);
  });

  it('gives the trailing bytes to the first groups, never to group 3', () => {
    // n = 7: groups hold 2, 2, 2, 1 bytes.
    expect([...bg4Split(Uint8Array.of(0, 1, 2, 3, 4, 5, 6))]).toEqual([0, 4, 1, 5, 2, 6, 3]);
    // n = 5: 2, 1, 1, 1.
    expect([...bg4Split(Uint8Array.of(0, 1, 2, 3, 4))]).toEqual([0, 4, 1, 2, 3]);
  });

  it('matches the spec rule (byte i to group i mod 4, groups in order) for any length, also from an unaligned view', () => {
    const bySpec = (data: Uint8Array) => Uint8Array.from([0, 1, 2, 3].flatMap((k) => [...data].filter((_, i) => i % 4 === k)));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.integer({ min: 0, max: 3 }), (data, skip) => {
        const view = Uint8Array.from([...new Uint8Array(skip), ...data]).subarray(skip);
        expect(bg4Split(view)).toEqual(bySpec(data));
        const grouped = bySpec(data);
        expect(bg4Regroup(Uint8Array.from([...new Uint8Array(skip), ...grouped]).subarray(skip))).toEqual(data);
      }),
      { numRuns: 300 },
    );
  });

  it('regroup undoes split for every length mod 4', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (data) => {
        expect(bg4Regroup(bg4Split(data))).toEqual(data);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same bytes in WebAssembly as in TypeScript, from 0 bytes to a 128 KiB chunk, at any alignment', () => {
    const { wasm, ts } = bg4Implementations;
    const big = Uint8Array.from({ length: 131072 }, (_, i) => (i * 2654435761) >>> 24);
    expect(wasm.split(big)).toEqual(ts.split(big));
    expect(wasm.regroup(big)).toEqual(ts.regroup(big));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.integer({ min: 0, max: 15 }), (data, skip) => {
        const view = Uint8Array.from([...new Uint8Array(skip), ...data]).subarray(skip);
        expect(wasm.split(view)).toEqual(ts.split(data));
        expect(wasm.regroup(view)).toEqual(ts.regroup(data));
      }),
      { numRuns: 300 },
    );
  });

  it('regroups more than a chunk in TypeScript, and a view stays valid until the next grouping', () => {
    const over = Uint8Array.from({ length: 131073 }, (_, i) => i & 0xff);
    expect(bg4Implementations.wasm.regroup(over)).toBeUndefined();
    expect(bg4Regroup(bg4Split(over))).toEqual(over);
    const a = Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8);
    const view = bg4Regroup(bg4Split(a), true);
    expect(view).toEqual(a);
    bg4Regroup(Uint8Array.of(9, 9, 9, 9, 9, 9, 9, 9), true);
    expect(view).not.toEqual(a);
  });
});
