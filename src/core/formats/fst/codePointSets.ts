/** Sets of code points as inclusive ranges, and the set algebra a regex class needs (`[^…]`, `&&`, `--`, `~~`). */

export type Ranges = [number, number][];

export const MAX_CP = 0x10ffff;

/** Sorted, overlapping and touching ranges merged. */
export function normalise(ranges: Ranges): Ranges {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Ranges = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

export function complement(ranges: Ranges): Ranges {
  const out: Ranges = [];
  let next = 0;
  for (const [lo, hi] of normalise(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = Math.max(next, hi + 1);
  }
  if (next <= MAX_CP) out.push([next, MAX_CP]);
  return out;
}

export function intersect(a: Ranges, b: Ranges): Ranges {
  return complement([...complement(a), ...complement(b)]);
}

export function subtract(a: Ranges, b: Ranges): Ranges {
  return intersect(a, complement(b));
}

export function symmetricDifference(a: Ranges, b: Ranges): Ranges {
  return normalise([...subtract(a, b), ...subtract(b, a)]);
}

export function single(cp: number): Ranges {
  return [[cp, cp]];
}
