import { describe, expect, it } from 'vitest';
import { openFixture, readFixture, readJson } from '../../../../test/helpers/fixtures.js';
import { diffAll, expectNoDifference, openBytes } from '../../../../test/helpers/diff.js';
import { DiffSideError } from '../../ops/diffKit.js';
import { XorbBuilder } from './writer.js';

interface TruthChunk {
  readonly hash: string;
  readonly unpacked_offset_start: number;
  readonly unpacked_offset_end: number;
  readonly uncompressed_size: number;
}

const truth = readJson<{ chunks: TruthChunk[] }>('xorb/02_lz4_text.json').chunks;
const input = readFixture('xorb/02_lz4_text.input.bin');

/** A xorb of the fixture's own chunks (cut where its ground truth says) chosen by index, and extra chunks. */
async function xorbOf(indices: readonly number[], extra: readonly Uint8Array[] = []): Promise<Uint8Array> {
  const b = await XorbBuilder.create('auto', 'full');
  for (const i of indices) b.add(input.subarray(truth[i]!.unpacked_offset_start, truth[i]!.unpacked_offset_end));
  for (const e of extra) b.add(e);
  const built = await b.finish();
  return Uint8Array.from(Buffer.concat(built.parts.map((p) => Buffer.from(p))));
}

describe('xorb diff', () => {
  it('finds no difference between a xorb and itself, nor its footerless form', async () => {
    const summary = await expectNoDifference('xorb/02_lz4_text.xorb', 'xorb/02_lz4_text.nofooter.xorb');
    expect(summary.counts['chunks-shared']).toBe(truth.length);
  });

  it('names the chunk removed and the one added, and the bytes B shares with A', async () => {
    // By construction: B keeps chunks 0–2 of the fixture, loses chunk 3 and gains 5 bytes of its own.
    expect(truth.length).toBe(4);
    const b = await openBytes(await xorbOf([0, 1, 2], [new TextEncoder().encode('hello')]), 'b.xorb');
    const { diffs, summary } = await diffAll(await openFixture('xorb/02_lz4_text.xorb'), b);
    expect(diffs.map((d) => [d.kind, d.data?.index, d.data?.size])).toEqual([
      ['chunk-removed', 3, truth[3]!.uncompressed_size],
      ['chunk-added', 3, 5],
    ]);
    expect(diffs[0]!.data!.hash).toBe(truth[3]!.hash);
    expect(truth.map((c) => c.hash)).not.toContain(diffs[1]!.data!.hash);
    const sharedBytes = truth.slice(0, 3).reduce((s, c) => s + c.uncompressed_size, 0);
    expect(summary).toMatchObject({ differences: 2, counts: { 'chunks-shared': 3, 'shared-bytes': sharedBytes, 'bytes-b': sharedBytes + 5 } });
  });

  it('says the same chunks in another order differ', async () => {
    const { diffs } = await diffAll(await openBytes(await xorbOf([0, 1, 2, 3]), 'a.xorb'), await openBytes(await xorbOf([1, 0, 2, 3]), 'b.xorb'));
    expect(diffs.map((d) => d.kind)).toEqual(['chunk-order']);
  });

  it('refuses to compare a xorb whose chunk fails its hash, naming that side', async () => {
    const damaged = await openFixture('xorb/93_corrupt_payload_none.xorb');
    await expect(diffAll(damaged, await openFixture('xorb/02_lz4_text.xorb'))).rejects.toSatisfy((e: unknown) => e instanceof DiffSideError && e.side === 'A');
  });
});
