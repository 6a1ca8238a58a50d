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
});
