import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../test/helpers/fixtures.js';
import { MAX_DIFF_ROWS, type DiffResultDTO, type RowDTO } from '../../protocol/protocol.js';
import { engineHandlers } from './engine.js';
import { nodePlatform } from './nodePlatform.js';

const ctx = { signal: new AbortController().signal, emit: () => undefined };

async function openBoth(a: string, b: string) {
  const engine = engineHandlers(nodePlatform);
  for (const [doc, path] of [
    ['a', a],
    ['b', b],
  ] as const) {
    const opened = await engine.open({ doc, path: fixture(path), name: path.split('/').pop()! }, ctx);
    expect(opened.kind, path).toBe('opened');
  }
  return engine;
}

/** The fixtures' ground truth, not our reader: one assignment per JSONL line, samples numbered from 1. */
function jsonlSamples(path: string): string[] {
  return readFileSync(fixture(path), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.stringify((JSON.parse(l) as { assignment: number[] }).assignment));
}

/** key → value of a ground-truth TSV (keys escaped as the diff prints them). */
function tsv(path: string): Map<string, string> {
  const rows = readFileSync(fixture(path), 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  return new Map(rows.map((l) => l.split('\t') as [string, string]));
}

describe('the engine diff table', () => {
  it('lists the samples whose assignments differ in the fixtures’ JSONL, in order, each targeting its row in both files', async () => {
    const engine = await openBoth('ben/grid4x4_chain.standard.ben', 'ben/v1_source.mkv_chain.ben');
    const events: number[] = [];
    const result = await engine.diff({ diff: 'd', a: 'a', b: 'b' }, { ...ctx, emit: (e) => events.push(e.rows) });
    const sa = jsonlSamples('ben/grid4x4_chain.jsonl');
    const sb = jsonlSamples('ben/v1_source.jsonl');
    const changed = sa.slice(0, Math.min(sa.length, sb.length)).flatMap((s, i) => (s === sb[i] ? [] : [i + 1]));
    expect(changed.length).toBeGreaterThan(0);
    const rows = await engine.diffPage({ diff: 'd', from: 0, count: 2000 }, ctx);
    const samples = rows.filter((r) => r.cells[0] === 'sample-changed').map((r) => Number(String(r.cells[1]).replace('sample ', '')));
    expect(samples).toEqual(changed);
    expect(result).toMatchObject({ exitCode: 1, rows: rows.length, dropped: 0 });
    expect(result.counts['sample-changed']).toBe(changed.length);
    expect(events.at(-1)).toBe(rows.length);
    const first = rows.findIndex((r) => r.cells[0] === 'sample-changed');
    const at = { kind: 'row', table: 'samples', row: changed[0]! - 1 };
    expect(await engine.diffTargets({ diff: 'd', row: first }, ctx)).toEqual({ a: at, b: at });
    if (sa.length !== sb.length) {
      const last = rows.length - 1;
      expect(rows[last]!.cells[0]).toBe('sample-count-changed');
      const longer = sa.length > sb.length ? 'a' : 'b';
      expect(await engine.diffTargets({ diff: 'd', row: last }, ctx)).toEqual({
        [longer]: { kind: 'row', table: 'samples', row: Math.min(sa.length, sb.length) },
      });
    }
  });

  it('says "same" (exit 0, no rows) for one ensemble as BEN and as XBEN', async () => {
    const engine = await openBoth('ben/grid4x4_chain.standard.ben', 'ben/grid4x4_chain.standard.xben');
    const result = await engine.diff({ diff: 'd', a: 'a', b: 'b' }, ctx);
    expect(result).toMatchObject({ exitCode: 0, differences: 0, rows: 0, dropped: 0 });
    expect(await engine.diffPage({ diff: 'd', from: 0, count: 10 }, ctx)).toEqual([]);
  });

  it(`keeps the first ${MAX_DIFF_ROWS} differences as rows and counts the rest, as many as the ground truth has`, async () => {
    const engine = await openBoth('fst/small.map.fst3.fst', 'fst/medium.map.fst3.fst');
    const result: DiffResultDTO = await engine.diff({ diff: 'd', a: 'a', b: 'b' }, ctx);
    const a = tsv('fst/small.map.tsv');
    const b = tsv('fst/medium.map.tsv');
    const removed = [...a.keys()].filter((k) => !b.has(k)).length;
    const added = [...b.keys()].filter((k) => !a.has(k)).length;
    const changed = [...a.keys()].filter((k) => b.has(k) && b.get(k) !== a.get(k)).length;
    expect(result.differences).toBe(removed + added + changed);
    expect(result.rows).toBe(MAX_DIFF_ROWS);
    expect(result.dropped).toBe(result.differences - MAX_DIFF_ROWS);
    const tail: RowDTO[] = await engine.diffPage({ diff: 'd', from: MAX_DIFF_ROWS - 1, count: 10 }, ctx);
    expect(tail.length).toBe(1);
    // A key row opens both files at a range search from that key (where it is, or would be).
    const row0 = (await engine.diffPage({ diff: 'd', from: 0, count: 1 }, ctx))[0]!;
    // "key (empty)" is how a line says the empty key, the first of the small file's ground truth.
    const key = row0.cells[1] === 'key (empty)' ? '' : String(row0.cells[1]).replace(/^key /, '');
    const targets = await engine.diffTargets({ diff: 'd', row: 0 }, ctx);
    const search = { kind: 'search', search: 'range', params: { from: key, fromInclusive: 'inclusive' } };
    expect(targets).toEqual({ a: search, b: search });
  });

  it('stops when cancelled, as cancelled rather than as trouble, and a new diff of the same id starts afresh', async () => {
    const engine = await openBoth('fst/small.map.fst3.fst', 'fst/medium.map.fst3.fst');
    const stop = new AbortController();
    const running = engine.diff({ diff: 'd', a: 'a', b: 'b' }, { signal: stop.signal, emit: () => stop.abort() });
    await expect(running).rejects.toMatchObject({ code: 'cancelled' });
    const again = await engine.diff({ diff: 'd', a: 'b', b: 'b' }, ctx);
    expect(again).toMatchObject({ exitCode: 0, rows: 0 });
    expect(await engine.diffPage({ diff: 'd', from: 0, count: 10 }, ctx)).toEqual([]);
  });

  it('ends with exit code 2 naming the damaged side and where, instead of comparing damaged data', async () => {
    const engine = await openBoth('fst/small.map.fst3.fst', 'fst/corrupt/small.map.fst3.flip-crc.fst');
    const result = await engine.diff({ diff: 'd', a: 'a', b: 'b' }, ctx);
    expect(result.exitCode).toBe(2);
    expect(result.trouble?.side).toBe('B');
    expect(result.trouble?.message).toMatch(/CRC/);
    expect(result.rows).toBe(0);
  });
});
