import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

export const CLI = resolve(__dirname, '../../dist/cli.js');

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built `binlens` CLI (`npm run build` first) and returns its exit code and output. */
export function binlens(...args: string[]): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 256 << 20, timeout: 60_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
