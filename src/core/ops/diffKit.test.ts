import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors.js';
import type { FormatDocument } from '../model.js';
import { DiffSideError, pullLines, TableDiff, Tally, zip } from './diffKit.js';

const enc = new TextEncoder();

describe('pullLines', () => {
  it('joins lines split across chunks and keeps a last line without a newline', async () => {
    const lines: string[] = [];
    for await (const l of pullLines('A', async (write) => {
      await write(enc.encode('one\ntw'));
      await write('o\n');
      await write(enc.encode('thr'));
      await write(enc.encode('ee'));
    }))
      lines.push(l);
    expect(lines).toEqual(['one', 'two', 'three']);
  });

  it('keeps the producer at most a chunk ahead, and stops it when the reader stops', async () => {
    let written = 0;
    let ended: unknown;
    const gen = pullLines('B', async (write) => {
      try {
        for (let i = 0; i < 1000; i++) {
          await write(`${i}\n`);
          written++;
        }
      } catch (e) {
        ended = e;
        throw e;
      }
    });
    for await (const l of gen) if (l === '2') break;
    expect(written).toBeLessThanOrEqual(4);
    expect(ended).toBeInstanceOf(FormatError);
    expect((ended as FormatError).code).toBe('cancelled');
  });

  it('passes on what the producer throws, tagged with its side', async () => {
    const gen = pullLines('B', async (write) => {
      await write('a\n');
      throw new FormatError('checksum', 'frame 2: CRC differs', { offset: 40 });
    });
    const seen: string[] = [];
    const error = await (async () => {
      try {
        for await (const l of gen) seen.push(l);
      } catch (e) {
        return e;
      }
    })();
    expect(seen).toEqual(['a']);
    expect(error).toBeInstanceOf(DiffSideError);
    expect((error as DiffSideError).side).toBe('B');
    expect(((error as DiffSideError).error as FormatError).offset).toBe(40);
  });
});

describe('zip and Tally', () => {
  it('pairs values until both end, the shorter side giving undefined', async () => {
    async function* of(...v: number[]) {
      yield* v;
    }
    const pairs: [number | undefined, number | undefined][] = [];
    for await (const p of zip(of(1, 2, 3), of(9))) pairs.push(p);
    expect(pairs).toEqual([
      [1, 9],
      [2, undefined],
      [3, undefined],
    ]);
  });

  it('counts differences by kind and notes that are not differences apart', () => {
    const t = new Tally();
    t.add('key-added', 2);
    t.add('key-removed');
    t.note('keys-same', 5);
    expect(t.summary()).toEqual({ differences: 3, counts: { 'key-added': 2, 'key-removed': 1, 'keys-same': 5 } });
  });
});

describe('TableDiff', () => {
  it('compares only with a document of its own family, naming the other file B', () => {
    const doc = {} as FormatDocument;
    const idv = new TableDiff('an IDV file', doc, []);
    const bindu = { diff: new TableDiff('a bindu file', doc, []) } as unknown as FormatDocument;
    let thrown: unknown;
    try {
      idv.run(bindu, {});
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(DiffSideError);
    expect((thrown as DiffSideError).side).toBe('B');
    expect((thrown as DiffSideError).error).toMatchObject({ code: 'unsupported', detail: 'not an IDV file' });
  });
});
