import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { FormatError } from '../../errors.js';
import { MemorySource } from '../../io/byteSource.js';
import { type Automaton, startsWith, subsequence } from './automaton.js';
import { FstBuilder } from './builder.js';
import { FastWalk } from './fastWalk.js';
import { readLayout } from './header.js';
import { compareBytes, escapeKey, parseKey } from './keyText.js';
import { levenshtein } from './levenshtein.js';
import { toDecimal } from './node.js';
import { FstReader } from './reader.js';
import { regexAutomaton } from './regex.js';
import { type Bound, KeyStream, type StreamOptions } from './stream.js';

/**
 * Searches in WebAssembly (a DFA table stepped in fstwalk.wat) against the TypeScript walk of the
 * same automaton and bounds: the same keys, values, final nodes and automaton states, in the
 * same order, paused or not.
 */
async function readerOf(bytes: Uint8Array): Promise<FstReader> {
  const src = new MemorySource(bytes);
  return new FstReader(src, await readLayout(src));
}

/** Every key a stream gives as "key value@addr/start state", pausing every `pause` keys; `out` holds those given before a throw. */
async function rows(stream: KeyStream, show: (state: unknown) => string = () => '', pause = 0, out: string[] = []): Promise<string[]> {
  for (;;) {
    let n = 0;
    const done = await stream.run((k, len, hi, lo, node, state) => {
      out.push(`${escapeKey(k, len)} ${toDecimal(hi, lo)}@${node.addr}/${node.start} ${show(state)}`);
      return pause === 0 || ++n < pause;
    });
    if (done) return out;
  }
}

/** The keys of both walks of one search: WebAssembly first, then TypeScript. */
async function both<S>(reader: FstReader, opts: StreamOptions<S>, show?: (state: S | undefined) => string, pause = 0): Promise<[string[], string[]]> {
  const shown = show as ((state: unknown) => string) | undefined;
  return [await rows(new KeyStream(reader, opts), shown, pause), await rows(new KeyStream(reader, { ...opts, inTypeScript: true }), shown)];
}

const BYTES = [0x00, 0x2f, 0x61, 0x62, 0x63, 0x7a, 0xc3, 0xa9, 0xe6, 0x97, 0xa5, 0xe0, 0x81, 0xff];
const key = fc.array(fc.constantFrom(...BYTES), { maxLength: 6 }).map((a) => Uint8Array.from(a));
const PIECES = ['a', 'b', '.', '[a-c]', '[^b]', 'é', '日', '\\xff', '\\x00', '(a|bc)', '\\w', '\\d', '[é-日]'];
const pattern = fc
  .array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom('', '*', '+', '?', '{1,2}')), { maxLength: 4 })
  .map((parts) => parts.map(([p, q]) => p + q).join(''));
const bound = fc.option(fc.record({ key, inclusive: fc.boolean() }), { nil: undefined });
const text = fc.array(fc.constantFrom('a', 'b', 'c', 'é', '日', '/'), { maxLength: 5 }).map((a) => a.join(''));

/** One random search: an automaton and bounds, and how to show its states. */
const search = fc.oneof(
  // The prefix search seeks to its prefix (a bound the automaton implies), or to any other bound.
  fc.tuple(key, bound, fc.boolean()).map(([p, other, seek]) => ({
    automaton: startsWith(p) as Automaton<unknown>,
    from: seek ? ({ key: p, inclusive: true } as Bound | undefined) : other,
    to: undefined as Bound | undefined,
  })),
  fc.tuple(bound, bound).map(([from, to]) => ({ automaton: undefined, from, to })),
  fc.tuple(pattern, bound).map(([p, to]) => ({ automaton: regexAutomaton(p) as Automaton<unknown>, from: undefined, to })),
  key.map((n) => ({ automaton: subsequence(n) as Automaton<unknown>, from: undefined, to: undefined })),
  fc.tuple(text, fc.integer({ min: 0, max: 2 }), fc.boolean(), fc.boolean(), bound).map(([q, distance, transpositions, prefix, from]) => ({
    automaton: levenshtein(q, { distance, transpositions, prefix }) as Automaton<unknown>,
    from,
    to: undefined,
  })),
);

