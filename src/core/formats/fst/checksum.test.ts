import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { FormatError } from '../../errors.js';
import { type ByteSource, MemorySource } from '../../io/byteSource.js';
import type { StructNode } from '../../model.js';
import { openDocument } from '../../open.js';
import { FstChecksum } from './checksum.js';
import { readLayout } from './header.js';

/** A source that counts the bytes read in passes over the CRC's range (reads from offset 0 past the header). */
class CountingSource extends MemorySource {
  scanned = 0;
  override read(offset: number, length: number): Promise<Uint8Array> {
    if (offset === 0 && length > 16) this.scanned += length;
    return super.read(offset, length);
  }
}

async function checksumOf(src: ByteSource): Promise<FstChecksum> {
  return new FstChecksum(src, await readLayout(src));
}

describe('the fst v3 CRC is computed once per document and shared', () => {
  it('matches the stored value of a reference file, and fails on the flip-crc fixture with both values', async () => {
    expect(await (await checksumOf(new MemorySource(readFixture('fst/small.map.fst3.fst')))).check()).toMatchObject({
      ok: true,
      range: { offset: 0, length: 331 },
    });
    // Values from corrupt/EXPECTED.tsv (fst 0.4.7: "expected checksum of 814414607 but got 2961898255"), masked as stored.
    const bad = await (await checksumOf(new MemorySource(readFixture('fst/corrupt/small.map.fst3.flip-crc.fst')))).check();
    expect(bad).toMatchObject({ ok: false, stored: 814414607, computed: 2961898255 });
  });

  it('has nothing to check in v1, v2 and vellum files', async () => {
    for (const f of ['small.map.fst1', 'small.map.fst2', 'small.map.vellum1'])
      expect(await (await checksumOf(new MemorySource(readFixture(`fst/${f}.fst`)))).check(), f).toBeUndefined();
  });

  it('concurrent callers share one pass, and later ones read nothing', async () => {
    const src = new CountingSource(readFixture('fst/wide.map.fst3.fst'));
    const c = await checksumOf(src);
    const [a, b] = await Promise.all([c.check(), c.check()]);
    expect(a).toBe(b);
    await c.check();
    expect(src.scanned).toBe(src.size - 4);
  });

  it('a pass cancelled by its first caller starts again for a caller that was not cancelled', async () => {
    const c = await checksumOf(new MemorySource(readFixture('fst/wide.map.fst3.fst')));
    const abort = new AbortController();
    abort.abort();
    const [first, second] = await Promise.allSettled([c.check({ signal: abort.signal }), c.check()]);
    expect(first.status === 'rejected' && first.reason instanceof FormatError && first.reason.code).toBe('cancelled');
    expect(second).toMatchObject({ status: 'fulfilled', value: { ok: true } });
  });

  it('cat, a converter, a table page and verify of one document make a single pass', async () => {
    const src = new CountingSource(readFixture('fst/wide.map.fst3.fst'));
    const o = await openDocument(src, { name: 'x.fst' });
    if (o.kind !== 'opened') throw new Error(o.reason);
    const doc = o.doc;
    // Opening reads the head of the file to sniff it; the passes counted are the ones after.
    src.scanned = 0;
    await doc.cat!.run('tsv', {}, { write: async () => undefined }, {});
    await doc.converters.find((c) => c.id === 'jsonl')!.run({ file: async () => ({ write: async () => undefined }) }, {}, {});
    await doc.tables[0]!.page(0, 10);
    for await (const check of doc.verify({})) if (check.name === 'checksum') expect(check.status).toBe('pass');
    expect(src.scanned).toBe(src.size - 4);
  });
});

describe('the structure tree marks the checksum leaf once a check has run', () => {
  const checksumLeaf = (doc: { structure(): StructNode }) => {
    const c = doc.structure().children;
    return (Array.isArray(c) ? c : []).find((n: StructNode) => n.label.startsWith('checksum'));
  };
  const open = async (path: string) => {
    const o = await openDocument(new MemorySource(readFixture(path)), { name: 'x.fst' });
    if (o.kind !== 'opened') throw new Error(o.reason);
    return o.doc;
  };

  it('flip-crc: unmarked before, marked with both values (EXPECTED.tsv) after verify', async () => {
    const doc = await open('fst/corrupt/small.map.fst3.flip-crc.fst');
    const tree = doc.structure();
    expect(checksumLeaf(doc)).toMatchObject({ mark: undefined, note: undefined });
    for await (const _ of doc.verify({})) void _;
    // 814414607 and 2961898255 from corrupt/EXPECTED.tsv, in hex; the tree built before the check says it too.
    const expected = { mark: 'error', note: 'CRC-32C fails: stored 0x308afb0f, computed 0xb08afb0f' };
    expect(checksumLeaf(doc)).toMatchObject(expected);
    expect(checksumLeaf({ structure: () => tree })).toMatchObject(expected);
  });

  it('flip-mid: a table page, which waits for the CRC, marks the leaf', async () => {
    const doc = await open('fst/corrupt/wide.map.fst3.flip-mid.fst');
    await doc.tables[0]!.page(0, 10).catch(() => undefined);
    expect(checksumLeaf(doc)?.mark).toBe('error');
  });

  it('an intact file stays unmarked after the check', async () => {
    const doc = await open('fst/small.map.fst3.fst');
    for await (const _ of doc.verify({})) void _;
    expect(checksumLeaf(doc)).toMatchObject({ label: 'checksum (masked CRC-32C)', mark: undefined, note: undefined });
  });
});
