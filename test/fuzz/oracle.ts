/**
 * The silent-corruption oracle: flip a few bytes of an intact seed where its checks say they
 * cover it, and run every strict read path. Each must fail or give the seed's own output; one
 * that finishes with other output handed damaged data out as good (issue 17). Crashes and hangs
 * need no oracle, this finding does: the output looks fine, only the seed's output shows it is not.
 */
import { coveredRanges } from '../../src/core/integrity.js';
import type { ByteRange } from '../../src/core/model.js';
import { judgeDamaged, openBytes, readPaths, type Opener, type PathOptions, type ReadResult, type Verdict } from '../helpers/integrity.js';
import type { Rng } from './mutate.js';

/** One changed byte: the seed's byte at `at` XOR `mask` (never 0). */
export interface Flip {
  readonly at: number;
  readonly mask: number;
}

/** The read paths the oracle judges: all but the byte views (`BYTE_VIEWS`), each output capped. */
export const ORACLE_PATHS: PathOptions = { limit: 64 << 20 };

/** A seed read once, undamaged: where its checks cover it and what each read path gives. */
export type Baseline =
  | { readonly kind: 'covered'; readonly ranges: readonly ByteRange[]; readonly reads: ReadonlyMap<string, ReadResult> }
  /** No check covers any of its bytes: nothing to flip. */
  | { readonly kind: 'no-coverage' }
  /** Every read path already fails on the seed: there is no good output to compare with. */
  | { readonly kind: 'unreadable' };

export async function baselineOf(bytes: Uint8Array, name: string, open: Opener = openBytes): Promise<Baseline> {
  const doc = await open(bytes, name);
  if (!doc) return { kind: 'unreadable' };
  try {
    const ranges = coveredRanges(await doc.coverage());
    if (ranges.length === 0) return { kind: 'no-coverage' };
    const reads = await readPaths(doc, name, bytes.length, ORACLE_PATHS);
    if ([...reads.values()].every((r) => r.error)) return { kind: 'unreadable' };
    return { kind: 'covered', ranges, reads };
  } finally {
    await doc.close?.();
  }
}

/**
 * One to three distinct covered bytes, uniform over all covered bytes, each XORed with a single
 * bit (what storage and transfer errors mostly do) or, one time in two, a random nonzero byte.
 */
export function drawFlips(ranges: readonly ByteRange[], rng: Rng): Flip[] {
  const total = ranges.reduce((n, r) => n + r.length, 0);
  const want = Math.min(total, 1 + rng.below(3));
  const at = new Set<number>();
  while (at.size < want) at.add(positionAt(ranges, rng.below(total)));
  return [...at].map((p) => ({ at: p, mask: rng.below(2) === 0 ? 1 << rng.below(8) : 1 + rng.below(255) }));
}

/** The `k`-th covered byte's offset in the file. */
function positionAt(ranges: readonly ByteRange[], k: number): number {
  for (const r of ranges) {
    if (k < r.length) return r.offset + k;
    k -= r.length;
  }
  throw new RangeError(`covered byte ${k} past the ranges`);
}

export function applyFlips(bytes: Uint8Array, flips: readonly Flip[]): Uint8Array {
  const out = bytes.slice();
  for (const f of flips) out[f.at] = out[f.at]! ^ f.mask;
  return out;
}

/** Runs every judged read path on the flipped seed against the seed's own outputs. */
export function checkFlips(
  bytes: Uint8Array,
  name: string,
  base: Baseline & { kind: 'covered' },
  flips: readonly Flip[],
  open: Opener = openBytes,
): Promise<Verdict> {
  return judgeDamaged(applyFlips(bytes, flips), name, base.reads, { ...ORACLE_PATHS, open });
}

/**
 * Whether fuzz input `index` also runs an oracle check: one in `every` of each family's inputs.
 * Inputs take the families in turn, so counting per family keeps the share equal for all.
 */
export function oracleDue(index: number, families: number, every: number): boolean {
  return every > 0 && Math.floor(index / families) % every === 0;
}

/** The oracle's own random stream for an input, apart from the input's mutations. */
export function oracleSeed(runSeed: number, index: number): number {
  return (Math.imul(runSeed ^ 0x27d4eb2f, 0x9e3779b1) + Math.imul(index, 0x85ebca6b)) >>> 0;
}

/** A silent corruption in a few words: which seed, which bytes, which read paths. */
export function describeSilent(seedName: string, flips: readonly Flip[], silent: readonly string[]): string {
  const bytes = flips.map((f) => `${f.at} ^ 0x${f.mask.toString(16)}`).join(', ');
  return `${seedName}: after flipping byte${flips.length > 1 ? 's' : ''} ${bytes} (inside covered ranges) ${silent.join(', ')} finished with output other than the undamaged file's`;
}
