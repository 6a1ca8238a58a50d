import { describe, expect, it } from 'vitest';
import { MemorySource } from './io/byteSource.js';
import type { FormatDocument, OpenContext } from './model.js';
import { lazyHandler } from './handlerSpec.js';

describe('lazyHandler', () => {
  it('keeps the metadata and imports the open function only when a file is opened', async () => {
    const doc = { title: 'opened' } as FormatDocument;
    const calls: string[] = [];
    const h = lazyHandler({ id: 'demo', label: 'Demo', extensions: ['.demo'], sniff: () => 'no' }, async () => {
      calls.push('imported');
      return async (src, ctx) => {
        calls.push(`open ${src.size} ${ctx.name}`);
        return doc;
      };
    });
    expect(h).toMatchObject({ id: 'demo', label: 'Demo', extensions: ['.demo'] });
    expect(calls).toEqual([]);
    expect(await h.open(new MemorySource(new Uint8Array(3)), { name: 'a.demo' } as OpenContext)).toBe(doc);
    expect(calls).toEqual(['imported', 'open 3 a.demo']);
  });
});
