import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openFixture } from '../../../../test/helpers/fixtures.js';
import { MemorySource } from '../../io/byteSource.js';
import type { FormatDocument, OptionValues, Row } from '../../model.js';
import { FstBuilder } from './builder.js';
import { fstHandler } from './handler.js';
import { compareBytes, escapeKey } from './keyText.js';
import { utf8Sequences } from './regex.js';

async function search(doc: FormatDocument, id: string, params: OptionValues, signal?: AbortSignal): Promise<{ rows: Row[]; count: number; note?: string }> {
  const rows: Row[] = [];
  const report = await doc.searches!.find((s) => s.id === id)!.run(params, { signal }, (r) => rows.push(...r));
  return { rows, ...report };
}

const keysOf = (rows: Row[]) => rows.map((r) => r.cells[0]);

/** An fst of the given UTF-8 words (value = index), and the words in key order. */
async function wordsFst(words: string[]): Promise<{ doc: FormatDocument; sorted: Uint8Array[] }> {
  const enc = new TextEncoder();
  const sorted = [...new Set(words)].map((w) => enc.encode(w)).sort(compareBytes);
  const b = new FstBuilder(3);
  sorted.forEach((k, i) => b.insert(k, BigInt(i)));
  const bytes = Uint8Array.from([...b.takeBytes(), ...b.finish()]);
  return { doc: await fstHandler.open(new MemorySource(bytes), {}), sorted };
}

/** Edit distance in code points; `osa` counts an adjacent swap as one edit. */
function distance(a: string, b: string, osa: boolean): number {
  const x = Array.from(a);
  const y = Array.from(b);
  const d = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
      if (osa && i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[x.length]![y.length]!;
}

const ALPHABET = ['a', 'b', 'c', 'd', 'é', '日', '本', '/', '.', 'x'];
const word = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 7 }).map((a) => a.join(''));
const dec = new TextDecoder();

describe('fst searches equal brute force over all keys', () => {
  it('fuzzy: Levenshtein in characters, with and without swaps, whole keys and prefixes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(word, { minLength: 1, maxLength: 80 }),
        word,
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        fc.boolean(),
        async (words, query, d, swaps, prefix) => {
          const { doc, sorted } = await wordsFst(words);
          const got = await search(doc, 'fuzzy', { query, distance: d, transpositions: swaps, prefix });
          const want = sorted
            .map((k) => dec.decode(k))
            .filter((w) =>
              prefix
                ? Array.from(w).some((_, i) => distance(Array.from(w).slice(0, i).join(''), query, swaps) <= d) || distance(w, query, swaps) <= d
                : distance(w, query, swaps) <= d,
            );
          expect(keysOf(got.rows)).toEqual(want.map((w) => escapeKey(new TextEncoder().encode(w))));
          if (!prefix)
            for (const r of got.rows)
              expect(r.cells[3]).toBe(
                distance(
                  dec.decode(
                    new Uint8Array(
                      String(r.cells[2])
                        .split(' ')
                        .filter(Boolean)
                        .map((h) => parseInt(h, 16)),
                    ),
                  ),
                  query,
                  swaps,
                ),
              );
        },
      ),
      { numRuns: 150 },
    );
  });

  it('regex: the automaton intersection matches what a JavaScript RegExp matches on whole keys', async () => {
    const patterns = ['a.*', '[a-c]+', '(ab|cd)*x?', '.{2}', '[^a]*', 'é|日本', '\\.', 'a{1,3}b?', '(?:a|b)c*', '[é日]+.', 'x|', '\\w+', '.*本.*'];
    await fc.assert(
      fc.asyncProperty(fc.array(word, { minLength: 1, maxLength: 80 }), fc.constantFrom(...patterns), async (words, pattern) => {
        const { doc, sorted } = await wordsFst(words);
        // regex-syntax's \w is Unicode's word characters; JavaScript's is ASCII.
        const re = new RegExp(`^(?:${pattern.replace('\\w', '[\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}]')})$`, 'u');
        const got = await search(doc, 'regex', { pattern });
        expect(keysOf(got.rows)).toEqual(sorted.filter((k) => re.test(dec.decode(k))).map((k) => escapeKey(k)));
      }),
      { numRuns: 120 },
    );
  });

  it('prefix, subsequence and range', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(word, { minLength: 1, maxLength: 80 }), word, word, async (words, p, q) => {
        const { doc, sorted } = await wordsFst(words);
        const enc = new TextEncoder();
        const pb = enc.encode(p);
        const qb = enc.encode(q);
        const esc = (k: Uint8Array) => escapeKey(k);
        expect(keysOf((await search(doc, 'prefix', { prefix: p })).rows)).toEqual(
          sorted.filter((k) => compareBytes(k.subarray(0, pb.length), pb) === 0).map(esc),
        );
        const isSub = (k: Uint8Array) => {
          let i = 0;
          for (const b of k) if (i < pb.length && b === pb[i]) i++;
          return i === pb.length;
        };
        expect(keysOf((await search(doc, 'subsequence', { needle: p })).rows)).toEqual(sorted.filter(isSub).map(esc));
        for (const fromInclusive of ['inclusive', 'exclusive']) {
          for (const toInclusive of ['inclusive', 'exclusive']) {
            const got = await search(doc, 'range', { from: p, to: q, fromInclusive, toInclusive });
            const want = sorted.filter((k) => {
              const a = compareBytes(k, pb);
              const b = compareBytes(k, qb);
              return (p === '' || (fromInclusive === 'inclusive' ? a >= 0 : a > 0)) && (q === '' || (toInclusive === 'inclusive' ? b <= 0 : b < 0));
            });
            expect(keysOf(got.rows)).toEqual(want.map(esc));
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  it('UTF-8 sequences of a code point range cover exactly the encodings of its code points', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0x10ffff }), fc.integer({ min: 0, max: 0x3000 }), (lo, span) => {
        const hi = Math.min(0x10ffff, lo + span);
        const seqs = utf8Sequences(lo, hi);
        const covers = (bytes: Uint8Array) => seqs.some((s) => s.length === bytes.length && s.every(([a, b], i) => bytes[i]! >= a && bytes[i]! <= b));
        for (const cp of [lo, hi, Math.floor((lo + hi) / 2), lo - 1, hi + 1]) {
          if (cp < 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) continue;
          expect(covers(new TextEncoder().encode(String.fromCodePoint(cp))), `U+${cp.toString(16)}`).toBe(cp >= lo && cp <= hi);
        }
      }),
    );
  });
});

