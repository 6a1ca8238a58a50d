import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { converted, imported, openDetected, text } from '../../../../test/helpers/registry.js';
import { FstBuilder, type WriteVersion } from './builder.js';
import { compareBytes } from './keyText.js';

/**
 * Property-based round trips through every fst converter and importer, reached through the
 * registry as `binlens convert` reaches them: random maps and sets (any bytes as keys, any u64
 * as values, every format version).
 */

const RUNS = 250;
const U64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const utf8 = new TextDecoder('utf-8', { fatal: true });
const isUtf8 = (b: Uint8Array) => {
  try {
    utf8.decode(b);
    return true;
  } catch {
    return false;
  }
};

/** Keys from a small alphabet share prefixes (so nodes get shared and outputs split); others are any bytes. */
const keyBytes = fc.oneof(
  fc.uint8Array({ maxLength: 10 }),
  fc.array(fc.constantFrom(0x61, 0x62, 0x63, 0x00, 0xff, 0x09, 0x5c), { maxLength: 8 }).map((a) => Uint8Array.from(a)),
  fc.string({ unit: 'grapheme', maxLength: 6 }).map((s) => new TextEncoder().encode(s)),
);

interface Entry {
  readonly key: Uint8Array;
  readonly value: bigint;
}

const sortedEntries = (valueGen: fc.Arbitrary<bigint>, key = keyBytes) =>
  fc
    .uniqueArray(fc.record({ key, value: valueGen }), { selector: (e) => hex(e.key), maxLength: 80 })
    .map((list) => [...list].sort((a, b) => compareBytes(a.key, b.key)));

function build(entries: readonly Entry[], version: WriteVersion, set = false): Uint8Array {
  const b = new FstBuilder(version);
  for (const e of entries) set ? b.add(e.key) : b.insert(e.key, e.value);
  return Uint8Array.from(Buffer.concat([b.takeBytes(), b.finish()]));
}

const versions = fc.constantFrom<WriteVersion>(1, 2, 3);
const open = (bytes: Uint8Array) => openDetected(bytes, 'x.fst');

/** The keys and outputs a `dot` graph accepts: every path from the first state listed to a final state. */
function acceptedByDot(dot: string): Map<string, bigint> {
  const finals = new Set<string>();
  const edges = new Map<string, { input: number; output: bigint; to: string }[]>();
  let start: string | undefined;
  for (const line of dot.split('\n')) {
    const state = /^ {4}(\d+) \[label=""(,peripheries=2)?\];$/.exec(line);
    if (state) {
      start ??= state[1]!;
      if (state[2]) finals.add(state[1]!);
      continue;
    }
    const edge = /^ {4}(\d+) -> (\d+) \[label="((?:\\x[0-9a-f]{2}|\\.|[^\\])+?)(?:\/(\d+))?"\];$/.exec(line);
    if (!edge) continue;
    const label = edge[3]!;
    const simple: Record<string, number> = { '\\t': 9, '\\n': 10, '\\r': 13, '\\\\': 0x5c, "\\'": 0x27, '\\"': 0x22 };
    const input = label.length === 1 ? label.charCodeAt(0) : label.startsWith('\\x') ? parseInt(label.slice(2), 16) : simple[label]!;
    expect(input, `edge label ${label}`).toBeTypeOf('number');
    const list = edges.get(edge[1]!) ?? [];
    list.push({ input, output: BigInt(edge[4] ?? 0), to: edge[2]! });
    edges.set(edge[1]!, list);
  }
  const out = new Map<string, bigint>();
  const walk = (state: string, key: number[], sum: bigint) => {
    if (finals.has(state)) out.set(hex(Uint8Array.from(key)), sum);
    for (const e of edges.get(state) ?? []) walk(e.to, [...key, e.input], sum + e.output);
  };
  if (start !== undefined) walk(start, [], 0n);
  return out;
}

