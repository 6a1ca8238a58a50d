import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { largeDir } from '../../bench/large.js';
import { type SampleRun, writeStream } from '../../src/core/formats/ben/pipeline.js';
import { RunBuffer } from '../../src/core/formats/ben/plan.js';
import { writeAtomically } from '../../src/core/io/nodeOutput.js';
import type { ByteSink } from '../../src/core/model.js';
import { CLI } from '../helpers/cli.js';

/**
 * `binlens diff` on two 1 GB MkvChain BEN streams that differ in a few known places: it must find
 * exactly those, in memory that does not grow with the files. The plans have long runs of many
 * districts (16-bit values and lengths, ~33 M nodes a plan), so a frame is 4 KiB and a GB is
 * 250 000 frames; repeat counts of 1–3 make each frame stand for several samples.
 *
 * Writing 1 GB costs a disk copy, not an encode: both files are one encoded tile of plans
 * repeated after the banner (MkvChain frames stand alone), B with a few tiles swapped for an
 * edited copy. What differs is known from the edit: one run of one plan takes another district.
 */
const TILE_PLANS = 1000;
const RUNS = 1024;
const TILES = 250;
/** The tiles of B that carry the edited plan; B lacks A's last tile altogether. */
const EDITED_TILES = [3, 120, 248];
const EDITED_PLAN = 517;
const EDITED_RUN = 100;
/** What the diff may hold: its two decoders' plan buffers and read-ahead, not the files. */
const RSS_LIMIT_MB = 400;

// Made once and reused, as the other large files are (a half-written one never is: writeAtomically).
const dir = largeDir();
mkdirSync(dir, { recursive: true });
// The names carry the shape: files made with other constants are not reused.
const A = join(dir, `diff-${RUNS}x${TILE_PLANS}x${TILES}-a.mkv_chain.ben`);
const B = join(dir, `diff-${RUNS}x${TILE_PLANS}x${TILES}-b.mkv_chain.ben`);
const need = 2 * 1.1e9;
const free = () => {
  const fs = statfsSync(dir);
  return fs.bavail * fs.bsize;
};
const fits = (existsSync(A) && existsSync(B)) || free() >= need;
if (!fits)
  console.warn(`scale diff: skipped, ${(free() / 1e9).toFixed(1)} GB free in ${dir}, ${need / 1e9} GB needed (set BINLENS_LARGE_DIR to a larger disk)`);

/** A deterministic plan: RUNS runs of pseudo-random districts and lengths, and its repeat count. */
function tilePlans(): { plan: RunBuffer; count: number }[] {
  let seed = 0x2545f491;
  const rnd = () => (seed = (Math.imul(seed ^ (seed >>> 13), 0x5bd1e995) + 0x9e3779b9) >>> 0);
  return Array.from({ length: TILE_PLANS }, () => {
    const plan = new RunBuffer();
    for (let r = 0; r < RUNS; r++) plan.push(1 + (rnd() % 65535), 1 + (rnd() % 65535));
    return { plan, count: 1 + (rnd() % 3) };
  });
}

async function encode(plans: readonly { plan: RunBuffer; count: number }[]): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const sink: ByteSink = { write: (c) => (parts.push(c.slice()), Promise.resolve()) };
  async function* runs(): AsyncGenerator<SampleRun> {
    let first = 1;
    for (const p of plans) {
      yield { plan: p.plan, count: p.count, firstSample: first };
      first += p.count;
    }
  }
  await writeStream(runs(), sink, { format: 'ben', variant: 'mkv_chain' });
  return Buffer.concat(parts);
}

/** Runs the CLI with a preload that reports the process's peak RSS (kB) and CPU time (µs) on stderr as it exits. */
function diffWithPeak(a: string, b: string, preload: string): Promise<{ code: number; stdout: string; peakMb: number; seconds: number; cpuSeconds: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', preload, CLI, 'diff', a, b, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      const stderr = Buffer.concat(err).toString();
      const peak = /maxRSS (\d+) cpu (\d+)/.exec(stderr);
      if (!peak) return reject(new Error(`no peak RSS reported: ${stderr}`));
      resolve({
        code: code ?? -1,
        stdout: Buffer.concat(out).toString(),
        peakMb: Number(peak[1]) / 1024,
        seconds: (performance.now() - started) / 1000,
        cpuSeconds: Number(peak[2]) / 1e6,
      });
    });
  });
}

