import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../errors.js';
import { RunBuffer, expand } from './plan.js';
import { CanonicalLabels } from './relabel.js';

const relabel = (labels: CanonicalLabels, a: number[]) => Array.from(expand(labels.apply(new RunBuffer().fromAssignment(a), 1)));

/** Same partition: two nodes share a district before exactly when they share one after. */
function samePartition(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) for (let j = i + 1; j < a.length; j++) if ((a[i] === a[j]) !== (b[i] === b[j])) return false;
  return a.length === b.length;
}

describe('canonical district labels', () => {
  it("numbers districts by first appearance from 1: the issue's example", () => {
    expect(relabel(new CanonicalLabels(), [2, 3, 1, 4, 5, 5, 3, 4, 2])).toEqual([1, 2, 3, 4, 5, 5, 2, 4, 1]);
  });

  it('starts afresh for each plan (the labels of one plan do not leak into the next)', () => {
    const labels = new CanonicalLabels();
    expect(relabel(labels, [7, 7, 9])).toEqual([1, 1, 2]);
    expect(relabel(labels, [9, 0, 7])).toEqual([1, 2, 3]);
  });

  it('keeps the partition, numbers first appearances 1, 2, 3, … and is idempotent (random plans)', () => {
    const labels = new CanonicalLabels();
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 65535 }), fc.integer({ min: 0, max: 4 })), { minLength: 1, maxLength: 60 }), (a) => {
        const b = relabel(labels, a);
        expect(samePartition(a, b)).toBe(true);
        const firsts = b.filter((v, i) => b.indexOf(v) === i);
        expect(firsts).toEqual(firsts.map((_, i) => i + 1));
        expect(relabel(labels, b)).toEqual(b);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps runs longer than 65535 nodes whole (split on the wire, one district)', () => {
    const a = [...new Array<number>(70000).fill(4), 2];
    const b = relabel(new CanonicalLabels(), a);
    expect(b.length).toBe(70001);
    expect(b[0]).toBe(1);
    expect(b[69999]).toBe(1);
    expect(b[70000]).toBe(2);
  });

  it('refuses a plan with 65536 distinct districts (no u16 label is left for the last), naming the sample', () => {
    const a = Array.from({ length: 65536 }, (_, i) => i);
    const labels = new CanonicalLabels();
    const err = (() => {
      try {
        labels.apply(new RunBuffer().fromAssignment(a), 7);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(FormatError);
    expect((err as FormatError).field).toBe('sample 7');
    expect(relabel(labels, a.slice(0, 65535)).at(-1)).toBe(65535);
  });
});