describe('fst conversions round trip (property-based, through the registry)', () => {
  it('fst → TSV → fst (tsv importer) gives the same bytes, maps and sets, every version', async () => {
    await fc.assert(
      fc.asyncProperty(sortedEntries(U64), versions, fc.boolean(), async (entries, version, set) => {
        const original = build(entries, version, set);
        const tsv = await converted(await open(original), 'tsv');
        const back = await imported('fst', 'fst', 'keys.tsv', tsv, { version: String(version), kind: set ? 'set' : 'map' });
        expect(hex(back)).toBe(hex(original));
      }),
      { numRuns: RUNS },
    );
  });

  it('fst → JSONL holds exactly the keys and values, and the jsonl importer gives the same bytes back', async () => {
    await fc.assert(
      fc.asyncProperty(sortedEntries(U64), versions, fc.boolean(), async (entries, version, set) => {
        const original = build(entries, version, set);
        const jsonl = await converted(await open(original), 'jsonl');
        const lines = text(jsonl).split('\n');
        expect(lines.pop()).toBe('');
        // A map whose values are all 0 has a set's bytes (fst stores no values then): it lists keys only.
        const keysOnly = set || entries.every((e) => e.value === 0n);
        const want = entries.map((e) => {
          const key = isUtf8(e.key) ? { key: utf8.decode(e.key) } : { keyHex: hex(e.key) };
          return keysOnly ? key : { ...key, value: String(e.value) };
        });
        expect(lines.map((l) => JSON.parse(l))).toEqual(want);
        const back = await imported('fst', 'fst', 'keys.jsonl', jsonl, { version: String(version), kind: set ? 'set' : 'map' });
        expect(hex(back)).toBe(hex(original));
      }),
      { numRuns: RUNS },
    );
  });

  it('fst → another version → the first version again is byte-identical, and every version holds the same keys', async () => {
    await fc.assert(
      fc.asyncProperty(sortedEntries(U64), versions, versions, async (entries, from, to) => {
        const original = build(entries, from);
        const other = await converted(await open(original), 'fst', { version: String(to) });
        expect(hex(other)).toBe(hex(build(entries, to)));
        expect(text(await converted(await open(other), 'tsv'))).toBe(text(await converted(await open(original), 'tsv')));
        expect(hex(await converted(await open(other), 'fst', { version: String(from) }))).toBe(hex(original));
      }),
      { numRuns: RUNS },
    );
  });

  it('fst → dot: the graph accepts exactly the keys, and leaf paths sum to the values', async () => {
    await fc.assert(
      fc.asyncProperty(sortedEntries(U64), versions, async (entries, version) => {
        const accepted = acceptedByDot(text(await converted(await open(build(entries, version)), 'dot')));
        expect([...accepted.keys()].sort()).toEqual(entries.map((e) => hex(e.key)).sort());
        // A key that is a prefix of another (the empty key always is, of the automaton) may keep part of
        // its value as a final output, which `fst dot` does not print; every other key's path sums to its value.
        for (const e of entries) {
          const isPrefix = e.key.length === 0 || entries.some((o) => o.key.length > e.key.length && compareBytes(o.key.subarray(0, e.key.length), e.key) === 0);
          if (!isPrefix) expect(accepted.get(hex(e.key))).toBe(e.value);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('CSV (key,value as fst map reads it, quoted or not) → fst equals the map built from the same keys', async () => {
    const csvKey = fc.string({ unit: 'grapheme', maxLength: 8 }).filter((s) => !/[\r\n]/.test(s));
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.record({ key: csvKey, value: U64, quote: fc.boolean() }), { selector: (e) => e.key, maxLength: 60 }),
        versions,
        async (list, version) => {
          const entries = list.map((e) => ({ key: new TextEncoder().encode(e.key), value: e.value })).sort((a, b) => compareBytes(a.key, b.key));
          // Unsorted input on purpose: the importer sorts it.
          const csv = list.map((e) => `${e.quote || /[",]/.test(e.key) || e.key === '' ? `"${e.key.replace(/"/g, '""')}"` : e.key},${e.value}\n`).join('');
          const back = await imported('fst', 'fst', 'keys.csv', csv, { version: String(version) });
          expect(hex(back)).toBe(hex(build(entries, version)));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a key list (.txt, one raw key per line) → fst set holding exactly those keys', async () => {
    const lineKey = fc.uint8Array({ maxLength: 10 }).filter((k) => !k.includes(0x0a) && k[k.length - 1] !== 0x0d);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(lineKey, { selector: hex, maxLength: 80 }), versions, async (keys, version) => {
        const input = Buffer.concat(keys.flatMap((k) => [k, Uint8Array.of(0x0a)]));
        const back = await imported('fst', 'fst', 'keys.txt', Uint8Array.from(input), { version: String(version) });
        const entries = [...keys].sort(compareBytes).map((key) => ({ key, value: 0n }));
        expect(hex(back)).toBe(hex(build(entries, version, true)));
      }),
      { numRuns: RUNS },
    );
  });
});
