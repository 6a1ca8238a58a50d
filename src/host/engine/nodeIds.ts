import { isLazy, type StructNode } from '../../core/model.js';
import { RpcError } from '../../protocol/rpc.js';

/**
 * A tree node's id is its path from the root ("0", "0.3", "0.3.17"), not a counter: a document
 * closed while idle and opened again (parking.ts) answers the ids its editor already holds, and
 * the same node asked for twice keeps one entry.
 */
export const ROOT_ID = '0';

export function childId(parent: string, index: number): string {
  return `${parent}.${index}`;
}

/** The node at an id's path, walked from a fresh root: what a reopened document has of ids given before. */
export async function nodeAtPath(root: StructNode, id: string, signal?: AbortSignal): Promise<StructNode> {
  const [first, ...steps] = id.split('.');
  if (first !== ROOT_ID || !steps.every((x) => /^\d{1,9}$/.test(x))) throw noNode(id);
  let node = root;
  for (const step of steps) {
    const c = node.children;
    const i = Number(step);
    const next = c === undefined ? undefined : isLazy(c) ? (await c.load(i, 1, signal))[0] : c[i];
    if (!next) throw noNode(id);
    node = next;
  }
  return node;
}

function noNode(id: string): RpcError {
  return new RpcError({ message: `no node ${id}`, code: 'invalid-request' });
}
