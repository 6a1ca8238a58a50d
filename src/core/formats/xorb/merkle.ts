import { keyedBlake3 } from '../../codecs/blake3.js';
import { hashToString } from './hash.js';

/**
 * The xorb hash (spec xorb.md §5.3): a merkle tree over (chunk hash, size) leaves whose groups
 * are cut where a hash's raw byte 24 is a multiple of 4, so groups hold 3 to 9 nodes (the tail
 * 1 or 2). Each group hashes the text "<child hash in string form> : <size>\n" per child with
 * the internal-node key. One leaf is its own root; a lone tail group is still rehashed.
 */
export const INTERNAL_NODE_KEY = Uint8Array.from([
  1, 126, 197, 199, 165, 71, 41, 150, 253, 148, 102, 102, 180, 138, 2, 230, 93, 221, 83, 111, 55, 199, 109, 210, 248, 99, 82, 230, 74, 83, 113, 63,
]);

const MAX_GROUP = 9;

export interface MerkleNode {
  /** Raw 32 bytes. */
  readonly hash: Uint8Array;
  readonly size: number;
}

export interface MerkleGroup {
  /** Children [from, to) in the level below. */
  readonly from: number;
  readonly to: number;
  readonly node: MerkleNode;
}

export interface MerkleTree {
  /** The xorb hash and total size; the all-zero hash for no leaves. */
  readonly root: MerkleNode;
  /** Level 0 groups the leaves; the last level has one group, the root. Empty for 0 or 1 leaf. */
  readonly levels: readonly (readonly MerkleGroup[])[];
}

/** Length of the group that starts at `from` (the cut rule). */
export function groupLength(nodes: readonly MerkleNode[], from: number): number {
  const remaining = nodes.length - from;
  if (remaining <= 2) return remaining;
  const end = Math.min(MAX_GROUP, remaining);
  for (let j = 2; j < end; j++) if ((nodes[from + j]!.hash[24]! & 3) === 0) return j + 1;
  return end;
}

/** The hashed text of one group, exactly as xet writes it. */
export function groupText(children: readonly MerkleNode[]): string {
  let text = '';
  for (const c of children) text += `${hashToString(c.hash)} : ${c.size}\n`;
  return text;
}

export async function merkleTree(leaves: readonly MerkleNode[]): Promise<MerkleTree> {
  if (leaves.length === 0) return { root: { hash: new Uint8Array(32), size: 0 }, levels: [] };
  const hash = await keyedBlake3(INTERNAL_NODE_KEY);
  const encoder = new TextEncoder();
  const levels: MerkleGroup[][] = [];
  let nodes = leaves;
  while (nodes.length > 1) {
    const groups: MerkleGroup[] = [];
    for (let from = 0; from < nodes.length; ) {
      const to = from + groupLength(nodes, from);
      const children = nodes.slice(from, to);
      const size = children.reduce((s, c) => s + c.size, 0);
      groups.push({ from, to, node: { hash: hash(encoder.encode(groupText(children))), size } });
      from = to;
    }
    levels.push(groups);
    nodes = groups.map((g) => g.node);
  }
  return { root: nodes[0]!, levels };
}