/** An fst of the distinct keys, valued by their order. */
function fstOf(keys: Uint8Array[]): Uint8Array {
  const sorted = [...new Map(keys.map((k) => [escapeKey(k), k])).values()].sort(compareBytes);
  const b = new FstBuilder(3);
  sorted.forEach((k, i) => b.insert(k, BigInt(i * 1000003)));
  return Uint8Array.from([...b.takeBytes(), ...b.finish()]);
}

/** The state as the search shows it: Levenshtein's distance, else the state itself. */
const stateText = (aut: Automaton<unknown> | undefined) => (s: unknown) =>
  aut && 'distance' in aut ? String((aut as { distance(s: unknown): number }).distance(s)) : JSON.stringify(s ?? null);

describe('fst searches in WebAssembly', () => {
  it('give the keys, values, nodes and states of the TypeScript walk, for random fsts and searches', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(key, { maxLength: 60 }), search, fc.nat(4), async (keys, s, pause) => {
        const reader = await readerOf(fstOf(keys));
        const [fast, slow] = await both(reader, s, stateText(s.automaton), pause);
        expect(fast).toEqual(slow);
      }),
      { numRuns: 400 },
    );
  });

  const FILES = ['fst/small.map.fst1.fst', 'fst/small.map.fst3.fst', 'fst/wide.map.fst2.fst', 'fst/wide.set.fst3.fst', 'fst/tiny.map.vellum1.fst'];
  it.each(FILES)('%s: prefix, range, regex, fuzzy and subsequence searches as in TypeScript', async (file) => {
    const reader = await readerOf(readFixture(file));
    expect(reader.fast()).toBeDefined();
    const enc = new TextEncoder();
    const searches: StreamOptions<unknown>[] = [
      { automaton: startsWith(enc.encode('a')), from: { key: enc.encode('a'), inclusive: true } },
      { from: { key: enc.encode('b'), inclusive: false }, to: { key: enc.encode('m'), inclusive: true } },
      { automaton: regexAutomaton('[a-f].*e.?') },
      { automaton: levenshtein('alpha', { distance: 2, transpositions: true, prefix: false }) },
      { automaton: subsequence(enc.encode('ae')) },
    ];
    for (const s of searches) {
      const [fast, slow] = await both(reader, s, stateText(s.automaton));
      expect(fast).toEqual(slow);
    }
  });

  it('keeps two searches on one reader apart, each with its own automaton, resuming where it paused', async () => {
    const reader = await readerOf(readFixture('fst/medium.map.fst3.fst'));
    const searches: StreamOptions<unknown>[] = [
      { automaton: regexAutomaton('doc/1.*') },
      { automaton: levenshtein('karitona', { distance: 2, transpositions: false, prefix: false }) as Automaton<unknown> },
    ];
    const want = await Promise.all(searches.map((s) => rows(new KeyStream(reader, { ...s, inTypeScript: true }))));
    const streams = searches.map((s) => new KeyStream(reader, s));
    const got: string[][] = [[], []];
    const done = [false, false];
    for (let turn = 0; !done.every(Boolean); turn++) {
      const i = turn % 2;
      if (done[i]) continue;
      done[i] = await streams[i]!.run((k, len, hi, lo, node) => {
        got[i]!.push(`${escapeKey(k, len)} ${toDecimal(hi, lo)}@${node.addr}/${node.start} `);
        return got[i]!.length % 5 !== 0;
      });
    }
    expect(got).toEqual(want);
  });

  it('goes on in TypeScript, with the same states, where the DFA table is full', async () => {
    const bytes = readFixture('fst/medium.map.fst3.fst');
    const reader = await readerOf(bytes);
    const small = FastWalk.create(reader.version, reader.limit, reader.root, new MemorySource(bytes), undefined, 5)!;
    const aut = levenshtein('karitona', { distance: 2, transpositions: true, prefix: false });
    const slow = await rows(new KeyStream(reader, { automaton: aut, inTypeScript: true }), stateText(aut));
    const bailed = await small.stream(aut as Automaton<unknown>).run(() => true);
    expect(typeof bailed).toBe('object');
    vi.spyOn(reader, 'fast').mockReturnValue(small);
    expect(await rows(new KeyStream(reader, { automaton: aut }), stateText(aut))).toEqual(slow);
    expect(slow).toHaveLength(39);
  });
});