describe('fst searches on the reference files', () => {
  it('medium map: prefix doc/1 and Levenshtein karitona d=2 give the hit counts fst 0.4.7 reports (7,781 and 37)', async () => {
    const doc = await openFixture('fst/medium.map.fst3.fst');
    expect((await search(doc, 'prefix', { prefix: 'doc/1' })).count).toBe(7781);
    expect((await search(doc, 'fuzzy', { query: 'karitona', distance: 2 })).count).toBe(37);
  });

  it('small map: prefix mon, get \\xff, and the range bounds are stated', async () => {
    const doc = await openFixture('fst/small.map.fst3.fst');
    expect(keysOf((await search(doc, 'prefix', { prefix: 'mon' })).rows)).toEqual(['mon', 'monday', 'month']);
    expect((await search(doc, 'get', { key: '\\xff' })).rows[0]!.cells[1]).toBe(18446744073709551615n);
    expect(await search(doc, 'get', { key: 'nope' })).toMatchObject({ count: 0, note: 'no key nope' });
    const r = await search(doc, 'range', { from: 'ab', to: 'mon', toInclusive: 'inclusive' });
    expect(r.note).toBe('keys k with ab ≤ k ≤ mon');
    expect(r.count).toBe(5);
  });

  it('stops at the limit and when cancelled', async () => {
    const doc = await openFixture('fst/medium.map.fst3.fst');
    expect(await search(doc, 'prefix', { prefix: '', limit: 10 })).toMatchObject({ count: 10, note: 'stopped at the limit of 10' });
    const controller = new AbortController();
    controller.abort();
    await expect(search(doc, 'regex', { pattern: '.*' }, controller.signal)).rejects.toThrow(/cancelled/);
  });

  it('a regex error names the pattern position instead of throwing something else', async () => {
    const doc = await openFixture('fst/small.map.fst3.fst');
    await expect(search(doc, 'regex', { pattern: 'a(b' })).rejects.toThrow(/regex: missing \)/);
    await expect(search(doc, 'regex', { pattern: '*' })).rejects.toThrow(/nothing to repeat/);
  });
});
