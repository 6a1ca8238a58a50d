// Fetches the platforms' BLAKE3 addons from the npm registry once, into a cache outside the tracked
// files, and checks the tarball against its pinned integrity every time it is used: a cached file
// that changed is fetched again, and a registry answer that differs stops the packaging.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export const ADDON_CACHE = fileURLToPath(new URL('../../node_modules/.cache/binlens-addons', import.meta.url));

/** npm pack's file name for name@version: the scope's '@' dropped and its '/' made a '-'. */
const tarballName = ({ name, version }) => `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;

/** A Subresource Integrity string ("sha512-<base64>") for the bytes, as npm records it. */
const integrityOf = (bytes, algorithm) => `${algorithm}-${createHash(algorithm).update(bytes).digest('base64')}`;

/**
 * Makes sure the cache holds each addon's tarball with its pinned integrity: a cached file that
 * differs is dropped, and the missing ones come from one `npm pack` (which checks the registry's
 * own dist.integrity). Returns the packages it fetched.
 * @param {{ name: string, version: string, integrity: string }[]} addons
 */
export function fetchAddons(addons, cacheDir = ADDON_CACHE) {
  mkdirSync(cacheDir, { recursive: true });
  const missing = addons.filter((addon) => {
    const tgz = join(cacheDir, tarballName(addon));
    if (existsSync(tgz) && integrityOf(readFileSync(tgz), addon.integrity.split('-')[0]) !== addon.integrity) rmSync(tgz);
    return !existsSync(tgz);
  });
  if (!missing.length) return [];
  const specs = missing.map((a) => `${a.name}@${a.version}`);
  try {
    execFileSync('npm', ['pack', ...specs, '--pack-destination', cacheDir, '--silent'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      shell: process.platform === 'win32',
    });
  } catch (e) {
    throw new Error(`npm pack ${specs.join(' ')} failed (offline, with an empty ${cacheDir}?): ${String(e.stderr ?? e.message).trim()}`);
  }
  return missing;
}

/**
 * The .node file inside the cached tarball of `addon` (a targets.mjs entry), after checking the
 * tarball against the pinned integrity again: what ships is what was pinned.
 * @returns {{ file: string, bytes: Buffer }}
 */
export function addonBinary(addon, cacheDir = ADDON_CACHE) {
  const tgz = join(cacheDir, tarballName(addon));
  if (!existsSync(tgz)) throw new Error(`${tgz} is missing: fetchAddons fetches it`);
  const bytes = readFileSync(tgz);
  const actual = integrityOf(bytes, addon.integrity.split('-')[0]);
  if (actual !== addon.integrity) throw new Error(`${tgz}: integrity ${actual}, but ${addon.name}@${addon.version} is pinned to ${addon.integrity}`);
  const node = tarEntries(gunzipSync(bytes)).filter((e) => e.name.endsWith('.node'));
  if (node.length !== 1) throw new Error(`${tgz}: expected one .node file, found ${node.length}`);
  return { file: node[0].name, bytes: node[0].bytes };
}

/** The regular files of a ustar archive (npm's tarballs): 512-byte headers, octal sizes. */
export function tarEntries(tar) {
  const out = [];
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break; // the end-of-archive blocks
    const field = (from, len) =>
      header
        .subarray(from, from + len)
        .toString('latin1')
        .replace(/\0.*$/s, '');
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const prefix = field(345, 155);
    const name = (prefix ? `${prefix}/` : '') + field(0, 100);
    const type = field(156, 1);
    if (type === '0' || type === '') out.push({ name, bytes: tar.subarray(at + 512, at + 512 + size) });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}
