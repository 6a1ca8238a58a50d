import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { handlers } from '../../src/core/registry.js';

export interface Seed {
  readonly path: string;
  readonly name: string;
  readonly family: string;
  readonly bytes: Uint8Array;
}

/** Seeds larger than this are left out: mutating them tests the same paths, only slower. */
const MAX_SEED = 1 << 20;

function familyOf(name: string): string | undefined {
  const lower = name.toLowerCase();
  return handlers.find((h) => h.extensions.some((e) => lower.endsWith(e)))?.id;
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
}

/** Every fixture of every family (and every regression file) small enough to mutate quickly. */
export function loadSeeds(dirs: readonly string[]): Seed[] {
  const paths: string[] = [];
  for (const d of dirs) {
    try {
      walk(d, paths);
    } catch {
      // A missing corpus folder is an empty one.
    }
  }
  const seeds: Seed[] = [];
  for (const path of paths) {
    const name = basename(path);
    const family = familyOf(name);
    if (!family || statSync(path).size > MAX_SEED) continue;
    // A file kept for being slow is replayed by the corpus test, not mutated: its mutants do the
    // same bounded but heavy work near the 2 s limit, and every run would report them again.
    if (name.startsWith('slow-')) continue;
    seeds.push({ path, name, family, bytes: new Uint8Array(readFileSync(path)) });
  }
  return seeds;
}
