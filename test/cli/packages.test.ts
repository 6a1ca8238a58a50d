// The per-platform package check (scripts/checkPackages.mjs): it must tell an addon's format, CPU
// and C library from bytes checked by hand, and fail a VSIX whose addon is for another platform.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkVsix, extensionOf } from '../../scripts/checkPackages.mjs';
import { addonBinary } from '../../scripts/packaging/addons.mjs';
import { binaryKind } from '../../scripts/packaging/binaryFormat.mjs';
import { packageTarget, shippedFiles } from '../../scripts/packaging/vsix.mjs';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LINUX_X64_DIR = join(ROOT, 'node_modules/@napi-rs/blake-hash-linux-x64-gnu');
/** The linux-x64 glibc addon npm installed here (`file` says: ELF 64-bit LSB shared object, x86-64). */
const linuxX64Addon = (): Buffer => readFileSync(join(LINUX_X64_DIR, readdirSync(LINUX_X64_DIR).find((f) => f.endsWith('.node'))!));

/**
 * A minimal ELF64 little-endian shared object: the header, a PT_LOAD over the whole file, a
 * PT_DYNAMIC whose DT_NEEDED names `needed`, and its string table. Offsets as the ELF spec lays
 * them out (e_machine at 18, e_phoff at 32, e_phentsize 56 at 54, e_phnum at 56).
 */
function elf(machine: number, needed: string): Uint8Array {
  const phoff = 64;
  const dynOff = phoff + 2 * 56;
  const strOff = dynOff + 3 * 16;
  const strtab = Buffer.from(`\0${needed}\0`, 'latin1');
  const b = Buffer.alloc(strOff + strtab.length);
  b.writeUInt32BE(0x7f454c46, 0);
  b[4] = 2; // ELFCLASS64
  b[5] = 1; // little-endian
  b.writeUInt16LE(3, 16); // ET_DYN
  b.writeUInt16LE(machine, 18);
  b.writeBigUInt64LE(BigInt(phoff), 32);
  b.writeUInt16LE(56, 54);
  b.writeUInt16LE(2, 56);
  const ph = (at: number, type: number, offset: number, size: number) => {
    b.writeUInt32LE(type, at);
    b.writeBigUInt64LE(BigInt(offset), at + 8); // p_offset
    b.writeBigUInt64LE(BigInt(offset + 0x1000), at + 16); // p_vaddr: loaded 0x1000 above its file offset
    b.writeBigUInt64LE(BigInt(size), at + 32); // p_filesz
  };
  ph(phoff, 1, 0, b.length);
  ph(phoff + 56, 2, dynOff, 3 * 16);
  b.writeBigUInt64LE(5n, dynOff); // DT_STRTAB, an address
  b.writeBigUInt64LE(BigInt(strOff + 0x1000), dynOff + 8);
  b.writeBigUInt64LE(1n, dynOff + 16); // DT_NEEDED, an offset into the string table
  b.writeBigUInt64LE(1n, dynOff + 24);
  strtab.copy(b, strOff);
  return b; // then DT_NULL: the zeros left
}

describe('binary format of an addon', () => {
  it('reads ELF e_machine and tells musl from glibc by the C library it needs', () => {
    expect(binaryKind(elf(0xb7, 'libc.so'))).toEqual({ format: 'elf', arch: 'arm64', libc: 'musl' });
    expect(binaryKind(elf(0x3e, 'libc.so.6'))).toEqual({ format: 'elf', arch: 'x64', libc: 'gnu' });
    expect(binaryKind(elf(0x28, 'libc.so.6')).arch).toBe('e_machine 0x28'); // 32-bit ARM: named, never matched
  });

  it('reads the Mach-O cputype and the PE machine', () => {
    const macho = Buffer.alloc(64);
    macho.writeUInt32LE(0xfeedfacf, 0);
    macho.writeUInt32LE(0x0100000c, 4);
    expect(binaryKind(macho)).toEqual({ format: 'macho', arch: 'arm64' });
    macho.writeUInt32LE(0x01000007, 4);
    expect(binaryKind(macho)).toEqual({ format: 'macho', arch: 'x64' });
    const pe = Buffer.alloc(0x48);
    pe.write('MZ', 0, 'latin1');
    pe.writeUInt32LE(0x40, 0x3c);
    pe.write('PE\0\0', 0x40, 'latin1');
    pe.writeUInt16LE(0xaa64, 0x44);
    expect(binaryKind(pe)).toEqual({ format: 'pe', arch: 'arm64' });
    pe.writeUInt16LE(0x8664, 0x44);
    expect(binaryKind(pe)).toEqual({ format: 'pe', arch: 'x64' });
  });

  it('reads the installed linux-x64 addon as a glibc x86-64 ELF', () => {
    expect(binaryKind(linuxX64Addon())).toEqual({ format: 'elf', arch: 'x64', libc: 'gnu' });
  });

  it('refuses bytes that are no object file', () => {
    expect(() => binaryKind(Buffer.alloc(64, 0x41))).toThrow(/not ELF, Mach-O \(64-bit\) or PE: starts 41414141/);
  });
});

