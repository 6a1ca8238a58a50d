import { describe, expect, it } from 'vitest';
import { listFixtures, readFixture } from '../../../../test/helpers/fixtures.js';
import { FormatError } from '../../errors.js';
import { MemorySource } from '../../io/byteSource.js';
import type { Check, FormatDocument } from '../../model.js';
import { fstHandler } from './handler.js';
import { maskChecksum } from './header.js';
import { crc32c } from '../../codecs/crc32c.js';

async function open(bytes: Uint8Array): Promise<FormatDocument> {
  return fstHandler.open(new MemorySource(bytes), {});
}

async function verdict(bytes: Uint8Array): Promise<string[]> {
  const out: Check[] = [];
  for await (const c of (await open(bytes)).verify({})) out.push(c);
  for (const c of out.filter((x) => x.status === 'fail' || x.status === 'warn')) expect(c.offset, `${c.name}: ${c.detail}`).toBeTypeOf('number');
  return out.filter((c) => c.status === 'fail' || c.status === 'warn').map((c) => `${c.status} ${c.name}`);
}

/**
 * What deep verify says about each corrupt fixture, from what its EXPECTED rows imply: the
 * reference readers either fail (root outside the file, CRC) or stream content that differs
 * from the truth. Where the damage leaves a structurally valid fst (a flipped output or input
 * byte in v1/v2, or with the CRC recomputed), no reader can tell without the original; the
 * deep walk still catches what breaks a rule (a count, an undecodable node, unpushed outputs).
 */
const EXPECTED: Record<string, string[]> = {
  'bad-len': ['warn key count'],
  'bad-root': ['fail root address'],
  'bad-root-recrc': ['fail root address'],
  'flip-crc': ['fail checksum'],
  'flip-mid': [],
  'flip-first-node-byte': [],
  'trailing-zero': ['fail root address'],
  'trunc-half': ['fail root address'],
  trunc1: ['fail root address'],
  trunc4: ['fail root address'],
};

const SPECIAL: Record<string, string[]> = {
  // The CRC was recomputed: the walk finds a node whose outputs were not pushed up.
  'wide.map.fst3.flip-mid-recrc.fst': ['warn outputs'],
  'wide.map.fst3.flip-mid.fst': ['fail checksum', 'warn outputs'],
  // A valid fst holding one other key: nothing breaks a rule.
  'small.map.fst3.flip-mid-recrc.fst': [],
  // Byte 17 makes the node at 18 undecodable: 40 keys below it are lost.
  'wide.map.fst3.flip-first-node-byte.fst': ['fail checksum', 'fail nodes', 'warn key count'],
};

describe('fst deep verify on every corrupt fixture', () => {
  const files = listFixtures('fst/corrupt', ['.fst']).filter((f) => !/header-only|version9/.test(f));

  it.each(files.map((f) => [f]))('%s', async (file) => {
    const name = file.split('/').pop()!;
    const variant = /\.(fst\d|vellum\d)\.(.+)\.fst$/.exec(name)![2]!;
    let want = SPECIAL[name] ?? [...EXPECTED[variant]!];
    // A v3 file damaged without recomputing the CRC also fails its checksum.
    if (name.includes('.fst3.') && !SPECIAL[name] && !/recrc|flip-crc/.test(variant)) want = ['fail checksum', ...want].sort();
    expect((await verdict(readFixture(file))).sort()).toEqual([...want].sort());
  });
});

describe('fst deep verify on hand-made damage', () => {
  /** A v1 file around the given node bytes, root = last byte, with the given footer count. */
  function file(nodes: number[], count: number, version = 1): Uint8Array {
    const body = [...u64(version), ...u64(0), ...nodes, ...u64(count), ...u64(16 + nodes.length - 1)];
    if (version < 3) return Uint8Array.from(body);
    const crc = maskChecksum(crc32c(Uint8Array.from(body)));
    return Uint8Array.from([...body, crc & 255, (crc >>> 8) & 255, (crc >>> 16) & 255, crc >>> 24]);
  }
  function u64(n: number): number[] {
    return Array.from({ length: 8 }, (_, i) => (i < 4 ? (n >>> (8 * i)) & 255 : 0));
  }

  it('a transition whose delta reaches past the start of the file is a located error, not a read out of bounds', async () => {
    // OneTrans to 'a' with delta 200 at node start 16.
    const bytes = file([200, 0x10, 0x80 | 5], 1);
    const found = await verdict(bytes);
    expect(found).toContain('fail nodes');
    const doc = await open(bytes);
    const err = await doc.tables[0]!.page(0, 10).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).offset).toBe(16);
  });

  it('pack widths above 8, counts larger than the node data and unsorted transitions are caught', async () => {
    expect(await verdict(file([0x00, 0x9f, 0x80 | 5], 1))).toContain('fail nodes'); // root OneTrans widths 9/15
    expect(await verdict(file([0, 0, 0x10, 60 /* n=60 in state */], 1))).toEqual(['fail nodes']);
    // Root AnyTrans with inputs b, a (descending): out of order.
    expect(await verdict(file([0, 0, 0x61, 0x62, 0x10, 0x02], 2))).toContain('fail nodes');
  });

  it('a v2 index that disagrees with the transitions is caught', async () => {
    const n = 33;
    const inputs = Array.from({ length: n }, (_, i) => 0x20 + i);
    const index = new Array(256).fill(255);
    inputs.forEach((b, i) => (index[b] = i));
    index[0x20] = 7; // wrong
    // AnyTrans with 33 transitions to EMPTY: deltas (33 × 1 byte, all 0), inputs descending in memory, index, pack, count in state.
    const nodes = [...new Array(n).fill(0), ...[...inputs].reverse(), ...index, 0x10, n];
    expect(await verdict(file(nodes, n, 2))).toContain('fail nodes');
    index[0x20] = 0;
    expect(await verdict(file([...new Array(n).fill(0), ...[...inputs].reverse(), ...index, 0x10, n], n, 2))).toEqual([]);
  });
});
