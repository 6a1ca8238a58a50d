/**
 * The BENDL bundle magic on its own, apart from the bundle reader: the handler's sniff needs it at
 * start, and bendl.ts brings CRC-32C and xz with it (loaded only when a file opens).
 */
export const BENDL_MAGIC = Uint8Array.of(0x42, 0x45, 0x4e, 0x44, 0x4c, 0x00, 0x00, 0x01);

export function isBendlMagic(head: Uint8Array): boolean {
  return head.length >= 8 && BENDL_MAGIC.every((b, i) => head[i] === b);
}
