import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { writeAtomically } from '../../src/core/io/nodeOutput.js';
import { writeStream } from '../../src/core/formats/ben/pipeline.js';
import { chain } from '../large.js';
import type { BenchCase } from '../types.js';

/**
 * XBEN scan (issue 18 item 1: "XBEN is sequential by nature; make its scan as fast as liblzma
 * decodes"): `binlens info` (the exact count) and `cat --from <last> --count 1` on an XBEN of
 * 4 000 Standard plans × 140 000 nodes (bench/large.ts `chain`: ~45 MB of runs in ~0.3 MB of xz),
 * each a whole CLI process, beside the floor: `xz -dc FILE >/dev/null`, liblzma decoding it natively.
 */
const CLI = resolve(process.env.BINLENS_CLI ?? 'dist/cli.js');
const PLANS = 4000;
const FILE = (data: string) => resolve(data, 'chain-scan.standard.xben');

async function prepare(data: string): Promise<void> {
  if (existsSync(FILE(data))) return;
  // Preset 1: the file is input to the scan, and a slower preset only makes preparing it slower.
  await writeAtomically(FILE(data), { kind: 'file' }, async (t) =>
    writeStream(chain(PLANS), await t.file(), { format: 'xben', variant: 'standard', preset: 1 }),
  );
}

function binlens(args: readonly string[]): string {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run node scripts/build.mjs first`);
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`binlens ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

const floor = (data: string) => ({ label: 'xz -dc FILE >/dev/null (liblzma, native)', command: ['sh', '-c', `xz -dc '${FILE(data)}' >/dev/null`] });
const hasXz = () => spawnSync('xz', ['--version']).status === 0;

export const cases: BenchCase[] = [
  {
    id: 'xben-scan-count',
    title: `info (exact frame and sample count) of an XBEN of ${PLANS} Standard plans × 140 000 nodes; floor: xz -dc`,
    runs: 5,
    prepare,
    async run(data) {
      const j = JSON.parse(binlens(['info', FILE(data), '--json'])) as { samples: number; frames: number };
      if (j.samples !== PLANS) throw new Error(`counted ${j.samples} samples, the file holds ${PLANS}`);
      return { items: j.frames };
    },
    native: (data) => (hasXz() ? floor(data) : undefined),
  },
  {
    id: 'xben-scan-seek-last',
    title: `cat --from <last sample> --count 1 in the same XBEN; floor: xz -dc`,
    runs: 5,
    prepare,
    async run(data) {
      const out = binlens(['cat', FILE(data), '--from', String(PLANS - 1), '--count', '1']);
      if (!out.trimEnd().endsWith(`"sample":${PLANS}}`)) throw new Error(`not sample ${PLANS}: ${out.slice(-80)}`);
      return { items: 1 };
    },
    native: (data) => (hasXz() ? floor(data) : undefined),
  },
];
