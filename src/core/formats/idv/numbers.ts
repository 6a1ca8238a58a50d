/**
 * The fixed-width number kinds of a block payload (spec §9): each is stored as a little-endian
 * array of its typed array's elements, so reading and writing share one table.
 */
export const NUMBER_ARRAYS = {
  i8: Int8Array,
  u8: Uint8Array,
  i16: Int16Array,
  u16: Uint16Array,
  i32: Int32Array,
  u32: Uint32Array,
  f32: Float32Array,
  f64: Float64Array,
} as const;

export type NumberKind = keyof typeof NUMBER_ARRAYS;

export const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Reverses the bytes of each `width`-byte element in place: the host's order to little-endian, or back, on a big-endian host. */
export function swapEach(bytes: Uint8Array, width: number): void {
  for (let i = 0; i < bytes.length; i += width) bytes.subarray(i, i + width).reverse();
}
