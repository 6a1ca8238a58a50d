import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../errors.js';
import { parsePermutation } from './graph.js';
import { NodePermuter, composePermutations, invertPermutation, isIdentity, permutationJson } from './permute.js';
import { RunBuffer, expand } from './plan.js';

const source = { noun: 'the node map', field: 'map.json' };
const permuted = (p: NodePermuter, a: number[]) => Array.from(expand(p.apply(new RunBuffer().fromAssignment(a), 1)));

/** A random permutation of 0..n−1 (Fisher–Yates over fast-check's numbers). */
const permutation = fc.integer({ min: 1, max: 40 }).chain((n) =>
  fc.array(fc.nat(), { minLength: n, maxLength: n }).map((r) => {
    const p = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = r[i]! % (i + 1);
      [p[i], p[j]] = [p[j]!, p[i]!];
    }
    return Uint32Array.from(p);
  }),
);

describe('node permutations', () => {
  it('moves node old to position new (spec §7: new_assignment[new] = old_assignment[old])', () => {
    // old → new: 0→2, 1→0, 2→1; old plan [10, 20, 30] puts 10 at 2, 20 at 0, 30 at 1.
    expect(permuted(new NodePermuter(Uint32Array.from([2, 0, 1]), source), [10, 20, 30])).toEqual([20, 30, 10]);
  });

  it('applied then inverted gives the plan back; applied twice then inverted twice too (random maps and plans)', () => {
    fc.assert(
      fc.property(permutation, fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 40, maxLength: 40 }), (p, values) => {
        const a = values.slice(0, p.length);
        const forward = new NodePermuter(p, source);
        const inverse = new NodePermuter(invertPermutation(p), source);
        // The expected order computed directly from the definition.
        const expected: number[] = [];
        a.forEach((v, old) => (expected[p[old]!] = v));
        expect(permuted(forward, a)).toEqual(expected);
        expect(permuted(inverse, permuted(forward, a))).toEqual(a);
        expect(permuted(inverse, permuted(inverse, permuted(forward, permuted(forward, a))))).toEqual(a);
        expect(isIdentity(composePermutations(p, invertPermutation(p)))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('a composed map does what its two maps do one after the other', () => {
    fc.assert(
      fc.property(permutation, fc.nat(), (p, seed) => {
        const q = Uint32Array.from(p, (_, i) => (i + seed) % p.length);
        const a = Array.from(p, (_, i) => i % 7);
        expect(permuted(new NodePermuter(composePermutations(p, q), source), a)).toEqual(
          permuted(new NodePermuter(q, source), permuted(new NodePermuter(p, source), a)),
        );
      }),
    );
  });

  it("writes the map upstream's way, and graph.ts reads it back", () => {
    const p = Uint32Array.from([1, 2, 0]);
    const json = permutationJson(p, { ordering_method: 'key', key: 'GEOID20' });
    expect(JSON.parse(json)).toEqual({ ordering_method: 'key', key: 'GEOID20', node_permutation_old_to_new: { '0': 1, '1': 2, '2': 0 } });
    expect(Array.from(parsePermutation(json))).toEqual([1, 2, 0]);
  });

  it("refuses a plan whose node count differs from the map's, naming the sample and the map", () => {
    const p = new NodePermuter(Uint32Array.from([1, 0, 2]), source);
    expect(() => p.apply(new RunBuffer().fromAssignment([1, 2]), 4)).toThrow(FormatError);
    expect(() => p.apply(new RunBuffer().fromAssignment([1, 2]), 4)).toThrow('map.json: sample 4 assigns 2 nodes, the node map has 3');
  });
});
