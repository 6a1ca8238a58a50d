import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures.js';
import { applyFlips } from './oracle.js';
import { SILENT_PREFIX, replaySilent, silentReproducers } from './replay.js';
import { TOY_FILE, toy } from './toy.testkit.js';
import { scratchDir } from '../helpers/scratch.js';

const CORPUS = resolve(__dirname, '../corpus');
const found = silentReproducers(CORPUS).map((r) => [relative(CORPUS, r.file), r] as const);

// Only while there are some: vitest fails a suite that holds no test.
if (found.length > 0) {
  describe('silent corruptions the fuzzer found', () => {
    it.each(found)('%s: every strict read path now fails or gives the intact fixture’s output', async (_name, r) => {
      expect((await replaySilent(r, FIXTURES)).silent).toEqual([]);
    });
  });
}

describe('silent-corruption replay', () => {
  // A corpus and fixtures of the toy format, laid out as the fuzzer saves them.
  const root = scratchDir('replay');
  mkdirSync(join(root, 'fixtures/toy'), { recursive: true });
  mkdirSync(join(root, 'corpus/toy'), { recursive: true });
  writeFileSync(join(root, 'fixtures/toy/a.xorb'), TOY_FILE);
  const saved = join(root, 'corpus/toy', `${SILENT_PREFIX}0123456789ab-a.xorb`);
  writeFileSync(saved, applyFlips(TOY_FILE, [{ at: 3, mask: 0x10 }]));
  writeFileSync(`${saved}.json`, JSON.stringify({ kind: 'silent-corruption', source: 'toy/a.xorb', flips: [{ at: 3, mask: 16 }] }));
  // A crash reproducer beside it is no silent corruption and is not replayed here.
  writeFileSync(join(root, 'corpus/toy/crash-0123456789ab-a.xorb'), TOY_FILE);

  it('finds the saved file and its fixture', () => {
    expect(silentReproducers(join(root, 'corpus'))).toEqual([{ file: saved, source: 'toy/a.xorb' }]);
  });

  it('fails while a read path still hands out the flipped bytes', async () => {
    const [r] = silentReproducers(join(root, 'corpus'));
    expect((await replaySilent(r!, join(root, 'fixtures'), toy({ checks: false }))).silent).toEqual(['cat raw', 'convert hex']);
  });

  it('passes once every read path stops at the damage', async () => {
    const [r] = silentReproducers(join(root, 'corpus'));
    expect(await replaySilent(r!, join(root, 'fixtures'), toy({ checks: true }))).toMatchObject({ silent: [], caught: 2 });
  });
});
