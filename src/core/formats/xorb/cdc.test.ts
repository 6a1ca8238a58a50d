import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { xorshiftBytes } from '../../../../test/helpers/bytes.js';
import { fixture, readFixture } from '../../../../test/helpers/fixtures.js';
import { chunkBoundaries, GearChunker } from './cdc.js';
import { GEAR_HI, GEAR_LO } from './gearTable.js';

describe("xet's content-defined chunker", () => {
  it('holds the gear table of the spec', () => {
    const spec = readFileSync(fixture('../specs/xorb-gear-table.txt'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('0x'))
      .map((l) => BigInt(l.trim()));
    expect(spec).toHaveLength(256);
    expect([...GEAR_HI].map((hi, i) => (BigInt(hi >>> 0) << 32n) | BigInt(GEAR_LO[i]! >>> 0))).toEqual(spec);
  });

  it('reproduces test vector 1: fixture 02 input → 5 chunks', () => {
    expect(chunkBoundaries(readFixture('xorb/02_lz4_text.input.bin'))).toEqual([43314, 90988, 148200, 195949, 266942]);
  });

  it('reproduces test vector 2: 1 MiB of xorshift32 → 18 chunks', () => {
    const data = xorshiftBytes(1 << 20);
    expect(createHash('sha256').update(data).digest('hex')).toBe('96ba43225ea1b4411dbe7a35f517d8ad07a12e978349ae18fc08bc8b34e6ff56');
    expect(chunkBoundaries(data)).toEqual([
      103267, 159482, 193219, 324291, 455363, 509646, 541188, 580564, 625810, 635774, 652015, 669880, 755891, 804278, 833535, 843686, 974758, 1048576,
    ]);
  });

  it('cuts the same chunks whatever pieces the stream arrives in', () => {
    const data = xorshiftBytes(600_000);
    const whole = chunkBoundaries(data);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 200_000 }), { minLength: 1, maxLength: 12 }), (sizes) => {
        const c = new GearChunker();
        const ends: number[] = [];
        let at = 0;
        for (let k = 0; at < data.length; k++) {
          const n = Math.min(sizes[k % sizes.length]!, data.length - at);
          for (const end of c.push(data.subarray(at, at + n))) ends.push(at + end);
          at += n;
        }
        if (c.finish()) ends.push(data.length);
        expect(ends).toEqual(whole);
      }),
      { numRuns: 30 },
    );
  });

  it('keeps chunks between 8 KiB and 128 KiB, except a shorter last one', () => {
    for (const data of [new Uint8Array(400_000), xorshiftBytes(300_000), new Uint8Array(5000)]) {
      const ends = chunkBoundaries(data);
      const sizes = ends.map((e, i) => e - (ends[i - 1] ?? 0));
      sizes.slice(0, -1).forEach((s) => expect(s).toBeGreaterThanOrEqual(8192));
      sizes.forEach((s) => expect(s).toBeLessThanOrEqual(131072));
      expect(ends.at(-1)).toBe(data.length);
    }
    expect(chunkBoundaries(new Uint8Array(0))).toEqual([]);
  });
});
