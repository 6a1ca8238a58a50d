// `npm start`: VS Code (code-server) on 127.0.0.1 with Binlens installed and a folder of sample
// files: the text sources in samples/ turned into binary files by Binlens's own writers, and
// ../shared/fixtures when it is there. Prints the URL; Ctrl+C stops everything.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setup } from './setup.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
process.chdir(ROOT);
setup();

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

run(process.execPath, ['scripts/build.mjs']);
run('npx', ['vsce', 'package', '--no-dependencies', '--out', 'dist/binlens.vsix']);

const workspace = join(tmpdir(), 'binlens-samples');
rmSync(workspace, { recursive: true, force: true });
mkdirSync(workspace, { recursive: true });
/** samples/samples.json: which source becomes which binary file, through `binlens convert`. */
const recipes = JSON.parse(readFileSync('samples/samples.json', 'utf8'));
for (const r of recipes.samples) {
  const args = [
    'dist/cli.js',
    'convert',
    join('samples', r.source),
    join(workspace, r.output),
    ...(r.to ? ['--to', r.to] : []),
    ...(r.set ?? []).flatMap((s) => ['--set', s]),
  ];
  const out = spawnSync(process.execPath, args, { encoding: 'utf8' });
  console.log(`samples: ${r.output}: ${out.status === 0 ? 'ok' : `failed: ${out.stderr.trim()}`}`);
}
const fixtures = resolve(ROOT, '../shared/fixtures');
if (existsSync(fixtures)) symlinkSync(fixtures, join(workspace, 'shared-fixtures'));

const { startCodeServer } = await import('./codeServer.mjs');
const port = Number(process.env.PORT ?? 8080);
let server;
try {
  server = await startCodeServer({ workspace, vsix: 'dist/binlens.vsix', port });
} catch {
  server = await startCodeServer({ workspace, vsix: 'dist/binlens.vsix', port: 0 });
}
console.log(
  `\nBinlens is running in VS Code at:\n\n  ${server.url}/?folder=${encodeURIComponent(workspace)}\n\nDouble-click a file in the explorer. Ctrl+C stops it.\n`,
);
const stop = async () => {
  await server.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
