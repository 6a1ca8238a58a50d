import { describe, expect, it } from 'vitest';
import { parseReferencePlan } from './reference.js';

const runs = (p: { values: Uint16Array; lengths: Uint16Array; runs: number; nodes: number }) => ({ values: [...p.values.subarray(0, p.runs)], lengths: [...p.lengths.subarray(0, p.runs)], nodes: p.nodes });

describe('parseReferencePlan', () => {
  it('reads a JSON list, an object with "assignment" (pretty-printed too) and one JSONL line alike', () => {
    const expected = { values: [3, 1, 2], lengths: [2, 1, 1], nodes: 4 };
    expect(runs(parseReferencePlan('[3, 3, 1, 2]'))).toEqual(expected);
    expect(runs(parseReferencePlan('{\n  "assignment": [3, 3, 1, 2]\n}\n'))).toEqual(expected);
    expect(runs(parseReferencePlan('{"assignment":[3,3,1,2],"sample":9}\n'))).toEqual(expected);
  });

  it('refuses several plans, non-integer districts and other JSON, naming the place', () => {
    expect(() => parseReferencePlan('{"assignment":[1]}\n{"assignment":[2]}\n')).toThrow(/2 plans; a reference is one plan/);
    expect(() => parseReferencePlan('[1, 2.5]', 'enacted.json')).toThrow(/enacted\.json assignment\[1\]: district 2\.5 of node 1/);
    expect(() => parseReferencePlan('[1, 70000]')).toThrow(/district 70000/);
    expect(() => parseReferencePlan('{"plan": [1]}')).toThrow(/neither a list/);
    expect(() => parseReferencePlan('[1,')).toThrow(/not JSON/);
  });
});