describe.runIf(fits)('binlens diff on two 1 GB BEN streams', () => {
  const work = mkdtempSync(join(tmpdir(), 'binlens-scale-diff-'));
  const preload = join(work, 'peak.cjs');
  const plans = tilePlans();
  const edited = plans[EDITED_PLAN]!;
  const editedValue = (edited.plan.values[EDITED_RUN]! % 65535) + 1;
  const tileSamples = plans.reduce((n, p) => n + p.count, 0);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  beforeAll(async () => {
    writeFileSync(
      preload,
      "process.on('exit', () => { const u = process.resourceUsage(); require('node:fs').writeSync(2, `maxRSS ${u.maxRSS} cpu ${u.userCPUTime + u.systemCPUTime}\\n`); });\n",
    );
    if (existsSync(A) && existsSync(B)) return;
    const started = performance.now();
    const stream = await encode(plans);
    const changedPlan = new RunBuffer();
    for (let r = 0; r < RUNS; r++) changedPlan.push(r === EDITED_RUN ? editedValue : edited.plan.values[r]!, edited.plan.lengths[r]!);
    const changed = await encode(plans.map((p, i) => (i === EDITED_PLAN ? { plan: changedPlan, count: p.count } : p)));
    const BANNER = 17;
    for (const [path, tiles] of [
      [A, () => Array.from({ length: TILES }, () => stream.subarray(BANNER))],
      [B, () => Array.from({ length: TILES - 1 }, (_, t) => (EDITED_TILES.includes(t) ? changed : stream).subarray(BANNER))],
    ] as const) {
      await writeAtomically(path, { kind: 'file' }, async (target) => {
        const out = await target.file();
        await out.write(stream.subarray(0, BANNER));
        for (const tile of tiles()) await out.write(tile);
      });
    }
    console.log(`scale diff: wrote ${((statSync(A).size + statSync(B).size) / 1e9).toFixed(2)} GB in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });

  it('finds exactly the edited samples and the missing tile, in bounded memory', async () => {
    const firstOfPlan = plans.slice(0, EDITED_PLAN).reduce((n, p) => n + p.count, 0) + 1;
    const nodeStart = Array.from(edited.plan.lengths.subarray(0, EDITED_RUN)).reduce((n, l) => n + l, 0);
    const runLength = edited.plan.lengths[EDITED_RUN]!;
    const oldValue = edited.plan.values[EDITED_RUN]!;
    const expected = EDITED_TILES.flatMap((t) =>
      Array.from({ length: edited.count }, (_, k) => ({
        sample: t * tileSamples + firstOfPlan + k,
        changedNodes: runLength,
        nodes: Array.from({ length: Math.min(20, runLength) }, (_, i) => ({ node: nodeStart + i, a: oldValue, b: editedValue })),
      })),
    );
    const r = await diffWithPeak(A, B, preload);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; kind?: string; data?: unknown; counts?: Record<string, number> });
    console.log(
      `scale diff: 2 × ${(statSync(A).size / 1e9).toFixed(2)} GB BEN diffed in ${r.seconds.toFixed(1)} s (${r.cpuSeconds.toFixed(1)} s of CPU), peak RSS ${r.peakMb.toFixed(0)} MB`,
    );
    expect(r.code).toBe(1);
    expect(lines.filter((l) => l.kind === 'sample-changed').map((l) => l.data)).toEqual(expected);
    expect(lines.find((l) => l.kind === 'sample-count-changed')?.data).toEqual({ a: TILES * tileSamples, b: (TILES - 1) * tileSamples });
    expect(lines.at(-1)?.counts).toEqual({
      'sample-changed': expected.length,
      'samples-a': TILES * tileSamples,
      'samples-b': (TILES - 1) * tileSamples,
      'sample-count-changed': 1,
    });
    expect(r.peakMb).toBeLessThan(RSS_LIMIT_MB);
  });
});
