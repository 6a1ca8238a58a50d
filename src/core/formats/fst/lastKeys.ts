import { throwIfAborted } from '../../errors.js';
import { corrupt, FstNode, u64 } from './node.js';
import type { FstReader } from './reader.js';

/** One key found walking backwards, with what a table row needs. */
export interface KeyAt {
  readonly key: Uint8Array;
  readonly hi: number;
  readonly lo: number;
  /** The final node the key ends in: its first byte and its state byte. */
  readonly start: number;
  readonly addr: number;
}

const TWO32 = 4294967296;

/**
 * Keys `[total - skip - take, total - skip)` in ascending order, found by walking the fst from its
 * largest transitions down: the `skip + take` keys at the end of the order cost as little as the
 * first ones do forwards, so End in a table of millions of keys does not walk them all. Rows are
 * placed by counting from the end, so callers use this only where the key count is exact.
 * Addresses strictly decrease along every edge (checked here too), so the walk ends on any input.
 */
export async function lastKeys(reader: FstReader, skip: number, take: number, signal?: AbortSignal): Promise<KeyAt[]> {
  const found: KeyAt[] = [];
  if (take <= 0) return found;
  const nodes: FstNode[] = [await reader.node(reader.root)];
  const next: number[] = [nodes[0]!.ntrans - 1];
  const his: number[] = [0];
  const los: number[] = [0];
  const key: number[] = [];
  let passed = 0;
  let steps = 0;
  for (let d = 0; d >= 0 && found.length < take; ) {
    if ((++steps & 0xfff) === 0) throwIfAborted(signal);
    const node = nodes[d]!;
    const i = next[d]!;
    if (i < 0) {
      // Every longer key below this node came first: the node's own key is next, going down.
      if (node.isFinal && passed++ >= skip) {
        const l = los[d]! + node.finalLo;
        const carry = l >= TWO32 ? 1 : 0;
        found.push({
          key: Uint8Array.from(key.slice(0, d)),
          hi: (his[d]! + node.finalHi + carry) >>> 0,
          lo: l - carry * TWO32,
          start: node.start,
          addr: node.addr,
        });
      }
      d--;
      continue;
    }
    next[d] = i - 1;
    const t = node.target(i);
    if (t !== 0 && t >= node.start) throw corrupt(node.addr, `transition ${i} points forwards to ${t}`);
    const child = t === 0 ? FstNode.at(null, 0, reader.version) : await reader.node(t);
    node.output(i);
    const l = los[d]! + u64.lo;
    const carry = l >= TWO32 ? 1 : 0;
    key[d] = node.input(i);
    d++;
    nodes[d] = child;
    next[d] = child.ntrans - 1;
    los[d] = l - carry * TWO32;
    his[d] = (his[d - 1]! + u64.hi + carry) >>> 0;
  }
  return found.reverse();
}
