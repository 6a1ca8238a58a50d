export interface BinaryKind {
  format: 'elf' | 'macho' | 'pe';
  arch: string;
  libc?: 'gnu' | 'musl';
}
export function binaryKind(bytes: Uint8Array): BinaryKind;
export function describeKind(kind: BinaryKind): string;
