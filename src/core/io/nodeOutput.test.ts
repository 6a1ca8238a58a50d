import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OutputExistsError, writeAtomically } from './nodeOutput.js';

const bytes = (s: string) => new TextEncoder().encode(s);

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'binlens-out-'));
}

describe('writeAtomically', () => {
  it('writes through a temporary file and renames it into place', async () => {
    const dir = scratch();
    const out = join(dir, 'a.tsv');
    await writeAtomically(out, { kind: 'file' }, async (t) => {
      const sink = await t.file();
      await sink.write(bytes('x\t1\n'));
      expect(existsSync(out)).toBe(false);
    });
    expect(readFileSync(out, 'utf8')).toBe('x\t1\n');
    expect(readdirSync(dir)).toEqual(['a.tsv']);
  });

  it('leaves nothing behind when the conversion fails or is cancelled', async () => {
    const dir = scratch();
    await expect(
      writeAtomically(join(dir, 'b.bin'), { kind: 'file' }, async (t) => {
        await (await t.file()).write(bytes('partial'));
        throw new Error('cancelled');
      }),
    ).rejects.toThrow('cancelled');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses to replace an existing output unless forced, and never the input', async () => {
    const dir = scratch();
    const out = join(dir, 'c.bin');
    writeFileSync(out, 'old');
    await expect(writeAtomically(out, { kind: 'file' }, async () => undefined)).rejects.toBeInstanceOf(OutputExistsError);
    expect(readFileSync(out, 'utf8')).toBe('old');
    await expect(writeAtomically(out, { kind: 'file', force: true, inputs: [out] }, async () => undefined)).rejects.toThrow(/over its input/);
    await writeAtomically(out, { kind: 'file', force: true }, async (t) => (await t.file()).write(bytes('new')));
    expect(readFileSync(out, 'utf8')).toBe('new');
  });

  it('writes folder outputs as a whole and refuses names that leave the folder', async () => {
    const dir = scratch();
    const out = join(dir, 'chunks');
    await writeAtomically(out, { kind: 'folder' }, async (t) => {
      await (await t.file('0.bin')).write(bytes('a'));
      await (await t.file('1.bin')).write(bytes('b'));
    });
    expect(readdirSync(out).sort()).toEqual(['0.bin', '1.bin']);
    await expect(writeAtomically(join(dir, 'evil'), { kind: 'folder' }, async (t) => t.file('../escape'))).rejects.toThrow(/refusing output name/);
    expect(existsSync(join(dir, 'escape'))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['chunks']);
  });
});
