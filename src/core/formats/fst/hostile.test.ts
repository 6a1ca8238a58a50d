import { describe, expect, it } from 'vitest';
import { exercise, problems } from '../../../../test/helpers/hostile.js';
import { FormatError } from '../../errors.js';
import { MemorySource } from '../../io/byteSource.js';
import { openDocument } from '../../open.js';

/**
 * FST nodes that point to themselves, forwards or into the header, built by hand from the spec
 * (../shared/specs/fst.md §3, §5): `target = node_start − delta`, delta 0 = EMPTY. A u64 delta
 * larger than node_start would wrap, modulo 2^64, to the node itself or past it (a cycle for a
 * reader that wraps, a panic for fst 0.4.7); every walk must refuse it at the delta's offset.
 */
const u64 = (n: bigint) => Array.from({ length: 8 }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn));

/** A v1 file: header (version 1, type 0), the node bytes from 16, footer (key count, root = last node byte). */
function fst(nodes: number[], count: number, root = 16 + nodes.length - 1): Uint8Array {
  return Uint8Array.from([...u64(1n), ...u64(0n), ...nodes, ...u64(BigInt(count)), ...u64(BigInt(root))]);
}

const CONVERTERS = ['tsv', 'jsonl', 'fst', 'dot'];

async function refusedEverywhere(bytes: Uint8Array, want: { offset: number; field: string; detail: string }) {
  const o = await exercise(bytes, { name: 'x.fst' });
  const err = expect.objectContaining({ code: 'corrupt', ...want });
  expect(o.pages.get('keys')).toEqual(err);
  expect(o.structure).toContainEqual(err);
  for (const id of ['automaton', 'dot']) expect(o.panels.get(id), id).toEqual(err);
  expect(problems(o.verify)).toContainEqual(expect.objectContaining({ status: 'fail', name: 'nodes', offset: want.offset, field: want.field }));
  for (const id of CONVERTERS) expect(o.converts.get(id), id).toEqual(err);
}

describe('FST transitions that point to their own node, forwards or into the header', () => {
  // Root OneTrans at 16..25: [delta: 8 bytes][pack sizes 0x80: tsize 8, osize 0][state 0x85: OneTrans, common input 'a'].
  it.each([
    ['the node itself (its state byte at 25)', 2n ** 64n - 9n],
    ['a byte inside the node (17)', 2n ** 64n - 1n],
    ['past the node data, into the footer (40)', 2n ** 64n - 24n],
  ])('a delta that wraps modulo 2^64 to %s is refused at the delta (offset 16)', async (_where, delta) => {
    await refusedEverywhere(fst([...u64(delta), 0x80, 0x85], 1), {
      offset: 16,
      field: 'node @25',
      detail: `transition 0 has delta ${delta}, beyond the start of the file`,
    });
  });

  it.each([
    [15, 1],
    [8, 8],
  ])('a delta of %i from node start 16 (target %i, inside the 16-byte header) is refused', async (delta, target) => {
    // Root OneTrans at 16..18: [delta: 1 byte][pack 0x10][state 0x85].
    await refusedEverywhere(fst([delta, 0x10, 0x85], 1), { offset: 16, field: 'node @18', detail: `transition 0 points to ${target}, inside the header` });
  });

  it('a OneTransNext node at 16 (its implicit target 15 is in the header) is refused', async () => {
    // State 0xc5: OneTransNext, common input 'a'; its target is the byte before its start.
    await refusedEverywhere(fst([0xc5], 1), { offset: 16, field: 'node @16', detail: 'its next-node target lies in the header' });
  });

  it('a root address pointing forwards, at its own footer field, opens with the error and offers no key conversion', async () => {
    // v1 footer: u64 key count at 19, u64 root address at 27; root = 27.
    const o = await exercise(fst([0, 0x10, 0x85], 1, 27), { name: 'x.fst' });
    const root = expect.objectContaining({
      status: 'fail',
      name: 'root address',
      offset: 27,
      field: 'root address',
      detail: 'root address 27 is outside the node data [16, 19)',
    });
    expect(o.doc!.warnings).toContainEqual(root);
    expect(problems(o.verify)).toContainEqual(root);
    // Nothing can be read from a root outside the nodes: no keys table and no conversion of keys
    // (only the annotated structure), rather than an empty TSV that looks like an empty map.
    expect(o.doc!.tables).toEqual([]);
    expect(o.doc!.converters).toEqual([]);
  });
});

describe('a DAG whose paths double at every node (2^40 keys in 240 bytes, footer count 1)', () => {
  // 40 AnyTrans nodes, each with transitions a and b to the node before it (1-byte deltas, no
  // outputs): every walk descends through addresses, so it cannot loop, but it can be long.
  function doubling(): Uint8Array {
    const nodes: number[] = [];
    let prev = 0;
    for (let k = 0; k < 40; k++) {
      const start = 16 + nodes.length;
      const delta = prev === 0 ? 0 : start - prev;
      nodes.push(delta, delta, 0x62, 0x61, 0x10, 0x02);
      prev = start + 5;
    }
    return fst(nodes, 1);
  }

  it('pages, verify and cat end promptly; a conversion of all the keys stops when cancelled', async () => {
    const started = Date.now();
    const outcome = await openDocument(new MemorySource(doubling()), { name: 'x.fst' });
    if (outcome.kind !== 'opened') throw new Error(outcome.reason);
    const doc = outcome.doc;
    // A page of 50 rows walks 50 keys, whatever the footer says.
    const keys = doc.tables.find((t) => t.id === 'keys')!;
    expect(await keys.page(0, 50)).toHaveLength(50);
    // Verify checks the nodes and counts keys only up to the footer count + 1.
    const checks = [];
    for await (const c of doc.verify({})) checks.push(c);
    expect(problems(checks)).toEqual([expect.objectContaining({ status: 'fail', name: 'key count', offset: expect.any(Number) })]);
    let lines = 0;
    await doc.cat!.run('tsv', { count: 1000 }, { write: async (b) => void (lines += new TextDecoder().decode(b).split('\n').length - 1) }, {});
    expect(lines).toBe(1000);
    // Every key is real content (a valid fst may hold 2^40 keys): converting them all is long
    // work, not a loop, and the user's cancel stops it.
    const abort = new AbortController();
    let written = 0;
    const sink = { write: async (b: Uint8Array) => void ((written += b.length) > 1 << 20 && abort.abort()) };
    const err = await doc.converters
      .find((c) => c.id === 'tsv')!
      .run({ file: async () => sink }, { signal: abort.signal }, {})
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FormatError);
    expect(err).toMatchObject({ code: 'cancelled' });
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
