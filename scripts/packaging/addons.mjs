// Fetches a platform's BLAKE3 addon from the npm registry once, into a cache outside the tracked
// files, and checks the tarball against its pinned integrity every time it is used: a cached file
// that changed is fetched again, and a registry answer that differs stops the packaging.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export const ADDON_CACHE = 'node_modules/.cache/binlens-addons';

/** npm pack's file name for name@version: the scope's '@' dropped and its '/' made a '-'. */
const tarballName = ({ name, version }) => `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;

/** A Subresource Integrity string ("sha512-<base64>") for the bytes, as npm records it. */
const integrityOf = (bytes, algorithm) => `${algorithm}-${createHash(algorithm).update(bytes).digest('base64')}`;

/**
 * The addon's .node file of `addon` (a targets.mjs entry): from the cache when its tarball
 * matches the pinned integrity, else `npm pack`ed from the registry (which checks the registry's
 * own dist.integrity) and checked again here against the pin.
 * @returns {{ file: string, bytes: Buffer, fetched: boolean }}
 */
export function addonBinary(addon, cacheDir = ADDON_CACHE) {
  mkdirSync(cacheDir, { recursive: true });
  const tgz = join(cacheDir, tarballName(addon));
  const algorithm = addon.integrity.split('-')[0];
  let fetched = false;
  if (existsSync(tgz) && integrityOf(readFileSync(tgz), algorithm) !== addon.integrity) rmSync(tgz);
  if (!existsSync(tgz)) {
    try {
      execFileSync('npm', ['pack', `${addon.name}@${addon.version}`, '--pack-destination', cacheDir, '--silent'], { stdio: ['ignore', 'ignore', 'pipe'], shell: process.platform === 'win32' });
    } catch (e) {
      throw new Error(`npm pack ${addon.name}@${addon.version} failed (offline, with an empty ${cacheDir}?): ${String(e.stderr ?? e.message).trim()}`);
    }
    fetched = true;
  }
  const bytes = readFileSync(tgz);
  const actual = integrityOf(bytes, algorithm);
  if (actual !== addon.integrity) throw new Error(`${tgz}: integrity ${actual}, but ${addon.name}@${addon.version} is pinned to ${addon.integrity}`);
  const node = tarEntries(gunzipSync(bytes)).filter((e) => e.name.endsWith('.node'));
  if (node.length !== 1) throw new Error(`${tgz}: expected one .node file, found ${node.length}`);
  return { file: node[0].name, bytes: node[0].bytes, fetched };
}

/** The regular files of a ustar archive (npm's tarballs): 512-byte headers, octal sizes. */
export function tarEntries(tar) {
  const out = [];
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break; // the end-of-archive blocks
    const field = (from, len) => header.subarray(from, from + len).toString('latin1').replace(/\0.*$/s, '');
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const prefix = field(345, 155);
    const name = (prefix ? `${prefix}/` : '') + field(0, 100);
    const type = field(156, 1);
    if (type === '0' || type === '') out.push({ name, bytes: tar.subarray(at + 512, at + 512 + size) });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}
