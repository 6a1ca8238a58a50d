// Checks the per-platform VSIXs `npm run package` wrote: each holds exactly the files the
// extension ships, names its target in its manifest, and carries the BLAKE3 addon built for that
// target's format, CPU and C library (or no native code at all: the web package). Run alone:
//   node scripts/checkPackages.mjs [--dir DIR]     (DIR defaults to dist)
// It exits 1 naming each VSIX and what is wrong with it.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { unzipSync } from 'fflate';
import { binaryKind, describeKind } from './packaging/binaryFormat.mjs';
import { ADDON_PATH, TARGETS, targetOf, vsixName } from './packaging/targets.mjs';
import { shippedFiles } from './packaging/vsix.mjs';

/** Files every package holds (vsce renames README, CHANGELOG and LICENSE as below). */
const REQUIRED = [
  'extension.vsixmanifest',
  '[Content_Types].xml',
  'extension/package.json',
  'extension/readme.md',
  'extension/changelog.md',
  'extension/LICENSE.txt',
  'extension/media/icon.png',
  'extension/dist/extension.js',
  'extension/dist/engine.js',
  'extension/dist/web/extension.js',
  'extension/dist/webview.js',
  'extension/dist/webview.css',
];
/** Files a package may hold besides: translations, the grammar. Anything else is a leak. */
const ALLOWED = [/^extension\/package\.nls(\.[\w-]+)?\.json$/, /^extension\/syntaxes\/[^/]+\.json$/, /^extension\/l10n\/[^/]+\.json$/];
/** vsce's names inside the VSIX for files `vsce ls` lists under their own names. */
const RENAMED = { 'README.md': 'readme.md', 'CHANGELOG.md': 'changelog.md', LICENSE: 'LICENSE.txt' };
/** Target platforms the Open VSX registry accepts (its TargetPlatform list), besides universal. */
const OPEN_VSX_TARGETS = new Set([
  'win32-x64',
  'win32-arm64',
  'linux-x64',
  'linux-arm64',
  'linux-armhf',
  'alpine-x64',
  'alpine-arm64',
  'darwin-x64',
  'darwin-arm64',
  'web',
]);

/**
 * The names src/core/io/nodeCodecs.ts calls on the addon (its Blake3Addon interface). Node-API
 * addons register them as strings, so an addon without them would never be used: the engine
 * would silently hash with WebAssembly.
 */
const ADDON_API = ['Blake3Hasher', 'newKeyed', 'reset', 'update', 'digestBuffer'];

const attribute = (xml, element, name) => new RegExp(`<${element}\\b[^>]*\\s${name}="([^"]*)"`).exec(xml)?.[1];
const property = (xml, id) => new RegExp(`<Property\\s+Id="${id.replaceAll('.', '\\.')}"\\s+Value="([^"]*)"`).exec(xml)?.[1];

/**
 * What is wrong with the VSIX at `file` as the package of `target` for the extension `expect`
 * (its package.json: name, publisher, version); `listed` is `vsce ls`'s list, whose files must
 * all be inside. Empty when it is right.
 * @param {string} file
 * @param {string} target
 * @param {{ name: string, publisher: string, version: string }} expect
 * @param {string[]} [listed]
 * @returns {{ problems: string[], addon: string | null }}
 */
