import { existsSync, mkdirSync, readFileSync, statSync, statfsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FstBuilder } from '../src/core/formats/fst/builder.js';
import type { SampleRun } from '../src/core/formats/ben/pipeline.js';
import { writeStream } from '../src/core/formats/ben/pipeline.js';
import { RunBuffer } from '../src/core/formats/ben/plan.js';
import { openFile } from '../src/core/io/nodeFile.js';
import { writeAtomically } from '../src/core/io/nodeOutput.js';
import type { ByteSink } from '../src/core/model.js';

/**
 * The large files of the performance issue, written with our own writers: a 2 GB Standard BEN
 * (past 2^31 bytes on purpose, where 32-bit offset bugs live), a 100 MB MkvChain BEN, a 64 MiB
 * xorb, a 1 000 000-row IDV, a 5 000 000-key FST and a 1 000 000-row bindu. Each is made once
 * under bench/.data (or $BINLENS_LARGE_DIR) and reused by the benchmarks, the event-loop test
 * and the end-to-end test; generation is deterministic, so every machine measures the same bytes.
 */
export type LargeKind = 'ben-2g' | 'ben-2g-mkv' | 'ben-100m' | 'xorb-64m' | 'idv-1m' | 'fst-5m' | 'bindu-1m';

export function largeDir(): string {
  return resolve(process.env.BINLENS_LARGE_DIR ?? 'bench/.data');
}

const FILES: Record<LargeKind, string> = {
  'ben-2g': 'large-2g.standard.ben',
  'ben-2g-mkv': 'large-2g.mkv_chain.ben',
  'ben-100m': 'large-100m.mkv_chain.ben',
  'xorb-64m': 'mixed-64mib.xorb',
  'idv-1m': 'idv-1m-20.idv',
  'fst-5m': 'large-5m.fst',
  'bindu-1m': 'large-1m.bindu',
};

/** Bytes each kind needs on disk, rounded up, with room for its temporary file while written. */
const NEEDS: Record<LargeKind, number> = {
  'ben-2g': 2.5e9,
  'ben-2g-mkv': 2.5e9,
  'ben-100m': 0.2e9,
  'xorb-64m': 0.3e9,
  'idv-1m': 0.3e9,
  'fst-5m': 0.3e9,
  'bindu-1m': 0.3e9,
};

/**
 * Whether the file of that kind is there or can be written: some machines have a few hundred MB
 * of disk free, and tests at scale say so and skip there rather than fail half-way through a write.
 */
export function largeFileFits(kind: LargeKind, dir = largeDir()): { fits: boolean; why: string } {
  const path = join(dir, FILES[kind]);
  if (existsSync(path) && (!kind.startsWith('ben-') || existsSync(`${path}.json`))) return { fits: true, why: 'generated before' };
  mkdirSync(dir, { recursive: true });
  const fs = statfsSync(dir);
  const free = fs.bavail * fs.bsize;
  return { fits: free >= NEEDS[kind], why: `${(free / 1e9).toFixed(1)} GB free in ${dir}, ${NEEDS[kind] / 1e9} GB needed for ${kind}` };
}

/** The file of that kind, generated first if it is not there yet. */
export async function largeFile(kind: LargeKind, dir = largeDir()): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, FILES[kind]);
  if (existsSync(path) && (!kind.startsWith('ben-') || existsSync(`${path}.json`))) return path;
  switch (kind) {
    case 'ben-2g':
      await tiledBen(path, 'standard', 2_200_000_000);
      break;
    case 'ben-2g-mkv':
      // Small plans (16 rows: ~200-byte frames), so ~10 M frames: the frame-scan case
      // of issue 18, where per-frame costs, not bytes, decide the time.
      await tiledBen(path, 'mkv_chain', 2_200_000_000, SMALL_ROWS);
      break;
    case 'ben-100m':
      await tiledBen(path, 'mkv_chain', 100_000_000);
      break;
    case 'xorb-64m':
      await (await import('./cases/xorb.js')).prepare(dir);
      break;
    case 'idv-1m':
      await (await import('./cases/idv.js')).prepare(dir);
      break;
    case 'fst-5m':
      await fst5m(path);
      break;
    case 'bindu-1m':
      await bindu1m(path, dir);
      break;
  }
  return path;
}

const W = 400;
const H = 350;
const D = 8;

/**
 * Plans of 140 000 nodes (a 400 × 350 grid cut into 8 districts whose borders wander row by
 * row, ~20 % repeated plans), like one block-level state chain: ~2 800 runs per plan.
 */
