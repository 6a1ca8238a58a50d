import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/byteSource.js';
import type { Check, StructNode } from '../../model.js';
import { isLazy } from '../../model.js';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { fixtureOf, groundTruths } from '../../../../test/helpers/idvGroundTruth.js';
import { idvHandler } from './handler.js';

interface CodecTruth {
  loadName: string;
  item?: CodecTruth;
  dims?: number[];
}
interface Truth {
  file: string;
  header: { version: string; compatibleVersion: string; tocOffset: number; tailOffset: number; rowCount: number; columnCount: number };
  columns: {
    name: string;
    type: string;
    codec: CodecTruth;
    compression: number;
    rowsPerBlock: number;
    lookupOffset: number;
    metadataTocOffset: number;
    blocks: { offset: number; compressedLength: number; decompressedLength: number }[];
    metadata?: { kind: string; offset: number; size: number }[];
  }[];
}

const truths = groundTruths<Truth>();

async function open(path: string) {
  return idvHandler.open(new MemorySource(readFixture(path)), {});
}

async function children(node: StructNode): Promise<readonly StructNode[]> {
  const c = node.children;
  if (c === undefined) return [];
  return isLazy(c) ? c.load(0, 10_000) : c;
}

describe('IDV structure against the decoded ground truth', () => {
  it.each(truths)('%s: header, TOC, lookup tables and metadata locations', async (truthFile, truth) => {
    const doc = await open(fixtureOf(truthFile));
    const info = doc.info() as {
      version: string;
      compatibleVersion: string;
      rowCount: number;
      columnCount: number;
      columns: { name: string; codec: string; type: string; rowsPerBlock: number; compression: string }[];
    };
    expect(info).toMatchObject({
      version: truth.header.version,
      compatibleVersion: truth.header.compatibleVersion,
      rowCount: truth.header.rowCount,
      columnCount: truth.header.columnCount,
    });
    expect(info.columns.map((c) => [c.name, c.codec, c.rowsPerBlock])).toEqual(truth.columns.map((c) => [c.name, c.codec.loadName, c.rowsPerBlock]));
    expect(info.columns.map((c) => c.type)).toEqual(truth.columns.map((c) => c.type));

    const toc = (await children(doc.structure())).find((n) => n.label === 'table of contents');
    const columns = toc ? await children(toc) : [];
    for (const [i, c] of truth.columns.entries()) {
      const parts = await children(columns[i]!);
      const lookup = parts.find((p) => p.label === 'lookup table')!;
      expect(lookup.range?.offset).toBe(c.lookupOffset);
      expect((await children(lookup)).map((b) => [b.range?.offset, b.range?.length])).toEqual(c.blocks.map((b) => [b.offset, b.compressedLength]));
      const meta = parts.find((p) => p.label === 'metadata');
      expect(meta?.range?.offset ?? 0).toBe(c.metadataTocOffset);
      if (meta)
        expect((await children(meta)).map((m) => [m.label, m.range?.offset, m.range?.length])).toEqual(
          (c.metadata ?? []).map((m) => [m.kind, m.offset, m.size]),
        );
    }
    const found: Check[] = [];
    for await (const c of doc.verify({})) found.push(c);
    expect(found.filter((c) => c.status === 'fail')).toEqual([]);
  });

  it('rejects a file without the signature and names a TeX .idv as not this format', async () => {
    const tex = new TextEncoder().encode('\xf7\x02\x01\x83\x92\xc0\x1c;\x00\x00\x00\x00\x03\xe8');
    expect(idvHandler.sniff({ head: tex, tail: tex, size: tex.length })).toBe('no');
    await expect(idvHandler.open(new MemorySource(tex), {})).rejects.toMatchObject({ code: 'truncated', field: 'header' });
  });

  it('fails verify when a lookup entry points outside the file', async () => {
    const bytes = readFixture('idv/mlnet-model-embedded/termlookup__DataLoaderModel_Transform_000_DefaultMap.idv').slice();
    new DataView(bytes.buffer).setBigInt64(0x13c, 100_000n, true);
    const doc = await idvHandler.open(new MemorySource(bytes), {});
    const found: Check[] = [];
    for await (const c of doc.verify({})) found.push(c);
    expect(found).toContainEqual(expect.objectContaining({ status: 'fail', offset: 0x13c, field: 'lookup entry' }));
  });
});
