/**
 * Silent corruptions the fuzzer found stay beside its other findings, in test/corpus/<family>/,
 * as `silent-corruption-<hash>-<seed name>` (the flipped seed) and its `.json` (the intact fixture
 * it came from, and the flips). Replayed, every strict read path of the saved file must fail or
 * give the fixture's own output: so a fixed silent corruption stays fixed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { judgeDamaged, openBytes, readPaths, type Opener, type Verdict } from '../helpers/integrity.js';
import { ORACLE_PATHS } from './oracle.js';

export const SILENT_PREFIX = 'silent-corruption-';

export interface SilentReproducer {
  /** The saved damaged file. */
  readonly file: string;
  /** The intact fixture it was flipped from, relative to the fixtures folder. */
  readonly source: string;
}

/** Every silent-corruption file under a corpus folder (one folder per family). */
export function silentReproducers(corpus: string): SilentReproducer[] {
  if (!existsSync(corpus)) return [];
  return readdirSync(corpus, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(corpus, d.name))
        .filter((f) => f.startsWith(SILENT_PREFIX) && !f.endsWith('.json'))
        .map((f) => {
          const file = join(corpus, d.name, f);
          const { source } = JSON.parse(readFileSync(`${file}.json`, 'utf8')) as { source: string };
          return { file, source };
        }),
    );
}

/** Judges a saved file's read paths against its intact fixture's. */
export async function replaySilent(r: SilentReproducer, fixtures: string, open: Opener = openBytes): Promise<Verdict> {
  const intact = new Uint8Array(readFileSync(join(fixtures, r.source)));
  const name = basename(r.source);
  const doc = await open(intact, name);
  if (!doc) throw new Error(`${r.source} no longer opens`);
  const good = await readPaths(doc, name, intact.length, ORACLE_PATHS);
  await doc.close?.();
  return judgeDamaged(new Uint8Array(readFileSync(r.file)), name, good, { ...ORACLE_PATHS, open });
}
