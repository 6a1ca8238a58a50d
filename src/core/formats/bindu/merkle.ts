import { type Sha256, sha256Digester, sha256Stream } from '../../codecs/sha256.js';
import type { ByteSource } from '../../io/byteSource.js';
import { scanRange } from '../../io/scan.js';
import type { TaskContext } from '../../model.js';

/**
 * The seal (spec C.9): an RFC 6962 binary SHA-256 tree over the preamble and every whole frame
 * from the Header up to the one before the MerkleTree frame. Leaves are SHA-256(0x00 ‖ bytes),
 * nodes SHA-256(0x01 ‖ left ‖ right), split at the largest power of two below n.
 */
const LEAF = Uint8Array.of(0);
const NODE = Uint8Array.of(1);

/** A SHA-256 stream that has taken the leaf prefix: feed it a leaf's bytes, then digest. */
export async function leafStream(): Promise<Sha256> {
  return (await sha256Stream()).update(LEAF);
}

/** Streams the bytes of one leaf, so a frame of many GB is hashed in bounded memory. */
export async function leafHash(src: ByteSource, offset: number, length: number, ctx: TaskContext): Promise<Uint8Array> {
  const h = await leafStream();
  await scanRange(src, offset, length, ctx, (piece) => h.update(piece), 'Merkle leaf');
  return h.digest();
}

export async function leafHashOf(bytes: Uint8Array): Promise<Uint8Array> {
  return (await sha256Digester())(LEAF, bytes);
}

/** One node of the drawn tree: leaves first, each level above them after. */
export interface TreeNode {
  readonly hash: Uint8Array;
  /** Leaf indexes [from, to) this node covers. */
  readonly from: number;
  readonly to: number;
  readonly children?: readonly [TreeNode, TreeNode];
}

export async function merkleTree(leaves: readonly Uint8Array[]): Promise<TreeNode | undefined> {
  const digest = await sha256Digester();
  const build = (from: number, to: number): TreeNode => {
    if (to - from === 1) return { hash: leaves[from]!, from, to };
    let split = 1;
    while (split * 2 < to - from) split *= 2;
    const left = build(from, from + split);
    const right = build(from + split, to);
    return { hash: digest(NODE, left.hash, right.hash), from, to, children: [left, right] };
  };
  return leaves.length ? build(0, leaves.length) : undefined;
}

export async function merkleRoot(leaves: readonly Uint8Array[]): Promise<Uint8Array> {
  // RFC 6962 defines the empty tree as the hash of nothing.
  return (await merkleTree(leaves))?.hash ?? (await sha256Digester())();
}
