import { describe, expect, it } from 'vitest';
import { readJson } from '../../../../test/helpers/fixtures.js';
import { hashFromString, hashToString } from './hash.js';
import { groupText, merkleTree } from './merkle.js';

interface Truth {
  xorb_hash: string;
  chunks: { hash: string; uncompressed_size: number }[];
  merkle_levels: { groups: { children: [number, number]; hash: string; input_text: string; size: number }[] }[];
}

const leavesOf = (t: Truth) => t.chunks.map((c) => ({ hash: hashFromString(c.hash)!, size: c.uncompressed_size }));

describe('the xorb merkle tree', () => {
  it.each(['01_none_only', '02_lz4_text', '03_bg4_float32', '05_single_chunk'])(
    '%s: every level, group text, hash and size equal the reference',
    async (name) => {
      const truth = readJson<Truth>(`xorb/${name}.json`);
      const leaves = leavesOf(truth);
      const tree = await merkleTree(leaves);
      expect(hashToString(tree.root.hash)).toBe(truth.xorb_hash);
      const levels = tree.levels.map((groups, l) => ({
        groups: groups.map((g) => ({
          children: [g.from, g.to],
          hash: hashToString(g.node.hash),
          input_text: groupText(l === 0 ? leaves.slice(g.from, g.to) : tree.levels[l - 1]!.slice(g.from, g.to).map((x) => x.node)),
          size: g.node.size,
        })),
      }));
      expect(levels).toEqual(truth.merkle_levels.map((l) => ({ groups: l.groups })));
    },
  );

  it('test vector C: 9 leaves → groups [0,3) and [3,9), then the root', async () => {
    const lines = `031706b9f01461dab06401d50e85a2b508eadd54ba1ca8778dba8a691447481a : 30000
eaef7e5ba1772ce809305c661d356b19cf9efd7ebf39579639ad90315258ae4f : 64000
2ad5f92645e0de7ebc26702060fdf8cdaf95afd5985f074b490f7432160dbd9c : 8192
8b01e1a9358251a3799726547cf8b097f1c7138d6de648e3ee60a62b66ff289f : 16384
0bb9e72639b8098de2e07d7cd0e3f504db84538cc8a574ee190aebe74a67b391 : 12345
1033220ecbde93fef3c96d389e2726efe3af7d1ba42f5d145a2ae9b1632fa763 : 100
8fcab498788369e29f6503b8dec3b0809603460c942f45ee21f05cfd87cbcbea : 3
54dfb698ba0dbf7dd348cac86c1686d0c6f08d8cead882f35041071566371e9d : 131072
d4e79e639162414f389161d60ae191d809a02ecfcdd4fb8ea714926560fa592e : 50001`.split('\n');
    const leaves = lines.map((l) => ({ hash: hashFromString(l.split(' : ')[0]!)!, size: Number(l.split(' : ')[1]) }));
    const tree = await merkleTree(leaves);
    expect(tree.levels[0]!.map((g) => [g.from, g.to, hashToString(g.node.hash), g.node.size])).toEqual([
      [0, 3, '571d8183bb5eef906a2ee5587bbbe7108f1a776ece2a955a109aa9864704e17d', 102192],
      [3, 9, '312e83b9697954cff34da9af9f6c02a46c57731f7d9927c73e7e64a21439f58e', 209905],
    ]);
    expect([hashToString(tree.root.hash), tree.root.size]).toEqual(['01ef2d0e063bf292206779f449274722beb0efe822afb27fe0082d2b4409c845', 312097]);
  });

  it('a single leaf is its own root; no leaves give the all-zero hash', async () => {
    const leaf = { hash: Uint8Array.from({ length: 32 }, (_, i) => i), size: 5 };
    expect(await merkleTree([leaf])).toEqual({ root: leaf, levels: [] });
    expect((await merkleTree([])).root.hash).toEqual(new Uint8Array(32));
  });
});
