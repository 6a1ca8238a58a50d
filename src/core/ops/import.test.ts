import { describe, expect, it } from 'vitest';
import { MemorySource } from '../io/byteSource.js';
import type { Importer, OutputTarget } from '../model.js';
import { importFile, type FileHost } from './import.js';

/** A host that records what the run asked of it and whether it gave everything back. */
function recordingHost() {
  const log: string[] = [];
  const host: FileHost = {
    openPath: async (path) => {
      log.push(`open ${path}`);
      const src = new MemorySource(new TextEncoder().encode(`bytes of ${path}`));
      return Object.assign(src, { close: async () => void log.push(`close ${path}`) });
    },
    writeOutput: async (out, opts, run) => {
      log.push(`write ${out} ${JSON.stringify(opts)}`);
      return run({ file: async () => ({ write: async () => undefined, close: async () => undefined }) } as unknown as OutputTarget);
    },
    scratch: async () => ({ file: async () => ({}) as never, dispose: async () => void log.push('dispose scratch') }) as never,
  };
  return { host, log };
}

const importer = (run: Importer['run']): Importer => ({ id: 'x', label: 'X', extension: '.x', output: 'file', accepts: ['.txt'], run });

describe('importFile', () => {
  it('runs the importer on the opened input into the atomic output, with scratch space and the caller’s signal, then releases both', async () => {
    const { host, log } = recordingHost();
    const signal = new AbortController().signal;
    const report = await importFile(
      importer(async (src, _target, ctx, options) => {
        expect(new TextDecoder().decode(await src.read(0, src.size))).toBe('bytes of in.txt');
        expect(ctx.signal).toBe(signal);
        expect(ctx.scratch).toBeDefined();
        expect(options).toEqual({ level: 3 });
        return { summary: 'done' };
      }),
      { input: 'in.txt', out: 'out.x', force: true, options: { level: 3 } },
      host,
      { signal },
    );
    expect(report).toEqual({ summary: 'done' });
    expect(log).toEqual(['open in.txt', 'write out.x {"force":true,"inputs":["in.txt"],"kind":"file"}', 'dispose scratch', 'close in.txt']);
  });

  it('releases the scratch space and the input when the importer throws, and passes the error on', async () => {
    const { host, log } = recordingHost();
    const run = importFile(
      importer(async () => {
        throw new Error('bad line 3');
      }),
      { input: 'in.txt', out: 'out.x', force: false, options: {} },
      host,
    );
    await expect(run).rejects.toThrow('bad line 3');
    expect(log).toEqual(['open in.txt', 'write out.x {"force":false,"inputs":["in.txt"],"kind":"file"}', 'dispose scratch', 'close in.txt']);
  });
});
