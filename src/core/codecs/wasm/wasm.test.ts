import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM helper (also run by hand to regenerate the .wasm files)
import { assemble, joinWat } from './assemble.mjs';

const here = import.meta.dirname;
const join_ = joinWat as (watPath: string) => string;
/** The names a module's bytes export, in order (the tests' tsconfig declares no WebAssembly). */
const exportNames = (bytes: Uint8Array): string[] => {
  const { Module } = (globalThis as unknown as { WebAssembly: { Module: { new (b: Uint8Array): object; exports(m: object): { name: string }[] } } })
    .WebAssembly;
  return Module.exports(new Module(bytes)).map((e) => e.name);
};

describe('hand-written WebAssembly', () => {
  it('every committed .wasm is the compilation of its .wat (run assemble.mjs after editing one)', async () => {
    const wats = readdirSync(here).filter((n) => n.endsWith('.wat'));
    expect(wats.length).toBeGreaterThan(0);
    for (const wat of wats) {
      const built = (await assemble(join(here, wat))) as Uint8Array;
      const committed = new Uint8Array(readFileSync(join(here, wat.replace(/\.wat$/, '.wasm'))));
      expect(Buffer.compare(Buffer.from(built), Buffer.from(committed)), wat).toBe(0);
    }
  });

  it("every part in a module's folder is joined into that module", () => {
    const modules = readdirSync(here).filter((n) => n.endsWith('.wat') && existsSync(join(here, n.replace(/\.wat$/, ''))));
    expect(modules).toContain('fstwalk.wat');
    for (const wat of modules) {
      const folder = join(here, wat.replace(/\.wat$/, ''));
      const joined = join_(join(here, wat));
      expect(joined).not.toMatch(/^[ \t]*;; @include /m);
      for (const part of readdirSync(folder)) expect(joined, part).toContain(readFileSync(join(folder, part), 'utf8').trimEnd());
    }
  });
});

describe('joining a module from its parts', () => {
  /** A module m.wat in a fresh folder, with the parts given (path under the folder → text). */
  function moduleWith(main: string, parts: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'binlens-wat-'));
    mkdirSync(join(dir, 'm'));
    for (const [path, text] of Object.entries(parts)) writeFileSync(join(dir, path), text);
    writeFileSync(join(dir, 'm.wat'), main);
    return dir;
  }

  it('puts each part where its `;; @include` line stands, in the order the lines come', async () => {
    const dir = moduleWith('(module\n  ;; @include m/b.wat\n  (func (export "mid"))\n  ;; @include m/a.wat\n)\n', {
      'm/a.wat': '  (func (export "a"))\n',
      'm/b.wat': '  (func (export "b"))\n',
    });
    try {
      expect(join_(join(dir, 'm.wat'))).toBe('(module\n  (func (export "b"))\n  (func (export "mid"))\n  (func (export "a"))\n)\n');
      const bytes = (await assemble(join(dir, 'm.wat'))) as Uint8Array;
      expect(exportNames(bytes)).toEqual(['b', 'mid', 'a']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a part that includes another, and a part that is not there', () => {
    const dir = moduleWith('(module\n  ;; @include m/a.wat\n)\n', { 'm/a.wat': '  ;; @include m/b.wat\n', 'm/b.wat': '  (func)\n' });
    try {
      expect(() => join_(join(dir, 'm.wat'))).toThrow(/m\/a\.wat: a part includes no other/);
      writeFileSync(join(dir, 'm.wat'), '(module\n  ;; @include m/c.wat\n)\n');
      expect(() => join_(join(dir, 'm.wat'))).toThrow(/ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
