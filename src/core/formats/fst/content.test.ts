import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, listFixtures, openFixture, readFixture } from '../../../../test/helpers/fixtures.js';
import { MemorySource } from '../../io/byteSource.js';
import { writeDump } from '../../dump.js';
import type { FormatDocument, Row } from '../../model.js';
import { readLayout } from './header.js';
import { transitions, writeDot } from './inspect.js';
import { escapeKey, parseKey } from './keyText.js';
import { KIND_CODES, toDecimal } from './node.js';
import { FstReader } from './reader.js';
import { KeyStream } from './stream.js';

/** Ground truth for a fixture: `NAME.KIND.tsv` beside it. */
function truthOf(file: string): string {
  return readFileSync(fixture(file.replace(/\.(fst|vellum)\d\.fst$/, '.tsv')), 'utf8');
}

async function catText(doc: FormatDocument, format: 'tsv' | 'jsonl' = 'tsv', from?: number, count?: number): Promise<string> {
  const chunks: Buffer[] = [];
  await doc.cat!.run(format, { from, count }, { write: async (c) => void chunks.push(Buffer.from(c)) }, {});
  return Buffer.concat(chunks).toString('utf8');
}

async function readerOf(file: string): Promise<FstReader> {
  const src = new MemorySource(readFixture(file));
  return new FstReader(src, await readLayout(src));
}

async function collect(reader: FstReader, opts: ConstructorParameters<typeof KeyStream>[1] = {}): Promise<string> {
  let out = '';
  await new KeyStream(reader, opts).run((k, len, hi, lo) => ((out += `${escapeKey(k, len)}\t${toDecimal(hi, lo)}\n`), true));
  return out;
}

const files = listFixtures('fst', ['.fst']).filter((f) => !f.includes('/corrupt/'));

