import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, readFixture } from '../../../../test/helpers/fixtures.js';
import { MemorySource } from '../../io/byteSource.js';
import { readLayout } from './header.js';
import { decodeKeysIndex, encodeKeysIndex } from './keysIndexBytes.js';
import { KeysTable } from './keysTable.js';
import { FstReader } from './reader.js';

const FILE = 'fst/medium.map.fst3.fst';
const truth = readFileSync(fixture('fst/medium.map.tsv'), 'utf8').slice(0, -1).split('\n');

async function table(): Promise<KeysTable> {
  const src = new MemorySource(readFixture(FILE));
  return new KeysTable(new FstReader(src, await readLayout(src)));
}

const lines = (rows: readonly { cells: readonly unknown[] }[]) => rows.map((r) => `${String(r.cells[0])}\t${String(r.cells[1])}`);

describe('the keys table saved between opens', () => {
  it('a restored table knows the exact count and pages the rows of the ground truth anywhere', async () => {
    const first = await table();
    expect(await first.count({})).toBe(300_000);
    const restored = await table();
    expect(restored.restore(first.save()!)).toBe(true);
    expect(restored.walkedCount).toBe(300_000);
    for (const from of [120_000, 0, 1023, 1024, 299_995, 150_001]) expect(lines(await restored.page(from, 5))).toEqual(truth.slice(from, from + 5));
  });

  it('pages are served from the restored checkpoints, not by walking from the first key', async () => {
    const first = await table();
    await first.count({});
    const { checkpoints } = decodeKeysIndex(first.save()!, 300_000);
    // Checkpoint 117 moved one key on: a table that walks from it is one row off, and says so.
    const next = Buffer.from(String((await first.page(117 * 1024 + 1, 1))[0]!.cells[2]).replace(/ /g, ''), 'hex');
    const shifted = encodeKeysIndex({ exact: undefined, checkpoints: checkpoints.map((k, i) => (i === 117 ? Uint8Array.from(next) : k)) });
    const restored = await table();
    expect(restored.restore(shifted)).toBe(true);
    expect(lines(await restored.page(120_000, 1))).toEqual(truth.slice(120_001, 120_002));
  });

  it('checkpoints out of key order, more of them than the keys allow, or other bytes are refused', async () => {
    const first = await table();
    await first.count({});
    const key = (s: string) => Uint8Array.from(Buffer.from(s, 'latin1'));
    const refused = [
      encodeKeysIndex({ exact: 300_000, checkpoints: [key('b'), key('a')] }),
      encodeKeysIndex({ exact: 300_000, checkpoints: Array.from({ length: 294 }, (_, i) => key(String(i).padStart(4, '0'))) }),
      encodeKeysIndex({ exact: 300_001, checkpoints: [key('a'), key('b')] }),
      first.save()!.subarray(0, 100),
      Uint8Array.from(Buffer.from('FKC2 and then some bytes')),
    ];
    for (const [i, bytes] of refused.entries()) {
      const t = await table();
      expect([i, t.restore(bytes)]).toEqual([i, false]);
      expect(t.walkedCount).toBeUndefined();
    }
  });
});
