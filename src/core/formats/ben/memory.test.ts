import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { MemorySource } from '../../io/byteSource.js';
import { Ensemble } from './ensemble.js';
import { benMemory } from './memory.js';
import type { SampleRun } from './pipeline.js';

/** The first `n` runs from `position`, the reader then stopping as a page does. */
async function runs(e: Ensemble, position: number, n: number): Promise<string[]> {
  const out: string[] = [];
  for await (const r of e.from(position)) {
    out.push(describeRun(r));
    if (out.length === n) break;
  }
  return out;
}

const describeRun = (r: SampleRun) => `${r.firstSample}×${r.count}: ${[...r.plan.values.subarray(0, r.plan.runs)].join(',')}`;

describe("a BEN document's memory in the budget", () => {
  it('an XBEN decode parked for the next page is counted, ended on drop, and the pages read the same after', async () => {
    const src = new MemorySource(readFixture('ben/grid4x4_chain.mkv_chain.xben'));
    const e = new Ensemble(src, { format: 'xben', offset: 0, length: src.size }, 'mkv_chain', undefined);
    const memory = benMemory(e);
    const first = await runs(e, 0, 3);
    expect(memory.bytes()).toBeGreaterThan(0);
    memory.drop();
    expect(memory.bytes()).toBe(0);
    expect(await runs(e, 0, 3)).toEqual(first);
    expect(await runs(e, 5, 2)).toEqual(await runs(new Ensemble(src, { format: 'xben', offset: 0, length: src.size }, 'mkv_chain', undefined), 5, 2));
  });

  it('a decode under way is not ended', async () => {
    const src = new MemorySource(readFixture('ben/grid4x4_chain.mkv_chain.xben'));
    const e = new Ensemble(src, { format: 'xben', offset: 0, length: src.size }, 'mkv_chain', undefined);
    const all: string[] = [];
    for await (const r of e.from(0)) {
      all.push(describeRun(r));
      benMemory(e).drop();
    }
    const fresh = new Ensemble(src, { format: 'xben', offset: 0, length: src.size }, 'mkv_chain', undefined);
    const expected: string[] = [];
    for await (const r of fresh.from(0)) expected.push(describeRun(r));
    expect(all).toEqual(expected);
  });
});
