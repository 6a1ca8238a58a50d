import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { isMainThread } from 'node:worker_threads';
import { cacheKind, runWithCodeCache } from './codeCache.js';

/** A hash of dist/cli.bundle.js, set by scripts/build.mjs: a rebuilt bundle never meets an old cache. */
declare const BINLENS_BUNDLE_HASH: string;

// V8 optimises a function once it has run about 66 KiB of bytecode. A folder verify runs hundreds of
// functions a few thousand times each, in every pool thread: at that budget TurboFan kept compiling
// them to the end, 40 % of the CPU of `verify --jobs 2` over 10 000 small files (perf, V8's compile
// threads). At 8× it optimises what runs long, and a loop over a large file still reaches the budget
// within milliseconds. Set before the bundle is compiled: V8's code cache holds the flags it was made
// with. Flags are the process's, so the pool's threads (not the main one) leave them alone.
if (isMainThread) setFlagsFromString(`--interrupt-budget=${8 * 66 * 1024}`);

// dist/cli.js: the CLI (dist/cli.bundle.js, src/cli/main.ts) run from V8's code cache kept in
// dist/cli-cache, one file per V8 version, build and kind of file. The verify pool's threads start
// this file too, with a cache of their own: each compiles the checks the main thread never runs
// (0.19 s of CPU a `verify --jobs` run, bench/RESULTS.md), and a thread that ends by itself saves it.
const kind = isMainThread ? cacheKind(process.argv.slice(2)) : 'worker';
const run = runWithCodeCache(join(__dirname, 'cli.bundle.js'), join(__dirname, 'cli-cache', `${process.versions.v8}-${BINLENS_BUNDLE_HASH}-${kind}.bin`));
process.once('exit', () => run.save());
