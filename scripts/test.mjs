// `npm test`: set up a fresh machine if needed, build, type-check, package the VSIX, then run
// every test layer (unit + conformance + CLI, webview in Chromium, end-to-end in code-server),
// then the measurements at scale on their own.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setup } from './setup.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const started = Date.now();

function step(name, cmd, args) {
  const t = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT });
  console.log(`test: ${name} ${r.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  if (r.status !== 0) process.exit(r.status ?? 1);
}

setup();
step('build', process.execPath, ['scripts/build.mjs']);
step('typecheck', 'npm', ['run', '--silent', 'typecheck']);
step('lint', 'npm', ['run', '--silent', 'lint']);
step('package', 'npx', ['vsce', 'package', '--no-dependencies', '--out', 'dist/binlens.vsix']);
// A VSIX per platform, each checked: files, manifest, the BLAKE3 addon's format, CPU and C library.
step('packages', process.execPath, ['scripts/package.mjs', '--no-build', '--out-dir', 'dist/packages']);
const extra = process.argv.slice(2);
// The scale project measures the host's event loop: it runs after the others, alone on the cores.
const runs = extra.length
  ? [extra]
  : [
      ['--project', 'unit', '--project', 'webview', '--project', 'e2e'],
      ['--project', 'scale'],
    ];
for (const args of runs) {
  const t = Date.now();
  const r = spawnSync('npx', ['vitest', 'run', ...args], { stdio: 'inherit', cwd: ROOT });
  console.log(
    `test: vitest ${args.join(' ')} ${r.status === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - t) / 1000).toFixed(1)} s; npm test so far ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (r.status !== 0) process.exit(r.status ?? 1);
}
