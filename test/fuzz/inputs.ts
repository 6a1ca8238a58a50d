import type { Seed } from './corpus.js';
import { KINDS, type Landmarks, Rng, mutate } from './mutate.js';

export interface FuzzInput {
  readonly bytes: Uint8Array;
  readonly name: string;
  readonly family: string;
  readonly source: string;
  readonly mutations: string[];
}

/**
 * Input number `index` of a run: the family turns round-robin, then a seed file of that family
 * and one or two mutations are drawn from an RNG seeded by (run seed, index), so any input can be
 * made again from its two numbers.
 */
export function input(seeds: readonly Seed[], marks: readonly Landmarks[], runSeed: number, index: number, families: readonly string[]): FuzzInput {
  const rng = new Rng((runSeed * 0x9e3779b1 + index * 0x85ebca6b) >>> 0);
  const family = families[index % families.length]!;
  const pool = seeds.map((_, i) => i).filter((i) => seeds[i]!.family === family);
  const which = rng.pick(pool);
  const seed = seeds[which]!;
  let bytes = seed.bytes;
  const mutations: string[] = [];
  for (let n = 1 + (rng.below(4) === 0 ? 1 : 0); n > 0; n--) {
    const kind = rng.pick(KINDS);
    bytes = mutate(kind, bytes, marks[which]!, rng.pick(seeds).bytes, rng);
    mutations.push(kind);
  }
  return { bytes, name: seed.name, family, source: seed.path, mutations };
}
