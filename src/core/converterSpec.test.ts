import { describe, expect, it } from 'vitest';
import { fileConverter } from './converterSpec.js';
import type { ByteSink, OutputTarget } from './model.js';

describe('fileConverter', () => {
  it('is a file output that opens the output once, unnamed, and hands the sink, context and options to the writer', async () => {
    const opened: (string | undefined)[] = [];
    const written: Uint8Array[] = [];
    const sink: ByteSink = { write: async (b) => void written.push(b) };
    const target: OutputTarget = { file: async (name) => (opened.push(name), sink) };
    const c = fileConverter({ id: 'x', label: 'X', extension: '.x', options: [] }, async (s, ctx, options) => {
      await s.write(Uint8Array.of(1, 2));
      return { summary: `${String(options.n)} ${ctx.signal ? 'signal' : 'none'}` };
    });
    expect({ id: c.id, label: c.label, extension: c.extension, output: c.output, options: c.options }).toStrictEqual({
      id: 'x',
      label: 'X',
      extension: '.x',
      output: 'file',
      options: [],
    });
    expect(await c.run(target, { signal: new AbortController().signal }, { n: 3 })).toStrictEqual({ summary: '3 signal' });
    expect(opened).toStrictEqual([undefined]);
    expect(written).toStrictEqual([Uint8Array.of(1, 2)]);
  });
});
