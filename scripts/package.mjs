// `npm run package`: one VSIX per platform, each with the BLAKE3 addon built for it (or, for the
// web, no native code), then the package check (scripts/checkPackages.mjs) over all of them.
//   node scripts/package.mjs [--out-dir DIR] [--target T[,T…]] [--no-build]
// DIR defaults to dist; files are named binlens-<version>@<target>.vsix. --no-build packages the
// bundles already in dist/ (npm test builds them first); otherwise a production build runs.
import { spawnSync } from 'node:child_process';
import { availableParallelism, tmpdir } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkAll, extensionOf, shown } from './checkPackages.mjs';
import { addonBinary, fetchAddons } from './packaging/addons.mjs';
import { TARGETS, targetOf, vsixName } from './packaging/targets.mjs';
import { packageTarget, shippedFiles } from './packaging/vsix.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const started = Date.now();
const arg = (name) => {
  const at = process.argv.indexOf(name);
  if (at < 0) return undefined;
  const value = process.argv[at + 1];
  if (!value || value.startsWith('--')) throw new Error(`${name} needs a value`);
  return value;
};
async function main() {
  const outDir = resolve(arg('--out-dir') ?? join(ROOT, 'dist'));
  const targets = (arg('--target')?.split(',') ?? TARGETS.map((t) => t.target)).map(targetOf);

  if (!process.argv.includes('--no-build')) {
    const r = spawnSync(process.execPath, ['scripts/build.mjs', '--production'], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) return r.status ?? 1;
  }

  const { name, version } = extensionOf(ROOT);
  const files = await shippedFiles(ROOT);
  const fetched = new Set(fetchAddons(targets.flatMap((t) => (t.addon ? [t.addon] : []))));
  const stageDir = await mkdtemp(join(tmpdir(), 'binlens-package-'));
  // Each vsce run is one Node process, mostly zipping: as many at once as there are cores.
  const queue = [...targets];
  const worker = async () => {
    for (let t = queue.shift(); t; t = queue.shift()) {
      const addon = t.addon ? addonBinary(t.addon) : null;
      const outFile = join(outDir, vsixName(name, version, t.target));
      await packageTarget({ root: ROOT, files, target: t.target, addon: addon?.bytes ?? null, outFile, stageDir });
      const carries = t.addon
        ? `BLAKE3 addon ${t.addon.name}@${t.addon.version}${fetched.has(t.addon) ? ' (fetched)' : ''}`
        : 'no native code: BLAKE3 hashes with WebAssembly';
      console.log(`package: ${shown(outFile)}: ${carries}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(availableParallelism(), queue.length) }, worker));
  } finally {
    await rm(stageDir, { recursive: true, force: true });
  }

  const problems = await checkAll({ dir: outDir, root: ROOT, targets: targets.map((t) => t.target), listed: files });
  for (const p of problems) console.error(`check: ${p}`);
  console.log(
    `package: ${targets.length} packages in ${((Date.now() - started) / 1000).toFixed(1)} s${problems.length ? `, ${problems.length} problems` : ''}`,
  );
  return problems.length ? 1 : 0;
}

// A bad argument, a failed fetch or vsce's complaint: one line naming it, no stack.
process.exitCode = await main().catch((e) => {
  console.error(`package: ${e.message}`);
  return 1;
});
