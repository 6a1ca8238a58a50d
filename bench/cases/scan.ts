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

/**
 * The floor: reading every byte once, startup included, into page-aligned memory (a WebAssembly
 * memory is mapped whole). A Buffer of 1 MiB starts 16 bytes past a cache line, and on some CPUs
 * (AMD EPYC here, 27 Nov 2026) the kernel's copy into it costs 1.35× the aligned copy: a floor
 * that slow flattered the CLI, which reads into its hop's WebAssembly memory.
 */
const READ_FLOOR = `
const fs = require('node:fs');
const fd = fs.openSync(process.argv[1], 'r');
const buf = new Uint8Array(new WebAssembly.Memory({ initial: 16 }).buffer);
while (fs.readSync(fd, buf, 0, buf.length, null) > 0);
fs.closeSync(fd);`;

/** A process's wall time, and under /usr/bin/time its own peak RSS and CPU time (user + system). */
interface Timed {
  readonly stdout: string;
  readonly timedMs: number;
  readonly peakRssMb?: number;
  readonly cpuMs?: number;
}

/** Runs a command under /usr/bin/time when the machine has it. */
function timed(command: readonly string[]): Timed {
  const time = existsSync('/usr/bin/time');
  const argv = time ? ['/usr/bin/time', '-f', '%M %U %S', ...command] : [...command];
  const start = process.hrtime.bigint();
  const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', maxBuffer: 64 << 20 });
  const timedMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${command.join(' ')} exited ${r.status}: ${r.stderr}`);
  if (!time) return { stdout: r.stdout, timedMs };
  const [peakKb, user, sys] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { stdout: r.stdout, timedMs, peakRssMb: peakKb! / 1024, cpuMs: (user! + sys!) * 1000 };
}

function binlens(args: readonly string[]): Timed {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run node scripts/build.mjs first`);
  return timed([process.execPath, CLI, ...args]);
}

/** CPU pairs per run: the measured run and the floor, then more CLI and floor runs in turn, for a median ratio that one pair's noise does not swing. */
const CPU_PAIRS = 3;

/**
 * With the CLI's peak RSS, its CPU time beside the floor's, in CPU_PAIRS pairs run in turn: on a
 * machine shared by many processes the wall times swell with the load, the CPU times much less,
 * and one pair still moved the ratio by ±0.2.
 */
function report(r: Timed, extra: Omit<BenchResult, 'timedMs'>, path: string, again: () => Timed): BenchResult {
  const lines: string[] = [];
  if (r.peakRssMb !== undefined) lines.push(`CLI process peak RSS: ${r.peakRssMb.toFixed(0)} MB`);
  if (r.cpuMs !== undefined) {
    const cli = [r.cpuMs];
    const floors: number[] = [];
    for (let i = 0; i < CPU_PAIRS; i++) {
      floors.push(timed(floor(path).command).cpuMs ?? NaN);
      if (i + 1 < CPU_PAIRS) cli.push(again().cpuMs ?? NaN);
    }
    const ratios = cli.map((c, i) => c / floors[i]!);
    const ms = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' / ');
    lines.push(
      `CPU time (user + system), ${CPU_PAIRS} pairs run in turn: this CLI ${ms(cli)} ms, the floor ${ms(floors)} ms; ` +
        `ratios ${ratios.map((x) => x.toFixed(2)).join(' / ')}, median ${median(ratios).toFixed(2)}×`,
    );
  }
  return { ...extra, timedMs: r.timedMs, table: lines.length > 0 ? lines.join('\n\n') : undefined };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

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
      const args = ['cat', path, '--from', String(last), '--count', '1'];
      const r = binlens(args);
      if (!r.stdout.startsWith(`{"assignment":[`) || !r.stdout.trimEnd().endsWith(`"sample":${last + 1}}`))
        throw new Error(`not sample ${last + 1}: ${r.stdout.slice(0, 80)}`);
      return report(r, { items: 1 }, path, () => binlens(args));
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
      return report(r, { items: j.frames, bytes: j.size }, path, () => binlens(['info', path, '--json']));
    },
    native: (data) => floor(BIG(data)),
  },
];
