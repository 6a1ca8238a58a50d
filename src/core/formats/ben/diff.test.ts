import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixture, openFixture } from '../../../../test/helpers/fixtures.js';
import { diffAll, expectNoDifference, importTextWith, openBytes } from '../../../../test/helpers/diff.js';
import { jsonlImporters } from './converters.js';
import { NODES_SHOWN, sampleDifference } from './diff.js';
import { jsonlSamples } from './pipeline.js';
import { DiffSideError } from '../../ops/diffKit.js';

const benFromJsonl = jsonlImporters(jsonlSamples).find((i) => i.id === 'ben')!;
const lines = readFileSync(fixture('ben/grid4x4_chain.jsonl'), 'utf8').trim().split('\n');

describe('ben diff', () => {
  it('finds no difference between a file and itself, nor between the BEN and XBEN of one ensemble', async () => {
    const summary = await expectNoDifference('ben/grid4x4_chain.mkv_chain.ben', 'ben/grid4x4_chain.mkv_chain.xben');
    expect(summary.counts).toMatchObject({ 'samples-a': 48, 'samples-b': 48 });
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
      [
        'sample-changed',
        {
          sample: 4,
          changedNodes: 2,
          nodes: [
            { node: 0, a: 1, b: 2 },
            { node: 15, a: 4, b: 3 },
          ],
        },
      ],
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

  it('compares plans run by run as a direct node-by-node comparison of the assignments does, across repeats, variants and plan sizes', async () => {
    // Assignments drawn from a few plans, so consecutive samples repeat (MkvChain counts) and files share plans.
    const plan = fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 12 });
    const ensemble = (pool: number[][]) =>
      fc.array(fc.integer({ min: 0, max: pool.length - 1 }), { minLength: 1, maxLength: 30 }).map((ix) => ix.map((i) => pool[i]!));
    const pair = fc.array(plan, { minLength: 1, maxLength: 4 }).chain((pool) => fc.tuple(ensemble(pool), ensemble(pool)));
    // Every variant, in a plain stream and in an XBEN: each document's checked plans.
    const forms = fc.tuple(fc.constantFrom('standard', 'mkv_chain', 'two_delta'), fc.constantFrom('ben', 'xben'));
    await fc.assert(
      fc.asyncProperty(pair, forms, forms, async ([sa, sb], [va, ca], [vb, cb]) => {
        const file = async (samples: number[][], variant: string, container: string) => {
          const importer = jsonlImporters(jsonlSamples).find((i) => i.id === container)!;
          return openBytes(
            await importTextWith(importer, samples.map((assignment, i) => `${JSON.stringify({ assignment, sample: i + 1 })}\n`).join(''), { variant }),
            `x.${container}`,
          );
        };
        const { diffs } = await diffAll(await file(sa, va, ca), await file(sb, vb, cb));
        const want: unknown[] = [];
        for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
          const [a, b] = [sa[i]!, sb[i]!];
          const nodes = Array.from({ length: Math.max(a.length, b.length) }, (_, node) => ({ node, a: a[node] ?? null, b: b[node] ?? null })).filter(
            (n) => n.a !== n.b,
          );
          if (nodes.length)
            want.push({ sample: i + 1, changedNodes: nodes.length, nodes, ...(a.length === b.length ? {} : { nodesA: a.length, nodesB: b.length }) });
        }
        if (sa.length !== sb.length) want.push({ a: sa.length, b: sb.length });
        expect(diffs.filter((d) => d.kind !== 'variant-changed').map((d) => d.data)).toEqual(want);
      }),
      { numRuns: 40 },
    );
  });

  it('refuses to compare an XBEN whose xz check fails, naming that side', async () => {
    const damaged = await openFixture('ben/negative/flipped_byte.mkv_chain.xben');
    const good = await openFixture('ben/grid4x4_chain.mkv_chain.xben');
    await expect(diffAll(good, damaged)).rejects.toSatisfy((e: unknown) => e instanceof DiffSideError && e.side === 'B');
  });
});
