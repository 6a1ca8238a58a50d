import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors.js';
import type { Difference } from '../model.js';
import { DiffSideError, ROWS_SHOWN, Tally } from './diffKit.js';
import { diffRowsByKey } from './keyedRows.js';

type KeyStyle = 'number' | 'int64' | 'text';

/**
 * A cell as a family's `cat` prints it: numbers, 64-bit integers as decimal strings, or text.
 * Text keys come in pairs where one is the other and a "!", which sorts before the closing quote
 * of a JSON string: ordered by their JSON the pair would swap.
 */
function cell(k: number, style: KeyStyle): unknown {
  return style === 'number' ? k : style === 'int64' ? String(k) : text(k);
}

function text(k: number): string {
  return `k${Math.abs(k)}${k < 0 ? '!' : ''}`;
}

function fromText(key: unknown): number {
  const t = String(key);
  return t.endsWith('!') ? -Number(t.slice(1, -1)) : Number(t.slice(1));
}

function lines(rows: readonly [number, number][], style: KeyStyle): () => AsyncGenerator<string> {
  return async function* () {
    for (const [k, v] of rows) yield JSON.stringify({ id: cell(k, style), v });
  };
}

async function run(
  a: readonly [number, number][],
  b: readonly [number, number][],
  style: KeyStyle,
  cap?: number,
): Promise<{ diffs: Difference[]; counts: Record<string, number> }> {
  const tally = new Tally();
  const diffs: Difference[] = [];
  for await (const d of diffRowsByKey(lines(a, style), lines(b, style), 'id', tally, {}, cap)) diffs.push(d);
  return { diffs, counts: { ...tally.summary().counts } };
}

/** The same diff computed directly: maps from key to row, no order, no limits. */
function expected(a: readonly [number, number][], b: readonly [number, number][]): Map<string, string[]> {
  const inA = new Map(a.map(([k, v], row) => [k, { v, row }]));
  const inB = new Map(b.map(([k, v], row) => [k, { v, row }]));
  const out = new Map<string, string[]>([
    ['row-removed', []],
    ['row-changed', []],
    ['row-added', []],
  ]);
  for (const [k, x] of inA) {
    const y = inB.get(k);
    if (!y) out.get('row-removed')!.push(`${k}@${x.row}`);
    else if (y.v !== x.v) out.get('row-changed')!.push(`${k}@${x.row}→${y.row}`);
  }
  for (const [k, y] of inB) if (!inA.has(k)) out.get('row-added')!.push(`${k}@${y.row}`);
  return out;
}

function described(d: Difference): string {
  const data = d.data as { key: unknown; row?: number; rowA?: number; rowB?: number };
  const k = typeof data.key === 'string' && data.key.startsWith('k') ? fromText(data.key) : String(data.key);
  return d.kind === 'row-changed' ? `${k}@${data.rowA}→${data.rowB}` : `${k}@${data.row}`;
}

/** Rows with distinct keys and values from a small range, so files share keys and values. */
const table = fc.uniqueArray(fc.tuple(fc.integer({ min: -40, max: 40 }), fc.integer({ min: 0, max: 2 })), { selector: ([k]) => k, maxLength: 60 });
const style = fc.constantFrom<KeyStyle>('number', 'int64', 'text');

describe('rows matched by a key column', () => {
  it('finds the removed, changed and added rows a direct computation finds, sorted (merge walk) or not (hash join), listing at most ROWS_SHOWN of each', async () => {
    await fc.assert(
      fc.asyncProperty(table, table, style, fc.boolean(), async (a, b, s, sort) => {
        // Text keys sort as text by UTF-16 code units ("k1" < "k1!" < "k10"), numbers and 64-bit integers as numbers.
        const order = (x: [number, number], y: [number, number]) => (s === 'text' ? (text(x[0]) < text(y[0]) ? -1 : 1) : x[0] - y[0]);
        const [ra, rb] = sort ? [[...a].sort(order), [...b].sort(order)] : [a, b];
        const want = expected(ra, rb);
        const { diffs, counts } = await run(ra, rb, s);
        for (const [kind, all] of want) {
          expect(counts[kind] ?? 0).toBe(all.length);
          const listed = diffs.filter((d) => d.kind === kind).map(described);
          expect(listed.length).toBe(Math.min(ROWS_SHOWN, all.length));
          expect(all).toEqual(expect.arrayContaining(listed));
          const more = diffs.find((d) => d.kind === 'not-shown' && d.data?.of === kind);
          expect(more?.data?.count ?? 0).toBe(all.length - listed.length);
        }
        if (sort) {
          // A merge walk reports in key order.
          const keys = diffs.filter((d) => d.kind !== 'not-shown').map((d) => (d.data as { key: unknown }).key);
          if (s === 'text') expect(keys).toEqual([...(keys as string[])].sort());
          else expect(keys.map(Number)).toEqual(keys.map(Number).sort((x, y) => x - y));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('holds nothing for sorted files, so the cap does not apply; unsorted files over the cap are refused before any row, naming the first row out of order', async () => {
    const sorted: [number, number][] = Array.from({ length: 50 }, (_, i) => [i, 0]);
    const changed = sorted.map(([k]) => [k, 1] as [number, number]);
    expect((await run(sorted, changed, 'number', 1)).counts['row-changed']).toBe(50);
    const unsorted: [number, number][] = [
      [2, 0],
      [1, 0],
      [3, 0],
    ];
    const diffs: Difference[] = [];
    const error = await (async () => {
      try {
        for await (const d of diffRowsByKey(lines(unsorted, 'number'), lines(sorted, 'number'), 'id', new Tally(), {}, 1000)) diffs.push(d);
      } catch (e) {
        return e;
      }
    })();
    expect(diffs).toEqual([]);
    expect(error).toBeInstanceOf(FormatError);
    expect((error as FormatError).code).toBe('limit');
    expect((error as FormatError).message).toMatch(
      /^--key: rows by key: A is not \(row 1: 1 after 2\) sorted by "id", B is; matching unsorted rows would hold about 1 MiB \(the A file's 3 rows\), over the 1 MiB cap: sort both files by "id"/,
    );
  });

  it('refuses a key that repeats, in a sorted file and in either file of a hash join, naming the file and both rows', async () => {
    const repeatedIn = async (a: [number, number][], b: [number, number][]) => {
      try {
        await run(a, b, 'int64');
      } catch (e) {
        expect(e).toBeInstanceOf(DiffSideError);
        const { side, error } = e as DiffSideError;
        return `${side}: ${(error as FormatError).message}`;
      }
      return 'no error';
    };
    expect(
      await repeatedIn(
        [
          [1, 0],
          [5, 0],
          [5, 1],
        ],
        [[1, 0]],
      ),
    ).toBe('A: column id: the key 5 is in rows 1 and 2: a key column must name each row once');
    // Unsorted: B (the smaller) is held, A streamed; then A held, B streamed.
    expect(
      await repeatedIn(
        [
          [3, 0],
          [1, 0],
          [2, 0],
          [4, 0],
        ],
        [
          [7, 0],
          [7, 0],
        ],
      ),
    ).toBe('B: column id: the key 7 is in rows 0 and 1: a key column must name each row once');
    expect(
      await repeatedIn(
        [
          [3, 0],
          [1, 0],
        ],
        [
          [7, 0],
          [2, 0],
          [9, 0],
          [2, 1],
        ],
      ),
    ).toBe('B: column id: the key 2 is in rows 1 and 3: a key column must name each row once');
  });
});
