// Packages one target: a staging copy of the files `vsce ls` lists (so .vscodeignore stays the
// one list of what ships), with the target's addon (or none) as dist/native/blake3.node, then
// `vsce package --target`. Each target stages apart, so packages build side by side and the
// checkout's own dist/native (the CLI's and the tests' addon) is never touched.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADDON_PATH } from './targets.mjs';

const VSCE = fileURLToPath(new URL('../../node_modules/@vscode/vsce/vsce', import.meta.url));

/** Runs vsce with `args` in `cwd`: its stdout, or a rejection with all its output. */
export function vsce(args, cwd) {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [VSCE, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', fail);
    // stdout alone on success: `vsce ls` prints the file list there and its warnings on stderr.
    child.on('close', (code) => (code === 0 ? ok(out) : fail(new Error(`vsce ${args.join(' ')} (in ${cwd}) exited ${code}:\n${out}${err}`))));
  });
}

/** The files the extension ships, as `vsce ls` reads .vscodeignore in `root`; never an addon. */
export async function shippedFiles(root) {
  const out = await vsce(['ls', '--no-dependencies'], root);
  return out.split(/\r?\n/).filter((l) => l && !l.startsWith('dist/native/'));
}

/**
 * Writes `outFile`, the VSIX of `target` built from `files` of `root`, carrying `addon` (the
 * .node bytes) or no native code when it is null.
 * @param {{ root: string, files: string[], target: string, addon: Uint8Array | null, outFile: string, stageDir: string }} o
 */
export async function packageTarget({ root, files, target, addon, outFile, stageDir }) {
  const stage = join(stageDir, target);
  await rm(stage, { recursive: true, force: true });
  for (const f of [...files, '.vscodeignore']) {
    await mkdir(dirname(join(stage, f)), { recursive: true });
    await copyFile(join(root, f), join(stage, f));
  }
  if (addon) {
    await mkdir(join(stage, dirname(ADDON_PATH)), { recursive: true });
    await writeFile(join(stage, ADDON_PATH), addon);
  }
  await mkdir(dirname(resolve(outFile)), { recursive: true });
  await vsce(['package', '--no-dependencies', '--target', target, '--out', resolve(outFile)], stage);
  await rm(stage, { recursive: true, force: true });
}
