import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { largeBenSamples, largeFile } from '../large.js';
import type { BenchCase, BenchResult } from '../types.js';

/**
 * BEN frame scan at memory speed (issue 18 item 1): in the 2.2 GB MkvChain BEN of ~200-byte
 * frames (bench/large.ts `ben-2g-mkv`, 11.3 M frames, 13.6 M samples), `binlens cat --from
 * <last> --count 1` and `binlens info` (the exact count), each a whole CLI process, beside the
 * floor: a Node process that reads the file in 1 MiB pieces. Target: ≤ 1.5× the floor.
 */
const CLI = resolve(process.env.BINLENS_CLI ?? 'dist/cli.js');

/** The floor: reading every byte once, startup included. */
const READ_FLOOR = `
const fs = require('node:fs');
const fd = fs.openSync(process.argv[1], 'r');
const buf = Buffer.allocUnsafe(1 << 20);
while (fs.readSync(fd, buf, 0, buf.length, null) > 0);
fs.closeSync(fd);`;

/** Runs the CLI under /usr/bin/time when the machine has it, for the process's own peak RSS. */
function binlens(args: readonly string[]): { stdout: string; timedMs: number; peakRssMb?: number } {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run node scripts/build.mjs first`);
  const time = existsSync('/usr/bin/time');
  const argv = time ? ['/usr/bin/time', '-f', '%M', process.execPath, CLI, ...args] : [process.execPath, CLI, ...args];
  const start = process.hrtime.bigint();
  const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', maxBuffer: 64 << 20 });
  const timedMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`binlens ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const peakKb = time ? Number(r.stderr.trim().split('\n').pop()) : undefined;
  return { stdout: r.stdout, timedMs, peakRssMb: peakKb === undefined ? undefined : peakKb / 1024 };
}

const withRss = (r: { timedMs: number; peakRssMb?: number }, extra: Omit<BenchResult, 'timedMs'>): BenchResult => ({
  ...extra,
  timedMs: r.timedMs,
  table: r.peakRssMb === undefined ? undefined : `CLI process peak RSS: ${r.peakRssMb.toFixed(0)} MB`,
});

const floor = (path: string) => ({ label: 'Node: read the file in 1 MiB pieces (floor)', command: [process.execPath, '-e', READ_FLOOR, path] });
const BIG = (data: string) => resolve(data, 'large-2g.mkv_chain.ben');

export const cases: BenchCase[] = [
  {
    id: 'ben-scan-seek-last',
    title: 'cat --from <last sample> --count 1 in the 2.2 GB MkvChain BEN (11.3 M frames); floor: the Node read',
    runs: 3,
    prepare: async (data) => void (await largeFile('ben-2g-mkv', data)),
    async run(data) {
      const path = BIG(data);
      const last = largeBenSamples(path) - 1;
      const r = binlens(['cat', path, '--from', String(last), '--count', '1']);
      if (!r.stdout.startsWith(`{"assignment":[`) || !r.stdout.trimEnd().endsWith(`"sample":${last + 1}}`))
        throw new Error(`not sample ${last + 1}: ${r.stdout.slice(0, 80)}`);
      return withRss(r, { items: 1 });
    },
    native: (data) => floor(BIG(data)),
  },
  {
    id: 'ben-scan-count',
    title: 'info (exact frame and sample count) of the 2.2 GB MkvChain BEN; floor: the Node read',
    runs: 3,
    prepare: async (data) => void (await largeFile('ben-2g-mkv', data)),
    async run(data) {
      const path = BIG(data);
      const r = binlens(['info', path, '--json']);
      const j = JSON.parse(r.stdout) as { samples: number; frames: number; size: number };
      if (j.samples !== largeBenSamples(path)) throw new Error(`counted ${j.samples} samples, the file holds ${largeBenSamples(path)}`);
      return withRss(r, { items: j.frames, bytes: j.size });
    },
    native: (data) => floor(BIG(data)),
  },
];