describe('fst content against the ground truth', () => {
  it.each(files.map((f) => [f]))('%s: cat prints the .tsv byte for byte', async (file) => {
    expect(await catText(await openFixture(file))).toBe(truthOf(file));
  });

  it('pages of the medium map equal the ground truth, in any order, far jumps included', async () => {
    const doc = await openFixture('fst/medium.map.fst3.fst');
    const truth = truthOf('fst/medium.map.fst3.fst').split('\n');
    const table = doc.tables[0]!;
    expect(table.rowCount()).toEqual({ known: 300_000, complete: true });
    const text = (rows: readonly Row[]) => rows.map((r) => `${r.cells[0]}\t${r.cells[1]}`);
    for (const from of [0, 100, 150_000, 5_000, 299_990, 1024 * 7, 1024 * 7 + 3, 151_000]) {
      const rows = await table.page(from, 20);
      expect(text(rows), `from ${from}`).toEqual(truth.slice(from, Math.min(from + 20, 300_000)));
    }
  });

  it('the structure tree (and so the text dump) stays small for 300,000 keys: two levels of states below the root', async () => {
    const doc = await openFixture('fst/medium.map.fst3.fst');
    let lines = 0;
    await writeDump(doc, { fileName: 'medium.map.fst3.fst', size: 4897073 }, (t) => void (lines += t.split('\n').length - 1));
    expect(lines).toBeGreaterThan(100);
    // At most 256 transitions of the root, each with at most 256: bounded whatever the key count.
    expect(lines).toBeLessThan(100 + 256 * 257);
  });

  it('shows keys as escaped text and as hex, and values exactly up to 2^64 − 1', async () => {
    const doc = await openFixture('fst/small.map.fst3.fst');
    const rows = await doc.tables[0]!.page(0, 20);
    const xff = rows.find((r) => r.cells[0] === '\\xff')!;
    expect(xff.cells).toEqual(['\\xff', 18446744073709551615n, 'ff']);
    expect(rows.find((r) => r.cells[0] === 'a\\x20b\\x09c\\x5cd')!.cells[2]).toBe('61 20 62 09 63 5c 64');
  });

  it('cat --from/--count slices the stream and jsonl writes non-UTF-8 keys as keyHex', async () => {
    const doc = await openFixture('fst/small.map.fst3.fst');
    expect(await catText(doc, 'tsv', 5, 3)).toBe(truthOf('fst/small.map.fst3.fst').split('\n').slice(5, 8).join('\n') + '\n');
    const jsonl = (await catText(doc, 'jsonl'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(jsonl[0]).toEqual({ key: '', value: '7' });
    expect(jsonl.find((o) => o.keyHex === 'ff')).toEqual({ keyHex: 'ff', value: '18446744073709551615' });
    expect(jsonl.find((o) => o.key === 'é' + 't' + 'é')).toEqual({ key: 'été', value: '233' });
    const set = (await catText(await openFixture('fst/small.set.fst1.fst'), 'jsonl')).split('\n')[3];
    expect(JSON.parse(set!)).toEqual({ key: 'a' });
  });
});

describe('fst queries against the reference readers (fixtures/fst/queries)', () => {
  const q = (name: string) => readFileSync(fixture(`fst/queries/${name}`), 'utf8');
  const lower = (key: string, inclusive = true) => ({ key: parseKey(key), inclusive });

  it.each(['fst3', 'fst2', 'fst1', 'vellum1'])('small.map.%s: get(\\xff), prefix mon, [ab, mon), ≥ \\xfe', async (producer) => {
    const reader = await readerOf(`fst/small.map.${producer}.fst`);
    expect(`\\xff\t${await reader.get(parseKey('\\xff'))}\n`).toBe(q('small.map.get-xff.fst047.tsv'));
    expect(await reader.get(parseKey('mo'))).toBeUndefined();
    expect(await collect(reader, { from: lower('mon'), to: { key: parseKey('moo'), inclusive: false } })).toBe(q('small.map.prefix-mon.fst047.tsv'));
    const range = await collect(reader, { from: lower('ab'), to: { key: parseKey('mon'), inclusive: false } });
    expect(range).toBe(q('small.map.range_ge-ab_lt-mon.fst047.tsv'));
    expect(range).toBe(q('small.map.range_ge-ab_lt-mon.vellum.tsv'));
    expect(await collect(reader, { from: lower('\\xfe') })).toBe(q('small.map.range_ge-xfe.fst047.tsv'));
  });

  it('fst range -s ab -e mon: both bounds inclusive, as the reference CLI prints', async () => {
    const reader = await readerOf('fst/small.map.fst3.fst');
    let out = '';
    await new KeyStream(reader, { from: lower('ab'), to: lower('mon') }).run(
      (k, len, hi, lo) => ((out += `${Buffer.from(k.subarray(0, len)).toString('latin1')},${toDecimal(hi, lo)}\n`), true),
    );
    expect(out).toBe(readFileSync(fixture('fst/cli/small.map.fst3.range-o-s_ab-e_mon.txt'), 'latin1'));
  });

  it('exclusive lower bounds skip the bound itself, and an empty range is empty', async () => {
    const reader = await readerOf('fst/small.map.fst3.fst');
    expect((await collect(reader, { from: lower('ab', false), to: lower('abd') })).split('\n')[0]).toBe('abc\t65536');
    expect(await collect(reader, { from: lower('b'), to: lower('a') })).toBe('');
    expect(await collect(reader, { to: { key: new Uint8Array(0), inclusive: false } })).toBe('');
    expect(await collect(reader, { to: lower('') })).toBe('\t7\n');
  });
});

describe('fst nodes against the reference CLI (fixtures/fst/cli)', () => {
  it('fst dot: small and wide maps byte for byte', async () => {
    for (const name of ['small', 'wide']) {
      let text = '';
      await writeDot(await readerOf(`fst/${name}.map.fst3.fst`), (t) => void (text += t));
      expect(text, name).toBe(readFileSync(fixture(`fst/cli/${name}.map.fst3.dot`), 'utf8'));
    }
  });

  it('fst csv nodes / edges: kind, size, transitions, final output and edges of every node', async () => {
    const reader = await readerOf('fst/small.map.fst3.fst');
    const nodes = ['addr,state,size,transitions,final,final_output'];
    const edges = ['addr_in,addr_out,input,output'];
    // `fst csv` marks a node seen when it is pushed (`fst dot` when it is popped).
    const stack = [reader.root];
    const seen = new Set<number>(stack);
    while (stack.length) {
      const addr = stack.pop()!;
      const n = await reader.node(addr);
      nodes.push(`${addr},${KIND_CODES[n.kind]},${n.size},${n.ntrans},${n.isFinal},${toDecimal(n.finalHi, n.finalLo)}`);
      for (const t of transitions(n)) {
        edges.push(`${addr},${t.target},${String.fromCharCode(t.input)},${t.output}`);
        if (!seen.has(t.target)) stack.push(t.target);
        seen.add(t.target);
      }
    }
    expect(nodes.join('\n') + '\n').toBe(readFileSync(fixture('fst/cli/small.map.fst3.csv-nodes.csv'), 'utf8'));
    expect(edges.join('\n') + '\n').toBe(readFileSync(fixture('fst/cli/small.map.fst3.csv-edges.csv'), 'utf8'));
  });

  it('fst node 314: the inspector shows the root as the reference prints it', async () => {
    const doc = await openFixture('fst/small.map.fst3.fst');
    const data = await doc.panels!.find((p) => p.id === 'node')!.data({ address: 314 });
    expect(data.kind).toBe('fields');
    if (data.kind !== 'fields') return;
    const fields = Object.fromEntries(data.groups[0]!.fields.map((f) => [f.name, f.value]));
    const ref = readFileSync(fixture('fst/cli/small.map.fst3.node-314.txt'), 'utf8');
    expect(ref).toContain('end_addr: 205');
    expect(fields['first byte']).toBe('205');
    expect(fields.size).toBe('110 bytes');
    expect(fields.final).toBe('yes');
    expect(fields['final output']).toBe('7');
    expect(fields.transitions).toBe('10');
    const trans = data.groups[1]!.fields.map((f) => f.value);
    expect(trans).toContain('→ 182, output 18446744073709551614');
    expect(trans).toContain('→ 0 (EMPTY), output 127');
  });
});