export function checkVsix(file, target, expect, listed = []) {
  const { binary } = targetOf(target);
  const problems = [];
  if (!existsSync(file)) return { problems: ['missing (npm run package writes it)'], addon: null };
  let entries;
  try {
    entries = unzipSync(readFileSync(file));
  } catch (e) {
    return { problems: [`not a readable zip: ${e.message}`], addon: null };
  }
  const names = Object.keys(entries);
  const text = (name) => (entries[name] ? Buffer.from(entries[name]).toString('utf8') : '');

  // The file list: what must be there, what may be, what vsce ls says ships.
  for (const name of REQUIRED) if (!entries[name]) problems.push(`${name} is missing`);
  for (const f of listed) {
    const inside = `extension/${RENAMED[f] ?? f}`;
    if (!entries[inside]) problems.push(`${inside} is missing, though \`vsce ls\` lists ${f}`);
  }
  const addonEntry = `extension/${ADDON_PATH}`;
  for (const name of names) {
    if (name.endsWith('/') || REQUIRED.includes(name) || ALLOWED.some((re) => re.test(name))) continue;
    if (name === addonEntry && binary) continue;
    problems.push(
      name === addonEntry || name.endsWith('.node')
        ? `${name}: native code in the ${target} package, which must carry none`
        : `${name} is not a file the extension ships`,
    );
  }

  // The manifests: the target named, the identity of the extension, what Open VSX requires.
  const vsixManifest = text('extension.vsixmanifest');
  const identity = { Id: expect.name, Version: expect.version, Publisher: expect.publisher, TargetPlatform: target };
  for (const [name, want] of Object.entries(identity)) {
    const got = attribute(vsixManifest, 'Identity', name);
    if (got !== want) problems.push(`extension.vsixmanifest: Identity ${name} is ${got === undefined ? 'absent' : `'${got}'`}, expected '${want}'`);
  }
  if (!OPEN_VSX_TARGETS.has(target)) problems.push(`target '${target}' is not one Open VSX accepts`);
  let pkg = {};
  try {
    pkg = JSON.parse(text('extension/package.json'));
  } catch (e) {
    problems.push(`extension/package.json does not parse: ${e.message}`);
  }
  // ovsx's own checks before an upload: publisher, name and version present, and a license.
  for (const field of ['publisher', 'name', 'version']) if (!pkg[field]) problems.push(`extension/package.json: no '${field}' (Open VSX requires it)`);
  if (!pkg.license && !names.some((n) => /^extension\/licen[cs]e(\.(md|txt))?$/i.test(n)))
    problems.push('no license field or LICENSE file (Open VSX requires one)');
  const entry = (rel) => `extension/${String(rel).replace(/^\.\//, '')}`;
  for (const field of target === 'web' ? ['browser'] : ['main', 'browser']) {
    if (!pkg[field]) problems.push(`extension/package.json: no '${field}' entry`);
    else if (!entries[entry(pkg[field])] && !entries[`${entry(pkg[field])}.js`])
      problems.push(`extension/package.json: '${field}' is ${pkg[field]}, which the package does not hold`);
  }
  if (target === 'web' && !(property(vsixManifest, 'Microsoft.VisualStudio.Code.ExtensionKind') ?? '').split(',').includes('web')) {
    problems.push('extension.vsixmanifest: ExtensionKind does not include web, so no web host would load it');
  }

  // The addon: built for this target, or absent.
  let addon = null;
  if (binary) {
    const bytes = entries[addonEntry];
    if (!bytes) problems.push(`${addonEntry} is missing: the ${target} package must carry its BLAKE3 addon`);
    else {
      try {
        const kind = binaryKind(bytes);
        addon = describeKind(kind);
        const wrong = kind.format !== binary.format || kind.arch !== binary.arch || (binary.libc && kind.libc !== binary.libc);
        if (wrong) problems.push(`${addonEntry} is ${addon}, but ${target} needs ${describeKind(binary)}`);
        const absent = ADDON_API.filter((name) => !Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).includes(name, 0, 'latin1'));
        if (absent.length) problems.push(`${addonEntry} does not name ${absent.join(', ')}: not the BLAKE3 API nodeCodecs calls`);
      } catch (e) {
        problems.push(`${addonEntry}: ${e.message}`);
      }
    }
  }
  return { problems, addon };
}

/** A path for messages: relative to the working directory when inside it, else as given. */
export function shown(path) {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

/** The extension's identity, from package.json in `root`. */
export function extensionOf(root) {
  const { name, publisher, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return { name, publisher, version };
}

/**
 * Checks every target's package in `dir` against the package spec and `listed` (`vsce ls` in
 * `root` unless given); prints one line per package and returns the problems, each naming its VSIX.
 */
export async function checkAll({ dir, root = process.cwd(), targets = TARGETS.map((t) => t.target), listed }) {
  const expect = extensionOf(root);
  listed ??= await shippedFiles(root);
  const problems = [];
  for (const target of targets) {
    const path = join(dir, vsixName(expect.name, expect.version, target));
    const file = shown(path);
    const result = checkVsix(path, target, expect, listed);
    problems.push(...result.problems.map((p) => `${file}: ${p}`));
    const n = result.problems.length;
    const carries = result.addon ? `BLAKE3 addon ${result.addon}` : n ? '' : 'no native code: hashing uses WebAssembly';
    console.log(`check: ${file} ${n ? `FAILED (${n} problem${n > 1 ? 's' : ''})` : 'ok'}${carries ? `; ${carries}` : ''}`);
  }
  return problems;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const at = process.argv.indexOf('--dir');
  const dir = at > 0 ? process.argv[at + 1] : 'dist';
  const root = fileURLToPath(new URL('..', import.meta.url));
  const problems = await checkAll({ dir: resolve(dir), root });
  for (const p of problems) console.error(`check: ${p}`);
  process.exit(problems.length ? 1 : 0);
}