export async function* chain(plans: number, rows = H): AsyncGenerator<SampleRun> {
  let seed = 12345;
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  const border = Array.from({ length: rows }, () => Array.from({ length: D - 1 }, (_, k) => Math.round(((k + 1) * W) / D)));
  const plan = new RunBuffer();
  for (let p = 0; p < plans; p++) {
    if (rnd() > 0.2) {
      for (let m = 0; m < 400; m++) {
        const r = Math.floor(rnd() * rows);
        const k = Math.floor(rnd() * (D - 1));
        const lo = k ? border[r]![k - 1]! + 1 : 1;
        const hi = k < D - 2 ? border[r]![k + 1]! - 1 : W - 1;
        border[r]![k] = Math.max(lo, Math.min(hi, border[r]![k]! + (rnd() < 0.5 ? -1 : 1)));
      }
    }
    plan.clear();
    for (let r = 0; r < rows; r++) {
      let x = 0;
      for (let k = 0; k < D; k++) {
        const end = k < D - 1 ? border[r]![k]! : W;
        // Merge with the previous run when a row ends in the district the next one starts with.
        if (plan.runs > 0 && plan.values[plan.runs - 1] === k + 1 && plan.lengths[plan.runs - 1]! + (end - x) <= 0xffff) {
          plan.lengths[plan.runs - 1]! += end - x;
          plan.nodes += end - x;
        } else plan.push(k + 1, end - x);
        x = end;
      }
    }
    yield { plan, count: 1, firstSample: p + 1 };
  }
}

function memorySink(parts: Uint8Array[]): ByteSink {
  return { write: (c) => (parts.push(c.slice()), Promise.resolve()) };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
}

/**
 * Standard and MkvChain frames stand alone (no frame refers to another), so 1 000 encoded plans
 * repeated after one banner are a valid stream of any length: writing 2 GB costs a disk copy,
 * not 450 000 encodes, which keeps the CI tests that need the file affordable.
 */
const TILE_PLANS = 1000;

/** Rows of the small-plan chain (`ben-2g-mkv`): 6 400 nodes a plan, like the 2.0 GB file of issue 18. */
const SMALL_ROWS = 16;

async function tiledBen(path: string, variant: 'standard' | 'mkv_chain', atLeast: number, rows = H): Promise<void> {
  const parts: Uint8Array[] = [];
  await writeStream(chain(TILE_PLANS, rows), memorySink(parts), { format: 'ben', variant });
  const stream = concat(parts);
  const BANNER = 17;
  const tile = stream.subarray(BANNER);
  const tiles = Math.ceil((atLeast - BANNER) / tile.length);
  // What the file holds by construction, for tests to check the reader against.
  writeFileSync(`${path}.json`, JSON.stringify({ samples: TILE_PLANS * tiles, tiles, tileBytes: tile.length }));
  await writeAtomically(path, { kind: 'file' }, async (target) => {
    const out = await target.file();
    await out.write(stream.subarray(0, BANNER));
    for (let i = 0; i < tiles; i++) await out.write(tile);
  });
}

/** The number of samples in a generated BEN file, known from how it was made. */
export function largeBenSamples(path: string): number {
  return (JSON.parse(readFileSync(`${path}.json`, 'utf8')) as { samples: number }).samples;
}

/**
 * 5 000 000 distinct keys like a term dictionary: words of 3–14 letters with English-like
 * letter frequencies, some with a numeric suffix, sorted bytewise; the value is the key's
 * pseudo-random document frequency.
 */
async function fst5m(path: string): Promise<void> {
  const letters = 'eeeeeeeeeeeetttttttttaaaaaaaaoooooooiiiiiiinnnnnnnsssssshhhhhhrrrrrrddddllllcccuuummmwwffggyyppbbvkjxqz';
  let seed = 0x9e3779b9;
  const rnd = () => (seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0);
  const keys = new Set<string>();
  while (keys.size < 5_000_000) {
    const n = 3 + (rnd() % 12);
    let k = '';
    for (let i = 0; i < n; i++) k += letters[rnd() % letters.length];
    if (rnd() % 8 === 0) k += `_${rnd() % 1000}`;
    keys.add(k);
  }
  // ASCII only, so JavaScript's UTF-16 order is the byte order the fst needs.
  const sorted = [...keys].sort();
  keys.clear();
  const builder = new FstBuilder(3);
  const enc = new TextEncoder();
  await writeAtomically(path, { kind: 'file' }, async (target) => {
    const out = await target.file();
    for (let i = 0; i < sorted.length; i++) {
      builder.insert(enc.encode(sorted[i]!), BigInt(1 + (rnd() % 100_000)));
      if (i % 65536 === 0) await out.write(builder.takeBytes());
    }
    await out.write(builder.takeBytes());
    await out.write(builder.finish());
  });
}

/** One million rows of the bindu benchmark's mixed order table, through the CSV importer. */
async function bindu1m(path: string, dir: string): Promise<void> {
  const { makeCsv } = await import('./cases/bindu.js');
  const { csvImporter } = await import('../src/core/formats/bindu/importers.js');
  const csv = join(dir, 'large-1m.csv');
  if (!existsSync(csv) || statSync(csv).size === 0) writeFileSync(csv, makeCsv('mixed', 1_000_000));
  const src = await openFile(csv);
  try {
    await writeAtomically(path, { kind: 'file' }, (target) => csvImporter.run(src, target, {}, { chunkRows: 65536, compressor: 'deflate' }));
  } finally {
    await src.close?.();
  }
}
