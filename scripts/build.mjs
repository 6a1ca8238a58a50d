// Bundles the four programs Binlens ships: the extension host, the engine worker it runs
// formats in, the webview UI and the `binlens` CLI. `--production` minifies and drops source maps.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmod, copyFile, mkdir, readFile, readdir, rm } from 'node:fs/promises';

const production = process.argv.includes('--production');
const { version } = JSON.parse(await readFile('package.json', 'utf8'));
const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  legalComments: 'none',
  // WASM codecs (liblzma) are inlined as bytes, so dist/ stays a handful of files.
  loader: { '.wasm': 'binary' },
  logLevel: 'warning',
};
const node = { ...common, platform: 'node', format: 'cjs', target: 'node20' };

await mkdir('dist', { recursive: true });
await Promise.all([
  build({ ...node, entryPoints: ['src/host/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] }),
  build({ ...node, entryPoints: ['src/host/engine/worker.ts'], outfile: 'dist/engine.js' }),
  // The web extension host loads one file and lets it require only 'vscode': no Node built-ins.
  build({
    ...common,
    platform: 'browser',
    format: 'cjs',
    target: 'es2022',
    entryPoints: ['src/host/extension.web.ts'],
    outfile: 'dist/web/extension.js',
    external: ['vscode'],
  }),
  // The CLI is one minified CommonJS file. Node 20's ESM loader cost `info` ~35 ms more than this
  // file (split ESM chunks: +82 ms over `node -e 0`, this: +46; bench/RESULTS.md, CLI start); V8
  // only pre-parses the 0.75 MB, and each family's code still runs only when its file opens (esbuild
  // turns `import()` into a deferred module init). The linked source map keeps traces readable.
  build({
    ...node,
    minify: true,
    // hash-wasm's ESM build lets the bundler keep only the hashes we use.
    mainFields: ['module', 'main'],
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.bundle.js',
    define: { BINLENS_VERSION: JSON.stringify(version) },
  }),
  build({ ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js' }),
  build({ ...common, entryPoints: ['webview/style.css'], outfile: 'dist/webview.css', loader: { '.css': 'css' } }),
  // The fuzz harness (test/fuzz): `npm run fuzz`. Not part of the VSIX.
  build({ ...node, entryPoints: ['test/fuzz/main.ts'], outfile: 'dist/fuzz.js' }),
  build({ ...node, entryPoints: ['test/fuzz/worker.ts'], outfile: 'dist/fuzz-worker.js' }),
]);
// dist/cli.js runs the bundle from a V8 code cache (src/cli/start.ts): compiling it was 35-46 ms of every
// start. The cache is named after the bundle's hash, and old ones go with the old bundle.
const bundleHash = createHash('sha256')
  .update(await readFile('dist/cli.bundle.js'))
  .digest('hex')
  .slice(0, 16);
await build({
  ...node,
  entryPoints: ['src/cli/start.ts'],
  outfile: 'dist/cli.js',
  banner: { js: '#!/usr/bin/env node' },
  define: { BINLENS_BUNDLE_HASH: JSON.stringify(bundleHash) },
});
await rm('dist/cli', { recursive: true, force: true }); // the split build's chunks, before this
await rm('dist/cli-cache', { recursive: true, force: true });
await chmod('dist/cli.js', 0o755);

// The BLAKE3 addon (@napi-rs/blake-hash) npm installed for this machine, beside the bundles: a
// .node file cannot be bundled, and the VSIX carries no node_modules. On other platforms the
// copy fails to load and the engine hashes with WebAssembly (src/core/io/nodeCodecs.ts).
const addonDirs = (await readdir('node_modules/@napi-rs').catch(() => [])).filter((d) => d.startsWith(`blake-hash-${process.platform}-${process.arch}`));
const addonDir = addonDirs.find((d) => !d.endsWith('-musl')) ?? addonDirs[0];
const addonFile = addonDir && (await readdir(`node_modules/@napi-rs/${addonDir}`)).find((f) => f.endsWith('.node'));
await mkdir('dist/native', { recursive: true });
if (addonFile) await copyFile(`node_modules/@napi-rs/${addonDir}/${addonFile}`, 'dist/native/blake3.node');
else console.warn(`build: no BLAKE3 addon for ${process.platform}-${process.arch}; hashing uses WebAssembly`);
