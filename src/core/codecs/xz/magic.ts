/**
 * The .xz stream magic on its own: sniffing needs it at start, and container.ts brings the CRC
 * tables with it (built when they load), which only an opened file needs.
 */
export const XZ_MAGIC = Uint8Array.of(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00);

export function isXzMagic(head: Uint8Array): boolean {
  return head.length >= 6 && XZ_MAGIC.every((b, i) => head[i] === b);
}
