import { FormatError } from '../../errors.js';
import { type Plan, RunBuffer, expand } from './plan.js';

/**
 * Node permutations (spec §7) as arrays old index → new index, and their application to plans:
 * `new_assignment[new] = old_assignment[old]`. A map's bijection over 0..N−1 is checked where it
 * is read (graph.ts parsePermutation); its length against each plan here.
 */
export class NodePermuter {
  private readonly out = new RunBuffer();
  private before: Uint16Array = new Uint16Array(0);
  private after: Uint16Array = new Uint16Array(0);

  /** `source` names where the order came from in errors: the node map, or the graph sorted by an attribute. */
  constructor(
    private readonly oldToNew: Uint32Array,
    private readonly source: { readonly noun: string; readonly field: string },
  ) {}

  /** The plan in the new node order; valid until the next call. `sample` names the plan in an error. */
  apply(p: Plan, sample: number): Plan {
    const n = this.oldToNew.length;
    if (p.nodes !== n)
      throw new FormatError('bad-input', `sample ${sample} assigns ${p.nodes} nodes, ${this.source.noun} has ${n}`, { field: this.source.field });
    this.before = expand(p, this.before);
    if (this.after.length < n) this.after = new Uint16Array(n);
    for (let i = 0; i < n; i++) this.after[this.oldToNew[i]!] = this.before[i]!;
    return this.out.fromAssignment(this.after, n);
  }
}

export function invertPermutation(oldToNew: Uint32Array): Uint32Array {
  const inv = new Uint32Array(oldToNew.length);
  for (let i = 0; i < oldToNew.length; i++) inv[oldToNew[i]!] = i;
  return inv;
}

/** `first` then `then`: old index → index after both. */
export function composePermutations(first: Uint32Array, then: Uint32Array): Uint32Array {
  if (first.length !== then.length)
    throw new FormatError('bad-input', `node maps of ${first.length} and ${then.length} nodes do not compose`, { field: 'node_permutation_map.json' });
  return first.map((mid) => then[mid]!);
}

export function isIdentity(p: Uint32Array): boolean {
  return p.every((v, i) => v === i);
}

/**
 * node_permutation_map.json as upstream writes it: the map under `node_permutation_old_to_new`
 * with string keys, and the informational keys it knows (`ordering_method`, `key`).
 */
export function permutationJson(oldToNew: Uint32Array, info: { readonly ordering_method?: string; readonly key?: string } = {}): string {
  const map: Record<string, number> = {};
  oldToNew.forEach((v, i) => (map[String(i)] = v));
  return JSON.stringify({ ...info, node_permutation_old_to_new: map });
}
