import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../../test/helpers/scratch.js';
import { cacheKind, runWithCodeCache } from './codeCache.js';

const dir = scratchDir('code-cache');
const ran = globalThis as { codeCacheRun?: { dirname: string; filename: string; hasFs: boolean; exportsIsThis: boolean } };
/** What the last start's script said (read through a call: the assignments between would narrow it). */
const lastRun = () => ran.codeCacheRun;

const SCRIPT =
  `globalThis.codeCacheRun = { dirname: __dirname, filename: __filename, hasFs: typeof require('node:fs').readFileSync === 'function', ` +
  `exportsIsThis: this === module.exports && exports === module.exports };\n`;
let starts = 0;

/**
 * The script as a new file for each start: V8 keeps what it compiled by source and file name for
 * the process, and a second Script of the same file would take that, not the cache, as a new process does.
 */
function script(): string {
  const file = join(dir, `start${++starts}.js`);
  writeFileSync(file, SCRIPT);
  return file;
}

describe('the CLI bundle run from a V8 code cache', () => {
  it('runs the file as require would, and the next start takes the cache this one saved', () => {
    const file = script();
    const cache = join(dir, 'cache', 'a.bin');
    const first = runWithCodeCache(file, cache);
    expect(first.fromCache).toBe(false);
    expect(lastRun()).toEqual({ dirname: dir, filename: file, hasFs: true, exportsIsThis: true });
    first.save();
    expect(existsSync(cache)).toBe(true);
    ran.codeCacheRun = undefined;
    const again = script();
    expect(runWithCodeCache(again, cache).fromCache).toBe(true);
    expect(lastRun()?.filename).toBe(again);
  });

  it('refuses a damaged cache, runs the file compiled afresh and replaces the cache', () => {
    const file = script();
    const cache = join(dir, 'b.bin');
    writeFileSync(cache, new Uint8Array(4096).fill(7));
    ran.codeCacheRun = undefined;
    const run = runWithCodeCache(file, cache);
    expect(run.fromCache).toBe(false);
    expect(lastRun()?.filename).toBe(file);
    run.save();
    expect(runWithCodeCache(script(), cache).fromCache).toBe(true);
  });

  it('starts without a cache where none can be written, and leaves no partial file', () => {
    const blocked = join(dir, 'not-a-folder');
    writeFileSync(blocked, 'a file where the cache folder would be');
    const run = runWithCodeCache(script(), join(blocked, 'c.bin'));
    expect(() => run.save()).not.toThrow();
    expect(runWithCodeCache(script(), join(blocked, 'c.bin')).fromCache).toBe(false);
    expect(readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('keeps a cache per extension of the first file, and no path in its name', () => {
    expect(cacheKind(['info', 'data/Plans.XBEN', '--json'])).toBe('xben');
    expect(cacheKind(['convert', '--to', 'jsonl', 'a.ben', 'b.jsonl'])).toBe('ben');
    expect(cacheKind(['--version'])).toBe('cli');
    expect(cacheKind(['verify', 'folder'])).toBe('cli');
    expect(cacheKind(['info', 'x.a/../../b'])).toBe('cli');
    expect(cacheKind(['info', 'x.toolongextension'])).toBe('cli');
  });
});
