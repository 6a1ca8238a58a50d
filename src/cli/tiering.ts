import { setFlagsFromString } from 'node:v8';

/** What a verify pool's threads are started with (`PoolWorkerData.binlensPool`). */
export const VERIFY_POOL = 'verify';

/**
 * V8 optimises a function once it has run about 66 KiB of bytecode. A folder verify runs hundreds
 * of functions a few thousand times each, in every pool thread: at that budget TurboFan kept
 * compiling them to the end, 40 % of the CPU of `verify --jobs 2` over 10 000 small files (perf,
 * V8's compile threads). At 8× it optimises what runs long, and a loop over a large file still
 * reaches the budget within milliseconds. Only `verify` raises it: once a flag changes, V8 refuses
 * the code cache Node keeps for its own modules, and `binlens info` paid 10-15 ms compiling them.
 * Called before the bundle is compiled, as V8's code cache holds the flags it was made with; says
 * whether this thread runs with the raised budget, so its cache is named apart. `args` is the main
 * thread's command line; a worker (no `args`) runs with what its process's main thread set.
 */
export function raiseBudgetForVerify(args: readonly string[] | undefined, pool: unknown): boolean {
  if (args === undefined) return pool === VERIFY_POOL;
  if (args.find((a) => !a.startsWith('-')) !== 'verify') return false;
  setFlagsFromString(`--interrupt-budget=${8 * 66 * 1024}`);
  return true;
}