describe('prefix searches in WebAssembly (a seek in the module, no DFA)', () => {
  it('seeks a prefix search in the module through 3 window slots, a lookup waiting for windows beside it', async () => {
    const bytes = readFixture('fst/medium.map.fst3.fst');
    const reader = await readerOf(bytes);
    const tight = FastWalk.create(reader.version, reader.limit, reader.root, new MemorySource(bytes), 3)!;
    const search = (p: Uint8Array) => ({ automaton: startsWith(p) as Automaton<unknown>, from: { key: p, inclusive: true } });
    for (const [i, p] of ['doc/1', 'doc/12', 'k', 'karitona', 'doc/1\\xff', 'zzzz'].map((t, i) => [i, parseKey(t)] as const)) {
      const want = await rows(new KeyStream(reader, { ...search(p), inTypeScript: true }), stateText(undefined));
      vi.spyOn(reader, 'fast').mockReturnValue(tight);
      // The lookup writes its key where the seek keeps its prefix, while the seek waits for a window.
      const [got, value] = await Promise.all([rows(new KeyStream(reader, search(p)), stateText(undefined), i + 2), tight.get(parseKey('karitona'))]);
      vi.restoreAllMocks();
      expect(got, escapeKey(p)).toEqual(want);
      expect(value).toBe((await reader.lookup(parseKey('karitona')))?.value);
      if (i === 0) expect(want).toHaveLength(7781);
    }
  });

  it('a node whose inputs do not increase is damage that the seek, the stream and the lookup all name', async () => {
    // small.map.fst1's node @107 ("a") has transitions on 0x20 and 0x62; as 0x62, 0x62 a seek for
    // "ab" took the first and a stream both (a CI counterexample of the property below).
    const bytes = readFixture('fst/small.map.fst1.fst').slice();
    expect(bytes[105]).toBe(0x20);
    bytes[105] = 0x62;
    const reader = await readerOf(bytes);
    const p = parseKey('ab');
    const named = (e: unknown) => (e instanceof FormatError ? `${e.code}@${e.offset} ${e.detail}` : Promise.reject(e));
    const want = 'corrupt@107 transition 1 (input 0x62) is not after transition 0 (0x62): inputs must increase';
    for (const inTypeScript of [false, true]) {
      const prefix = await rows(
        new KeyStream(reader, { automaton: startsWith(p) as Automaton<unknown>, from: { key: p, inclusive: true }, inTypeScript }),
      ).catch(named);
      expect(prefix).toBe(want);
      const out: string[] = [];
      expect(await rows(new KeyStream(reader, { inTypeScript }), undefined, 0, out).catch(named)).toBe(want);
      expect(out.map((r) => r.split(' ')[0])).toEqual(['', '\\x00', '\\x00\\x00']);
    }
    expect(await reader.get(p).catch(named)).toBe(want);
    expect(await reader.lookup(p).catch(named)).toBe(want);
  });

  it('on damaged bytes a prefix search gives the keys of the TypeScript walk, then the same located error', async () => {
    const sources = ['fst/small.map.fst1.fst', 'fst/small.map.fst3.fst', 'fst/wide.map.fst2.fst'].map(readFixture);
    await fc.assert(
      fc.asyncProperty(fc.nat(sources.length - 1), fc.array(fc.tuple(fc.nat(), fc.nat(255)), { minLength: 1, maxLength: 3 }), key, async (which, flips, p) => {
        const bytes = sources[which]!.slice();
        for (const [at, v] of flips) bytes[16 + (at % (bytes.length - 56))] = v;
        const reader = await readerOf(bytes).catch((e: unknown) => (e instanceof FormatError ? undefined : Promise.reject(e)));
        if (reader === undefined) return;
        const opts = { automaton: startsWith(p) as Automaton<unknown>, from: { key: p, inclusive: true } };
        const outcome = async (stream: KeyStream) => {
          const out: string[] = [];
          await rows(stream, stateText(opts.automaton), 3, out).catch((e: unknown) =>
            e instanceof FormatError ? out.push(`${e.code}@${e.offset}`) : Promise.reject(e),
          );
          return out;
        };
        expect(await outcome(new KeyStream(reader, opts))).toEqual(await outcome(new KeyStream(reader, { ...opts, inTypeScript: true })));
      }),
      { numRuns: 300 },
    );
  });
});
