/**
 * Unsigned LEB128: 7 bits a byte, low bits first, the high bit set on every byte but the last (xz's
 * multibyte integers are the same). Written out here so that hostile files are not built with the
 * encoder of the reader they test.
 */
export function leb128(value: bigint | number): number[] {
  let v = BigInt(value);
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
}
