import { describe, expect, it } from 'vitest';
import { looksGeographic, project } from './project.js';

describe('project', () => {
  it('leaves planar coordinates alone', () => {
    const xy = Float64Array.from([500000, 4000000, 500100, 4000000]);
    expect(project(xy)).toEqual({ xy, unit: 'source' });
    expect(looksGeographic(Float64Array.from([0, 0, 181, 0]))).toBe(false);
  });

  it('scales degrees of longitude by the cosine of the mean latitude, latitude by 111.195 km', () => {
    // 60° N: a degree of longitude is half a degree of latitude. 2πR/360 with R = 6371.0088 km.
    const { xy, unit } = project(Float64Array.from([10, 59.5, 11, 60.5]));
    expect(unit).toBe('metres');
    const degree = (2 * Math.PI * 6371008.8) / 360;
    expect(xy[2]! - xy[0]!).toBeCloseTo(degree / 2, 3);
    expect(xy[3]! - xy[1]!).toBeCloseTo(degree, 3);
  });
});
