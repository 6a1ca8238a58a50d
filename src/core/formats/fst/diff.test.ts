import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, openFixture, readFixture } from '../../../../test/helpers/fixtures.js';
import { diffAll, expectNoDifference, importTextWith, openBytes } from '../../../../test/helpers/diff.js';
import { DiffSideError } from '../../ops/diffKit.js';
import { fstImporters } from './importText.js';

const tsvImporter = fstImporters.find((i) => i.accepts.includes('.tsv'))!;
const groundTruth = readFileSync(fixture('fst/small.map.tsv'), 'utf8');

describe('fst diff', () => {
  it('finds no difference between a file and itself, nor between versions 1 and 3 of the same keys', async () => {
    const summary = await expectNoDifference('fst/small.map.fst3.fst', 'fst/small.map.fst1.fst');
    expect(summary.counts['keys-same']).toBe(20);
  });

  it('names the key removed, the value changed and the key added, built from the edited ground truth', async () => {
    // By construction: "ab" removed, "abc" 65536 → 7, "abca" added with 9.
    const edited = groundTruth.replace('ab\t65535\n', '').replace('abc\t65536\n', 'abc\t7\nabca\t9\n');
    expect(edited).not.toBe(groundTruth);
    const b = await openBytes(await importTextWith(tsvImporter, edited, { version: 3 }), 'b.fst');
    const { diffs, summary } = await diffAll(await openFixture('fst/small.map.fst3.fst'), b);
    expect(diffs.map((d) => [d.kind, d.data])).toEqual([
      ['key-removed', { key: 'ab', value: '65535' }],
      ['value-changed', { key: 'abc', a: '65536', b: '7' }],
      ['key-added', { key: 'abca', value: '9' }],
    ]);
    expect(summary).toMatchObject({ differences: 3, counts: { 'key-removed': 1, 'key-added': 1, 'value-changed': 1, 'keys-same': 18 } });
  });

  it('refuses to compare a file whose checksum fails, naming that side', async () => {
    const bytes = readFixture('fst/small.map.fst3.fst').slice();
    bytes[30] = bytes[30]! ^ 0x01;
    const damaged = await openBytes(bytes, 'damaged.fst');
    await expect(diffAll(await openFixture('fst/small.map.fst3.fst'), damaged)).rejects.toSatisfy((e: unknown) => e instanceof DiffSideError && e.side === 'B');
  });
});
