import { describe, expect, it } from 'vitest';
import { featureProperties } from './featureProperties.js';

describe('featureProperties: what features can be matched to nodes by', () => {
  it('names each property once, in first-seen order, across features', () => {
    const fc = {
      type: 'FeatureCollection',
      features: [{ properties: { GEOID: 'a', POP: 1 } }, { properties: { POP: 2, COUNTY: 'x' } }, { properties: null }, 'junk'],
    };
    expect(featureProperties(fc)).toEqual(['GEOID', 'POP', 'COUNTY']);
  });

  it('reads only the first 64 features', () => {
    const features = Array.from({ length: 65 }, (_, i) => ({ properties: i === 64 ? { LATE: 1 } : { A: i } }));
    expect(featureProperties({ features })).toEqual(['A']);
  });

  it('a value that is no FeatureCollection has none', () => {
    expect([featureProperties(undefined), featureProperties([1]), featureProperties({ features: 'x' })]).toEqual([[], [], []]);
  });
});
