// Bundles the four programs Binlens ships: the extension host, the engine worker it runs
// formats in, the webview UI and the `binlens` CLI. `--production` minifies and drops source maps.
import { build } from 'esbuild';
import { chmod, copyFile, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';

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
const [, , , cli] = await Promise.all([
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
  // The CLI is split (ESM chunks in dist/cli/, loaded by dist/cli.js) so a command loads only its
  // own code and the opened file's family: the one 1.2 MB bundle cost ~23 ms of compile at every start.
  build({
    ...common,
    metafile: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    splitting: true,
    // Minified in every build, as it ships: V8 parses each chunk at start, and `info` on a tiny BEN
    // took ~26 ms less CPU minified (bench/RESULTS.md). The linked source map keeps traces readable.
    minify: true,
    // hash-wasm's ESM build lets the bundler keep only the hashes we use (45 KB, not 268 KB at start).
    mainFields: ['module', 'main'],
    entryPoints: { main: 'src/cli/main.ts' },
    outdir: 'dist/cli',
    outExtension: { '.js': '.mjs' },
    chunkNames: '[name]-[hash]',
    // Bundled CommonJS packages call require(), and nodeCodecs looks for native/blake3.node in dist/.
    banner: {
      js: "import { createRequire as binlensRequire } from 'node:module'; import { fileURLToPath as binlensPath } from 'node:url'; const require = binlensRequire(import.meta.url); const __dirname = binlensPath(new URL('..', import.meta.url));",
    },
    define: { BINLENS_VERSION: JSON.stringify(version) },
  }),
  build({ ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js' }),
  build({ ...common, entryPoints: ['webview/style.css'], outfile: 'dist/webview.css', loader: { '.css': 'css' } }),
  // The fuzz harness (test/fuzz): `npm run fuzz`. Not part of the VSIX.
  build({ ...node, entryPoints: ['test/fuzz/main.ts'], outfile: 'dist/fuzz.js' }),
  build({ ...node, entryPoints: ['test/fuzz/worker.ts'], outfile: 'dist/fuzz-worker.js' }),
]);
// Chunk names carry a content hash, so each build leaves the last one's behind. Those older than
// a few minutes go (a build that runs at the same moment, another shell's, keeps its own).
const fresh = new Set(Object.keys(cli.metafile.outputs).flatMap((f) => [f, `${f}.map`].map((x) => x.replace(/^dist\/cli\//, ''))));
for (const f of await readdir('dist/cli')) {
  const p = `dist/cli/${f}`;
  if (!fresh.has(f) && Date.now() - (await stat(p)).mtimeMs > 5 * 60_000) await rm(p, { force: true });
}

// `binlens` stays one runnable file: a CommonJS launcher of the ESM entry.
await rm('dist/cli.js.map', { force: true });
await writeFile('dist/cli.js', "#!/usr/bin/env node\n'use strict';\nimport('./cli/main.mjs');\n");
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
