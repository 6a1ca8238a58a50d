/** Mean Earth radius (m), IUGG. */
const EARTH_RADIUS = 6_371_008.8;

/** Whether coordinates look like longitude/latitude degrees (every x in ±180, every y in ±90). */
export function looksGeographic(xy: Float64Array): boolean {
  if (xy.length === 0) return false;
  for (let i = 0; i < xy.length; i += 2) if (Math.abs(xy[i]!) > 180 || Math.abs(xy[i + 1]!) > 90) return false;
  return true;
}

export interface Projected {
  readonly xy: Float64Array;
  /** 'metres' after projecting degrees; 'source' when the file's coordinates were already planar. */
  readonly unit: 'metres' | 'source';
}

/**
 * Planar coordinates for areas and perimeters. Degrees go through an equirectangular projection
 * scaled by the cosine of the mean latitude: over one state its area and length errors stay
 * within a few per cent, and Polsby-Popper is a ratio, so a common scale cancels. It is local, not
 * equal-area worldwide: a map spanning tens of degrees of latitude would need a proper projection.
 * Planar input (a state plane, UTM, a test grid) is used as it is.
 */
export function project(xy: Float64Array): Projected {
  if (!looksGeographic(xy)) return { xy, unit: 'source' };
  let lat = 0;
  for (let i = 1; i < xy.length; i += 2) lat += xy[i]!;
  lat /= xy.length / 2;
  const k = (Math.PI / 180) * EARTH_RADIUS;
  const kx = k * Math.cos((lat * Math.PI) / 180);
  const out = new Float64Array(xy.length);
  for (let i = 0; i < xy.length; i += 2) {
    out[i] = xy[i]! * kx;
    out[i + 1] = xy[i + 1]! * k;
  }
  return { xy: out, unit: 'metres' };
}
