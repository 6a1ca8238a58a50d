import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, openFixture } from '../../../../test/helpers/fixtures.js';
import { diffAll, importTextWith, openBytes } from '../../../../test/helpers/diff.js';
import { jsonlImporters } from './converters.js';
import { NODES_SHOWN, sampleDifference } from './diff.js';
import { jsonlSamples } from './pipeline.js';
import { DiffSideError } from '../../ops/diffKit.js';

const benFromJsonl = jsonlImporters(jsonlSamples).find((i) => i.id === 'ben')!;
const lines = readFileSync(fixture('ben/grid4x4_chain.jsonl'), 'utf8').trim().split('\n');

describe('ben diff', () => {
  it('finds no difference between a file and itself, nor between the BEN and XBEN of one ensemble', async () => {
    const ben = await openFixture('ben/grid4x4_chain.mkv_chain.ben');
    expect((await diffAll(ben, ben)).summary.differences).toBe(0);
    const r = await diffAll(ben, await openFixture('ben/grid4x4_chain.mkv_chain.xben'));
    expect(r.diffs).toEqual([]);
    expect(r.summary.counts).toMatchObject({ 'samples-a': 48, 'samples-b': 48 });
  });

  it('names the changed sample and its nodes, and the lost sample, built from the edited ground truth', async () => {
    // Sample 4 repeats sample 3 in the fixture; here nodes 0 and 15 of sample 4 move, and the last sample goes.
    const edited = lines.slice(0, -1).map((l) => {
      const s = JSON.parse(l) as { assignment: number[]; sample: number };
      if (s.sample === 4) {
        expect(s.assignment[0]).toBe(1);
        expect(s.assignment[15]).toBe(4);
        s.assignment[0] = 2;
        s.assignment[15] = 3;
      }
      return JSON.stringify(s);
    });
    const b = await openBytes(await importTextWith(benFromJsonl, `${edited.join('\n')}\n`), 'b.ben');
    const { diffs, summary } = await diffAll(await openFixture('ben/grid4x4_chain.mkv_chain.ben'), b);
    expect(diffs.map((d) => [d.kind, d.data])).toEqual([
      ['sample-changed', { sample: 4, changedNodes: 2, nodes: [{ node: 0, a: 1, b: 2 }, { node: 15, a: 4, b: 3 }] }],
      ['sample-count-changed', { a: 48, b: 47 }],
    ]);
    expect(summary.differences).toBe(2);
  });

  it('names a variant change, with the samples the same', async () => {
    const { diffs } = await diffAll(await openFixture('ben/grid4x4_chain.mkv_chain.ben'), await openFixture('ben/grid4x4_chain.standard.ben'));
    expect(diffs.map((d) => [d.kind, d.data])).toEqual([['variant-changed', { a: 'mkv_chain', b: 'standard' }]]);
  });

  it('lists the first 20 changed nodes of a sample and counts the rest', () => {
    const a = { sample: 9, assignment: Array.from({ length: 25 }, () => 1) };
    const b = { sample: 9, assignment: Array.from({ length: 25 }, () => 2) };
    const d = sampleDifference(a, b)!;
    expect(NODES_SHOWN).toBe(20);
    expect(d.data).toMatchObject({ sample: 9, changedNodes: 25 });
    expect((d.data!.nodes as unknown[]).length).toBe(20);
    expect(d.text).toContain('and 5 more');
  });

  it('refuses to compare an XBEN whose xz check fails, naming that side', async () => {
    const damaged = await openFixture('ben/negative/flipped_byte.mkv_chain.xben');
    const good = await openFixture('ben/grid4x4_chain.mkv_chain.xben');
    await expect(diffAll(good, damaged)).rejects.toSatisfy((e: unknown) => e instanceof DiffSideError && e.side === 'B');
  });
});
