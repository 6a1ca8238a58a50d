import { describe, expect, it } from 'vitest';
import { fixture } from '../../../test/helpers/fixtures.js';
import { THREAD_MEMORY } from '../../protocol/protocol.js';
import { engineHandlers } from './engine.js';
import { nodePlatform } from './nodePlatform.js';

const ctx = { signal: new AbortController().signal, emit: () => undefined };

describe("an engine thread's own memory", () => {
  it("the LZ4 memory a xorb verify grew is counted as the thread's, given back on `trim`, and the file still decodes alike", async () => {
    const engine = engineHandlers(nodePlatform);
    const opened = await engine.open({ doc: 'x', path: fixture('xorb/02_lz4_text.xorb'), name: '02_lz4_text.xorb' }, ctx);
    if (opened.kind !== 'opened') throw new Error('did not open');
    expect((await engine.verify({ doc: 'x' }, ctx)).ok).toBe(true);
    const thread = async () => (await engine.memory({}, ctx)).find((m) => m.doc === THREAD_MEMORY)?.bytes ?? 0;
    expect(await thread()).toBeGreaterThan(0);
    const panel = opened.doc.panels[0]!;
    const before = await engine.panel({ doc: 'x', panel: panel.id, params: {} }, ctx);
    await engine.trim({ doc: THREAD_MEMORY }, ctx);
    expect(await thread()).toBe(0);
    expect(await engine.panel({ doc: 'x', panel: panel.id, params: {} }, ctx)).toEqual(before);
    expect((await engine.verify({ doc: 'x' }, ctx)).ok).toBe(true);
    await engine.close({ doc: 'x' }, ctx);
  });

  it("the FST walk's memory a regex search grew is counted as the thread's, given back on `trim`, and the search answers the same", async () => {
    const engine = engineHandlers(nodePlatform);
    const opened = await engine.open({ doc: 'f', path: fixture('fst/medium.map.fst3.fst'), name: 'medium.map.fst3.fst' }, ctx);
    if (opened.kind !== 'opened') throw new Error('did not open');
    const thread = async () => (await engine.memory({}, ctx)).find((m) => m.doc === THREAD_MEMORY)?.bytes ?? 0;
    const search = async () => {
      const rows: unknown[] = [];
      const report = await engine.search(
        { doc: 'f', search: 'regex', params: { pattern: '[a-f].*[0-9]', limit: 1000 } },
        { ...ctx, emit: (r) => rows.push(...r) },
      );
      return { report, rows };
    };
    const first = await search();
    expect(first.rows.length).toBeGreaterThan(0);
    // The file's 64 KiB windows and the regex's DFA table: megabytes past the module's 1.2 MB start.
    expect(await thread()).toBeGreaterThan(4 << 20);
    await engine.trim({ doc: THREAD_MEMORY }, ctx);
    expect(await thread()).toBe(0);
    expect(await search()).toEqual(first);
    await engine.close({ doc: 'f' }, ctx);
  });
});
