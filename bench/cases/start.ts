import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BenchCase } from '../types.js';

/**
 * CLI start (issue 18 item 4): `binlens info` on a tiny fixture of each family, a fresh process
 * per run, beside `node -e 0` (the reference column), runs alternating. Target: at most node's own
 * start + 30 ms. `BINLENS_CLI=/path/to/cli.js` measures another build (an older checkout's) the same way.
 * The first start of a build on a kind of file compiles the bundle and saves V8's code cache
 * (src/cli/codeCache.ts); `prepare` makes that start, so the runs time the starts a user sees after it.
 */
const FIXTURES = resolve('../shared/fixtures');
const CLI = resolve(process.env.BINLENS_CLI ?? 'dist/cli.js');

const TINY: readonly (readonly [family: string, path: string])[] = [
  ['ben', 'ben/grid4x4_chain.standard.ben'],
  ['xorb', 'xorb/01_none_only.xorb'],
  ['bindu', 'bindu/sample.bindu'],
  ['idv', 'idv/mlnet-model-embedded/ep_model1__DataLoaderModel_Transform_002_Schema.idv'],
  ['fst', 'fst/one.map.fst3.fst'],
];

function info(rel: string): number {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run node scripts/build.mjs first`);
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [CLI, 'info', resolve(FIXTURES, rel)], { stdio: ['ignore', 'ignore', 'pipe'] });
  const timedMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`binlens info ${rel} exited ${r.status}: ${r.stderr}`);
  return timedMs;
}

export const cases: BenchCase[] = TINY.map(([family, rel]) => ({
  id: `start-info-${family}`,
  title: `CLI start: binlens info on a tiny ${family} fixture`,
  runs: 15,
  prepare: async () => void info(rel),
  run: async () => ({ timedMs: info(rel) }),
  native: () => ({ label: 'node -e 0', command: [process.execPath, '-e', '0'] }),
}));
