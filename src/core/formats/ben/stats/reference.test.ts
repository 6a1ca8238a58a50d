import { describe, expect, it } from 'vitest';
import { parseReferenceFile, parseReferencePlan, referenceFromAttribute } from './reference.js';

const runs = (p: { values: Uint16Array; lengths: Uint16Array; runs: number; nodes: number }) => ({
  values: [...p.values.subarray(0, p.runs)],
  lengths: [...p.lengths.subarray(0, p.runs)],
  nodes: p.nodes,
});

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

describe('parseReferenceFile, referenceFromAttribute', () => {
  const ids = ['53001', '53003', '53005', '53007'];
  it('CSV node,district by node id, in any order, a header allowed; JSON as parseReferencePlan', () => {
    expect(runs(parseReferenceFile('GEOID,CD\r\n53005,1\r\n53001,3\r\n53007,2\r\n"53003",3\r\n', ids))).toEqual({
      values: [3, 1, 2],
      lengths: [2, 1, 1],
      nodes: 4,
    });
    expect(runs(parseReferenceFile('[3, 3, 1, 2]', ids))).toEqual({ values: [3, 1, 2], lengths: [2, 1, 1], nodes: 4 });
    // a graph without ids: node indexes
    expect(runs(parseReferenceFile('0,5\n1,5\n', [undefined, undefined]))).toEqual({ values: [5], lengths: [2], nodes: 2 });
  });

  it('refuses an unknown node, a node twice, a node left out and a bad district, naming the line', () => {
    expect(() => parseReferenceFile('53001,1\n99999,2\n', ids, 'cd.csv')).toThrow(/cd\.csv line 2: "99999" is no node's id/);
    expect(() => parseReferenceFile('53001,1\n53001,2\n', ids)).toThrow(/line 2: node "53001" is given a district twice/);
    expect(() => parseReferenceFile('53001,1\n53003,1\n53005,1\n', ids)).toThrow(/node "53007" \(index 3\) has no district/);
    expect(() => parseReferenceFile('53001,1\n53003,x1\n', ids)).toThrow(/line 2: district "x1"/);
  });

  it('an attribute of the nodes: integers, or digit strings as shapefiles write CD columns', () => {
    expect(runs(referenceFromAttribute([{ CD: 2 }, { CD: '02' }, { CD: 1 }], 'CD'))).toEqual({ values: [2, 1], lengths: [2, 1], nodes: 3 });
    expect(() => referenceFromAttribute([{ CD: 2 }, {}], 'CD')).toThrow(/graph nodes\[1\]\.CD: attribute "CD" is missing on node 1/);
    expect(() => referenceFromAttribute([{ CD: 2.5 }], 'CD')).toThrow(/district 2\.5 of node 0/);
  });
});
