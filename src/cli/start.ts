import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { cacheKind, runWithCodeCache } from './codeCache.js';

/** A hash of dist/cli.bundle.js, set by scripts/build.mjs: a rebuilt bundle never meets an old cache. */
declare const BINLENS_BUNDLE_HASH: string;

// dist/cli.js: the CLI (dist/cli.bundle.js, src/cli/main.ts) run from V8's code cache kept in
// dist/cli-cache, one file per V8 version, build and kind of file. Worker threads start this file too; they only read it.
const cache = `${process.versions.v8}-${BINLENS_BUNDLE_HASH}-${cacheKind(process.argv.slice(2))}.bin`;
const run = runWithCodeCache(join(__dirname, 'cli.bundle.js'), join(__dirname, 'cli-cache', cache));
if (isMainThread) process.once('exit', () => run.save());