/** A one-file ustar archive as npm packs it: a 512-byte header (name at 0, octal size at 124, type '0' at 156), the data padded to 512. */
function tar(name: string, data: Buffer): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 'latin1');
  header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
  header.write('0', 156, 'latin1');
  return Buffer.concat([header, data, Buffer.alloc((512 - (data.length % 512)) % 512), Buffer.alloc(1024)]);
}

describe('addon tarballs', () => {
  const cache = scratchDir('addons');
  const node = Buffer.from('not really an addon, but its bytes');
  const tgz = gzipSync(tar('package/blake.test-x64.node', node));
  const pin = { name: '@napi-rs/blake-hash-test-x64', version: '9.9.9', integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}` };

  it('takes the one .node file out of a cached tarball that matches its pinned integrity', () => {
    writeFileSync(join(cache, 'napi-rs-blake-hash-test-x64-9.9.9.tgz'), tgz);
    const a = addonBinary(pin, cache);
    expect(a.file).toBe('package/blake.test-x64.node');
    expect(a.bytes.equals(node)).toBe(true);
  });

  it('refuses a cached tarball that differs from its pin', () => {
    writeFileSync(join(cache, 'napi-rs-blake-hash-test-x64-9.9.9.tgz'), gzipSync(tar('package/blake.test-x64.node', Buffer.from('tampered'))));
    expect(() => addonBinary(pin, cache)).toThrow(
      /napi-rs-blake-hash-test-x64-9\.9\.9\.tgz: integrity sha512-.*, but @napi-rs\/blake-hash-test-x64@9\.9\.9 is pinned to sha512-/,
    );
  });
});

describe('package check', () => {
  const work = scratchDir('packages');
  const expectExt = extensionOf(ROOT);
  let files: string[] = [];
  beforeAll(async () => {
    files = await shippedFiles(ROOT);
  }, 60_000);
  // Each (target, addon or none) is packaged once: vsce takes a second or two.
  const built = new Map<string, Promise<string>>();
  const build = (target: string, addon: Uint8Array | null): Promise<string> => {
    const outFile = join(work, `${target}-${addon ? 'addon' : 'none'}.vsix`);
    if (!built.has(outFile))
      built.set(
        outFile,
        packageTarget({ root: ROOT, files, target, addon, outFile, stageDir: work }).then(() => outFile),
      );
    return built.get(outFile)!;
  };

  it('passes a linux-x64 package carrying the linux-x64 addon', async () => {
    const r = checkVsix(await build('linux-x64', linuxX64Addon()), 'linux-x64', expectExt, files);
    expect(r.problems).toEqual([]);
    expect(r.addon).toBe('ELF x64 (gnu)');
  });

  it('fails a darwin-arm64 package carrying the linux-x64 addon, naming what it is and what it needs', async () => {
    const r = checkVsix(await build('darwin-arm64', linuxX64Addon()), 'darwin-arm64', expectExt, files);
    expect(r.problems).toEqual(['extension/dist/native/blake3.node is ELF x64 (gnu), but darwin-arm64 needs Mach-O arm64']);
  });

  it('fails a web package carrying native code', async () => {
    const r = checkVsix(await build('web', linuxX64Addon()), 'web', expectExt, files);
    expect(r.problems).toEqual(['extension/dist/native/blake3.node: native code in the web package, which must carry none']);
  });

  it('fails an addon of the right platform that lacks the BLAKE3 API nodeCodecs calls', async () => {
    const r = checkVsix(await build('linux-arm64', elf(0xb7, 'libc.so.6')), 'linux-arm64', expectExt, files);
    expect(r.problems).toEqual([
      'extension/dist/native/blake3.node does not name Blake3Hasher, newKeyed, reset, update, digestBuffer: not the BLAKE3 API nodeCodecs calls',
    ]);
  });

  it('fails a package checked as another target than the one its manifest names', async () => {
    const r = checkVsix(await build('linux-x64', linuxX64Addon()), 'alpine-x64', expectExt, files);
    expect(r.problems).toContain("extension.vsixmanifest: Identity TargetPlatform is 'linux-x64', expected 'alpine-x64'");
    expect(r.problems).toContain('extension/dist/native/blake3.node is ELF x64 (gnu), but alpine-x64 needs ELF x64 (musl)');
  });

  it('fails a native package without its addon, and a cut-short VSIX', async () => {
    const bare = await build('win32-x64', null);
    expect(checkVsix(bare, 'win32-x64', expectExt, files).problems).toEqual([
      'extension/dist/native/blake3.node is missing: the win32-x64 package must carry its BLAKE3 addon',
    ]);
    const cut = join(work, 'cut.vsix');
    writeFileSync(cut, readFileSync(bare).subarray(0, 4096));
    expect(checkVsix(cut, 'win32-x64', expectExt, files).problems[0]).toMatch(/^not a readable zip/);
  });
});
