import { describe, expect, it } from 'vitest';
import type { Opener } from '../helpers/integrity.js';
import { Rng } from './mutate.js';
import { applyFlips, baselineOf, checkFlips, drawFlips, type Baseline } from './oracle.js';
import { TOY_FILE as FILE, toy } from './toy.testkit.js';

async function covered(open: Opener): Promise<Baseline & { kind: 'covered' }> {
  const base = await baselineOf(FILE, 'toy.xorb', open);
  if (base.kind !== 'covered') throw new Error(`toy file not covered: ${base.kind}`);
  return base;
}

describe('silent-corruption oracle', () => {
  it('reports every read path that hands out a flipped covered byte without failing', async () => {
    const open = toy({ checks: false });
    const v = await checkFlips(FILE, 'toy.xorb', await covered(open), [{ at: 2, mask: 0x01 }], open);
    expect(v.silent).toEqual(['cat raw', 'convert hex']);
    expect(v.caught).toBe(0);
  });

  it('counts read paths that stop at the damage as caught, never as silent', async () => {
    const open = toy({ checks: true });
    const base = await covered(open);
    for (let at = 0; at < FILE.length; at++) {
      const v = await checkFlips(FILE, 'toy.xorb', base, [{ at, mask: 0x80 }], open);
      expect(v.silent, `flip at ${at}`).toEqual([]);
      expect(v.caught, `flip at ${at}`).toBe(2);
    }
  });

  it('a flip the read paths never read leaves their output as it was, which is not silent corruption', async () => {
    // The leaky reader ignores the sum byte: flipping it changes nothing it writes.
    const open = toy({ checks: false });
    const v = await checkFlips(FILE, 'toy.xorb', await covered(open), [{ at: FILE.length - 1, mask: 0xff }], open);
    expect(v).toMatchObject({ silent: [], same: 2, caught: 0 });
  });

  it('skips documents whose bytes no check covers', async () => {
    expect(await baselineOf(FILE, 'toy.xorb', toy({ checks: true, coverage: false }))).toEqual({ kind: 'no-coverage' });
  });

  it('leaves out the annotated-structure dump, which shows the bytes as they are by design', async () => {
    const base = await covered(toy({ checks: true }));
    expect([...base.reads.keys()].sort()).toEqual(['cat raw', 'convert hex']);
  });

  it('draws one to three distinct flips, each inside a covered range and changing its byte', () => {
    const ranges = [
      { offset: 10, length: 3 },
      { offset: 100, length: 2 },
    ];
    const inside = new Set([10, 11, 12, 100, 101]);
    const seen = new Set<number>();
    for (let s = 1; s <= 500; s++) {
      const flips = drawFlips(ranges, new Rng(s));
      expect(flips.length).toBeGreaterThanOrEqual(1);
      expect(flips.length).toBeLessThanOrEqual(3);
      expect(new Set(flips.map((f) => f.at)).size).toBe(flips.length);
      const after = applyFlips(new Uint8Array(120), flips);
      const changed = [...after.keys()].filter((i) => after[i] !== 0);
      expect(changed).toEqual(flips.map((f) => f.at).sort((x, y) => x - y));
      expect(changed.every((at) => inside.has(at))).toBe(true);
      for (const at of changed) seen.add(at);
    }
    // Every covered byte is reachable.
    expect([...seen].sort((a, b) => a - b)).toEqual([10, 11, 12, 100, 101]);
  });
});
