/**
 * Byte grouping by 4 (spec xorb.md §3.3): byte i of a chunk goes to group i mod 4; the groups are
 * stored one after the other. For n bytes, group k holds ⌊n/4⌋ bytes plus one when k < n mod 4,
 * so the 1 to 3 trailing bytes land in the first groups and group 3 never gets an extra byte.
 */

/** Where each group starts in the grouped buffer, for a chunk of `n` bytes. */
function groupStarts(n: number): [number, number, number, number] {
  const q = n >>> 2;
  const r = n & 3;
  const g1 = q + (r >= 1 ? 1 : 0);
  const g2 = g1 + q + (r >= 2 ? 1 : 0);
  const g3 = g2 + q + (r >= 3 ? 1 : 0);
  return [0, g1, g2, g3];
}

/** Chunk bytes → g0‖g1‖g2‖g3 (the writer's side). */
export function bg4Split(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length);
  const starts = groupStarts(data.length);
  for (let k = 0; k < 4; k++) {
    let o = starts[k]!;
    for (let i = k; i < data.length; i += 4) out[o++] = data[i]!;
  }
  return out;
}

/** g0‖g1‖g2‖g3 → chunk bytes (the reader's side); the chunk length is the grouped length. */
export function bg4Regroup(grouped: Uint8Array): Uint8Array {
  const out = new Uint8Array(grouped.length);
  const starts = groupStarts(grouped.length);
  for (let k = 0; k < 4; k++) {
    let g = starts[k]!;
    for (let i = k; i < out.length; i += 4) out[i] = grouped[g++]!;
  }
  return out;
}
