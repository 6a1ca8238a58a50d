// Installs what a fresh Debian machine lacks for building, testing and running Binlens:
// Debian's chromium (browser tests), ripgrep and libkrb5-dev (code-server's install), the ripgrep
// download that @vscode/ripgrep would otherwise attempt, and node_modules (`npm ci`).
// Idempotent: every step is skipped when already done. Uses only Node built-ins.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, copyFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed with ${r.status}`);
}

function has(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function debInstalled(pkg) {
  return spawnSync('dpkg', ['-s', pkg], { stdio: 'ignore' }).status === 0;
}

/** Installs the Debian packages of `wanted` that are not installed yet (apt-get, with sudo when not root). */
export function ensureDebs(wanted) {
  const missing = wanted.filter((pkg) => !debInstalled(pkg));
  if (missing.length === 0) return;
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  console.log(`setup: installing ${missing.join(' ')} with apt-get`);
  const apt = (...args) => run(sudo[0] ?? 'apt-get', sudo.length ? ['apt-get', ...args] : args, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  apt('update', '-qq');
  apt('install', '-y', '-qq', '--no-install-recommends', ...missing);
}

export function ensureAptPackages() {
  ensureDebs(['chromium', 'ripgrep', 'libkrb5-dev'].filter((pkg) => !(pkg === 'ripgrep' && has('rg'))));
}

/** @vscode/ripgrep 1.15.11 looks here before downloading rg from GitHub (unreachable offline). */
export function seedRipgrep() {
  const dir = join(process.env.TMPDIR || '/tmp', 'vscode-ripgrep-cache-1.15.11');
  const tarball = join(dir, 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz');
  if (existsSync(tarball)) return;
  const rg = execFileSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).trim();
  mkdirSync(dir, { recursive: true });
  const staging = mkdtempSync(join(tmpdir(), 'binlens-rg-'));
  copyFileSync(rg, join(staging, 'rg'));
  run('tar', ['-czf', tarball, '-C', staging, 'rg']);
  rmSync(staging, { recursive: true, force: true });
}

export function ensureNodeModules() {
  const marker = join(ROOT, 'node_modules', '.package-lock.json');
  const lock = join(ROOT, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('setup: npm ci');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

export function setup() {
  ensureAptPackages();
  seedRipgrep();
  ensureNodeModules();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) setup();
