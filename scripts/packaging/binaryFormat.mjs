// What a native addon is built for, read from its header: the object format (ELF, Mach-O, PE),
// the CPU and, for ELF, the C library it links (glibc or musl). The package check compares this
// with the VSIX's target, so an addon that would fail to load on its platform never ships.

const ELF_MACHINES = { 0x3e: 'x64', 0xb7: 'arm64' };
const MACHO_CPUS = { 0x01000007: 'x64', 0x0100000c: 'arm64' };
const PE_MACHINES = { 0x8664: 'x64', 0xaa64: 'arm64' };

const hex = (n) => `0x${n.toString(16)}`;

/**
 * @param {Uint8Array} bytes the whole addon
 * @returns {{ format: 'elf' | 'macho' | 'pe', arch: string, libc?: 'gnu' | 'musl' }}
 */
export function binaryKind(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 64) throw new Error(`too short for an object file (${bytes.length} bytes)`);
  if (view.getUint32(0) === 0x7f454c46) return elfKind(bytes, view);
  // 64-bit Mach-O, little-endian (MH_MAGIC_64 stored LE): both Apple CPUs are little-endian.
  if (view.getUint32(0, true) === 0xfeedfacf) {
    const cpu = view.getUint32(4, true);
    return { format: 'macho', arch: MACHO_CPUS[cpu] ?? `cputype ${hex(cpu)}` };
  }
  if (view.getUint16(0) === 0x4d5a) {
    const pe = view.getUint32(0x3c, true);
    if (pe + 6 > bytes.length || view.getUint32(pe) !== 0x50450000) throw new Error(`MZ header without a PE signature at offset ${pe}`);
    const machine = view.getUint16(pe + 4, true);
    return { format: 'pe', arch: PE_MACHINES[machine] ?? `machine ${hex(machine)}` };
  }
  throw new Error(`not ELF, Mach-O (64-bit) or PE: starts ${Buffer.from(bytes.subarray(0, 4)).toString('hex')}`);
}

/** ELF64 little-endian: e_machine, then the C library from PT_INTERP or the DT_NEEDED names. */
function elfKind(bytes, view) {
  if (bytes[4] !== 2 || bytes[5] !== 1) throw new Error(`ELF class ${bytes[4]} data ${bytes[5]}: expected 64-bit little-endian`);
  const machine = view.getUint16(18, true);
  const arch = ELF_MACHINES[machine] ?? `e_machine ${hex(machine)}`;
  const libc = elfLibc(bytes, view);
  return libc ? { format: 'elf', arch, libc } : { format: 'elf', arch };
}

const num = (view, at) => Number(view.getBigUint64(at, true));

function elfLibc(bytes, view) {
  const phoff = num(view, 32);
  const phentsize = view.getUint16(54, true);
  const phnum = view.getUint16(56, true);
  const headers = [];
  for (let i = 0; i < phnum; i++) {
    const at = phoff + i * phentsize;
    if (at + 56 > bytes.length) throw new Error(`ELF program header ${i} at offset ${at} lies past the end`);
    headers.push({ type: view.getUint32(at, true), offset: num(view, at + 8), vaddr: num(view, at + 16), filesz: num(view, at + 32) });
  }
  const cString = (at) => {
    const end = bytes.indexOf(0, at);
    return Buffer.from(bytes.subarray(at, end < 0 ? bytes.length : end)).toString('latin1');
  };
  const interp = headers.find((h) => h.type === 3);
  // Executables name their loader; a shared object like an addon usually has none.
  if (interp) return /ld-musl/.test(cString(interp.offset)) ? 'musl' : /ld-linux/.test(cString(interp.offset)) ? 'gnu' : undefined;
  const dynamic = headers.find((h) => h.type === 2);
  if (!dynamic) return undefined; // statically linked: no C library to tell
  const entries = [];
  for (let at = dynamic.offset; at + 16 <= dynamic.offset + dynamic.filesz; at += 16) {
    const tag = num(view, at);
    if (tag === 0) break;
    entries.push({ tag, val: num(view, at + 8) });
  }
  const strtab = entries.find((e) => e.tag === 5);
  if (!strtab) throw new Error('ELF dynamic section without DT_STRTAB');
  // DT_STRTAB is an address: the PT_LOAD segment holding it says where that is in the file.
  const load = headers.find((h) => h.type === 1 && h.vaddr <= strtab.val && strtab.val < h.vaddr + h.filesz);
  if (!load) throw new Error(`ELF DT_STRTAB address ${hex(strtab.val)} lies in no PT_LOAD segment`);
  const needed = entries.filter((e) => e.tag === 1).map((e) => cString(load.offset + strtab.val - load.vaddr + e.val));
  // glibc's C library is libc.so.6; musl's is libc.so (or libc.musl-<arch>.so.1 on Alpine).
  if (needed.includes('libc.so.6')) return 'gnu';
  if (needed.some((n) => n === 'libc.so' || n.startsWith('libc.musl-'))) return 'musl';
  return undefined;
}

/** "ELF x64 (musl)", "Mach-O arm64": for messages. */
export function describeKind(kind) {
  const format = { elf: 'ELF', macho: 'Mach-O', pe: 'PE' }[kind.format];
  return `${format} ${kind.arch}${kind.libc ? ` (${kind.libc})` : ''}`;
}
