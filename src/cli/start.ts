import { join } from 'node:path';
import { isMainThread, workerData } from 'node:worker_threads';
import { cacheKind, runWithCodeCache } from './codeCache.js';
import { raiseBudgetForVerify } from './tiering.js';

/** A hash of dist/cli.bundle.js, set by scripts/build.mjs: a rebuilt bundle never meets an old cache. */
declare const BINLENS_BUNDLE_HASH: string;

// dist/cli.js: the CLI (dist/cli.bundle.js, src/cli/main.ts) run from V8's code cache kept in
// dist/cli-cache, one file per V8 version, build and kind of file. The verify pool's threads start
// this file too, with a cache of their own: each compiles the checks the main thread never runs
// (0.19 s of CPU a `verify --jobs` run, bench/RESULTS.md), and a thread that ends by itself saves it.
const verifying = raiseBudgetForVerify(isMainThread ? process.argv.slice(2) : undefined, (workerData as { binlensPool?: unknown } | null)?.binlensPool);
const kind = `${verifying ? 'verify-' : ''}${isMainThread ? cacheKind(process.argv.slice(2)) : 'worker'}`;
const run = runWithCodeCache(join(__dirname, 'cli.bundle.js'), join(__dirname, 'cli-cache', `${process.versions.v8}-${BINLENS_BUNDLE_HASH}-${kind}.bin`));
process.once('exit', () => run.save());
