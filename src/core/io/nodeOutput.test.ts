import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OutputExistsError, writeAtomically } from './nodeOutput.js';
import { scratchDir } from '../../../test/helpers/scratch.js';

const bytes = (s: string) => new TextEncoder().encode(s);

const root = scratchDir('out');

function scratch(): string {
  return mkdtempSync(join(root, 'case-'));
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

  it('writes files beside the output with it: none before the run succeeds, none after it fails', async () => {
    const dir = scratch();
    const out = join(dir, 'e.ben');
    await writeAtomically(out, { kind: 'file' }, async (t) => {
      await (await t.beside!('.node_permutation_map.json')).write(bytes('{}'));
      await (await t.file()).write(bytes('BEN'));
      expect(readdirSync(dir).filter((n) => !n.startsWith('.'))).toEqual([]);
    });
    expect(readdirSync(dir).sort()).toEqual(['e.ben', 'e.ben.node_permutation_map.json']);
    expect(readFileSync(`${out}.node_permutation_map.json`, 'utf8')).toBe('{}');
    const failed = join(dir, 'f.ben');
    await expect(
      writeAtomically(failed, { kind: 'file' }, async (t) => {
        await (await t.beside!('.graph.json')).write(bytes('{}'));
        throw new Error('bad map');
      }),
    ).rejects.toThrow('bad map');
    expect(readdirSync(dir).sort()).toEqual(['e.ben', 'e.ben.node_permutation_map.json']);
  });

  it('refuses to replace an existing file beside the output unless forced', async () => {
    const dir = scratch();
    const out = join(dir, 'g.ben');
    writeFileSync(`${out}.graph.json`, 'old');
    const run = (force: boolean) =>
      writeAtomically(out, { kind: 'file', force }, async (t) => void (await (await t.beside!('.graph.json')).write(bytes('new'))));
    await expect(run(false)).rejects.toBeInstanceOf(OutputExistsError);
    expect(readdirSync(dir)).toEqual(['g.ben.graph.json']);
    await run(true);
    expect(readFileSync(`${out}.graph.json`, 'utf8')).toBe('new');
    expect(readFileSync(out, 'utf8')).toBe('');
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
