import type { PlanChanges } from '../../views.js';

/**
 * A step of the chain as the webview needs it: the nodes whose district differs between the plan
 * it holds and the next, with their new districts. A chain step moves a few nodes, so this is a
 * few hundred numbers where the whole plan is one per node (150 000 at state scale: the round trip
 * that held playing to 4.7 steps/s). Undefined when the plans differ in size or in more than
 * `limit` nodes: then the whole plan is smaller or as cheap.
 */
export function planChanges(before: ArrayLike<number>, after: ArrayLike<number>, from: number, limit: number): PlanChanges | undefined {
  if (before.length !== after.length) return undefined;
  const nodes: number[] = [];
  const districts: number[] = [];
  for (let n = 0; n < after.length; n++) {
    if (before[n] === after[n]) continue;
    if (nodes.length >= limit) return undefined;
    nodes.push(n);
    districts.push(after[n]!);
  }
  return { from, nodes, districts };
}

/**
 * The last plans the plan panel sent, by sample: the webview names the one it holds, and a step
 * is usually from the plan sent just before. Two are kept, so a request superseded in the webview
 * (its answer dropped) does not cost the diff base of the next.
 */
export class SentPlans {
  private readonly kept: { sample: number; values: Uint16Array }[] = [];

  get(sample: number): Uint16Array | undefined {
    return this.kept.find((p) => p.sample === sample)?.values;
  }

  add(sample: number, values: Uint16Array): void {
    if (this.get(sample)) return;
    this.kept.unshift({ sample, values });
    this.kept.length = Math.min(this.kept.length, 2);
  }
}
