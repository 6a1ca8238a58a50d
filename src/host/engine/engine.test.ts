import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../test/helpers/fixtures.js';
import type { CountResultDTO } from '../../shared/protocol.js';
import { engineHandlers } from './engine.js';
import { nodePlatform } from './nodePlatform.js';

const ctx = { signal: new AbortController().signal, emit: () => undefined };

describe('the engine', () => {
  it('a finished count returns the summary and top rows the count settled', async () => {
    const engine = engineHandlers(nodePlatform);
    const path = fixture('ben/grid4x4_chain.mkv_chain.ben');
    const opened = await engine.open({ doc: 'd', path, name: 'grid4x4_chain.mkv_chain.ben' }, ctx);
    if (opened.kind !== 'opened') throw new Error('did not open');
    // A file this small is counted at open; a large one is not, and the count settles it later.
    const table = opened.doc.tables[0]!;
    const counted: CountResultDTO = await engine.count({ doc: 'd', table: table.id }, ctx);
    expect(counted.complete).toBe(true);
    // 48 samples in 37 frames: the fixture's JSONL has 48 lines (checked independently here).
    const lines = readFileSync(fixture('ben/grid4x4_chain.jsonl'), 'utf8').trim().split('\n').length;
    expect(lines).toBe(48);
    const samples = counted.summary?.find((f) => f.name === 'samples');
    expect(samples?.value).toBe(String(lines));
    expect(counted.top?.root.label).toBe(opened.doc.root.label);
    await engine.close({ doc: 'd' }, ctx);
  });
});
