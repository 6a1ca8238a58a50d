import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/** What running a script through its code cache did, and how to keep the cache for the next start. */
export interface CachedRun {
  /** True when a cache was there and V8 took it (same V8, flags and script). */
  readonly fromCache: boolean;
  /**
   * Writes the cache when there was none or V8 refused it; called at exit, it also holds the
   * functions this run compiled, not only the top level. A folder that cannot be written is no
   * error: the next start compiles again.
   */
  save(): void;
}

/**
 * Runs the CommonJS file `file` as `require` would, from V8's compiled code in `cacheFile` when
 * that is there: Node compiled the 0.75 MB CLI bundle on every start (35-46 ms of a run, more than
 * any family's `info`; bench/RESULTS.md, CLI start), and Node 20 has no `module.enableCompileCache`.
 * V8 checks the cache's version, flags and source length only, so the caller names the file after
 * the build (a hash of the bundle) and keeps it where only who can write the bundle can write it.
 */
export function runWithCodeCache(file: string, cacheFile: string): CachedRun {
  const source = readFileSync(file, 'utf8');
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(wrapped, { filename: file, cachedData });
  const fromCache = cachedData !== undefined && !script.cachedDataRejected;
  const mod = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void).call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
  return {
    fromCache,
    save() {
      if (fromCache) return;
      // Written aside and renamed, so a start running at the same time reads a whole cache or none.
      const part = `${cacheFile}.${process.pid}.part`;
      try {
        mkdirSync(dirname(cacheFile), { recursive: true });
        writeFileSync(part, script.createCachedData());
        renameSync(part, cacheFile);
      } catch {
        try {
          rmSync(part, { force: true });
        } catch {
          // Nothing was written there either.
        }
      }
    },
  };
}

/**
 * Which cache a command line starts from: the extension of its first file, so each family keeps the
 * functions its runs compile (a cache made by `info` on a .ben left an fst run 9 ms of compiling),
 * and `cli` for a line without one. Only letters and digits: the name is part of a path.
 */
export function cacheKind(args: readonly string[]): string {
  const file = args.find((a) => !a.startsWith('-') && a.includes('.'));
  return /\.([a-z0-9]{1,8})$/i.exec(file ?? '')?.[1]!.toLowerCase() ?? 'cli';
}
