import { describe, expect, it } from 'vitest';
import { numericAttributes, parseGraphJson } from './graph.js';

describe('numericAttributes', () => {
  it('lists the attributes that are a number on every node, in the first node’s order, without id', () => {
    const g = parseGraphJson(
      JSON.stringify({
        nodes: [
          { id: 0, GEOID: 'A', TOTPOP: 5, VD: 1, x: 0.5, PART: 3 },
          { id: 1, GEOID: 'B', TOTPOP: 7, VD: 2, x: 1.5, PART: null },
        ],
        links: [],
      }),
    );
    // GEOID is text; PART is null on node 1
    expect(numericAttributes(g)).toEqual(['TOTPOP', 'VD', 'x']);
    expect(numericAttributes(parseGraphJson('{"nodes":[]}'))).toEqual([]);
  });
});
