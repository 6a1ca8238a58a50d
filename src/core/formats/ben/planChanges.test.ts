import { describe, expect, it } from 'vitest';
import { SentPlans, planChanges } from './planChanges.js';

describe('planChanges: a step as the nodes that moved', () => {
  it('names each node whose district differs, with its new district, in node order', () => {
    // hand-checked: nodes 1 and 6 move, node 3 keeps its district
    expect(planChanges([1, 2, 3, 4, 1, 2, 3], [1, 3, 3, 4, 1, 2, 1], 7, 10)).toEqual({ from: 7, nodes: [1, 6], districts: [3, 1] });
  });

  it('an unchanged plan is an empty change, not the whole plan', () => {
    expect(planChanges([5, 5, 6], [5, 5, 6], 2, 0)).toEqual({ from: 2, nodes: [], districts: [] });
  });

  it('gives up (the whole plan is sent) past the limit or when the node counts differ', () => {
    expect(planChanges([1, 1, 1], [2, 2, 1], 1, 1)).toBeUndefined();
    expect(planChanges([1, 1, 1], [2, 2, 1], 1, 2)?.nodes).toEqual([0, 1]);
    expect(planChanges([1, 1], [1, 1, 1], 1, 5)).toBeUndefined();
  });

  it('applied to the plan before, gives the plan after, for random plans', () => {
    let seed = 11;
    const rand = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    for (let t = 0; t < 50; t++) {
      const before = Array.from({ length: 1 + rand(200) }, () => rand(6));
      const after = before.map((d) => (rand(10) === 0 ? rand(6) : d));
      const c = planChanges(before, after, 1, after.length)!;
      const rebuilt = before.slice();
      c.nodes.forEach((n, i) => (rebuilt[n] = c.districts[i]!));
      expect(rebuilt).toEqual(after);
    }
  });
});

describe('SentPlans: the diff bases kept', () => {
  it('keeps the last two samples sent', () => {
    const s = new SentPlans();
    const a = Uint16Array.of(1);
    const b = Uint16Array.of(2);
    const c = Uint16Array.of(3);
    s.add(1, a);
    s.add(2, b);
    expect([s.get(1), s.get(2)]).toEqual([a, b]);
    s.add(3, c);
    expect([s.get(1), s.get(2), s.get(3)]).toEqual([undefined, b, c]);
  });
});
