import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../src/core/io/byteSource.js';
import { openDocument } from '../../src/core/open.js';
import { detect, probe } from '../../src/core/registry.js';
import { allFixtures, readFixture } from '../helpers/fixtures.js';

const positives = allFixtures().filter((f) => !f.negative);

describe('format detection over every shared fixture', () => {
  it.each(positives.map((f) => [f.path, f.family] as const))('%s is detected and opened as %s', async (path, family) => {
    const src = new MemorySource(readFixture(path));
    const name = path.split('/').pop()!;
    expect(detect(await probe(src, name))[0]?.handler.id).toBe(family);
    const outcome = await openDocument(src, { name });
    expect(outcome.kind).toBe('opened');
    if (outcome.kind === 'opened') expect(outcome.doc.format).toBe(family);
  });

  it('content decides, not the extension: each fixture renamed to another family is still found', async () => {
    const src = new MemorySource(readFixture('idv/mlnet-testdata/datatypes.idv'));
    const outcome = await openDocument(src, { name: 'renamed.fst' });
    expect(outcome.kind === 'opened' && outcome.doc.format).toBe('idv');
  });

  it('says "not a Binlens format" for OpenFst, R fst and TeX idv files that share our extensions', async () => {
    const openFst = Uint8Array.from([0xd6, 0xfd, 0xb2, 0x7e, 0x07, 0x00, 0x00, 0x00, ...new TextEncoder().encode('vector'), ...new Array(40).fill(0)]);
    const rFst = new TextEncoder().encode('FST\x00\x00\x00\x00\x01 some R table data that is long enough to be a file');
    const texIdv = Uint8Array.from([0xf7, 0x02, 0x01, 0x83, 0x92, 0xc0, 0x1c, 0x3b, 0, 0, 0, 0, 3, 0xe8, ...new Array(30).fill(0)]);
    for (const [bytes, name] of [
      [openFst, 'model.fst'],
      [rFst, 'table.fst'],
      [texIdv, 'paper.idv'],
    ] as const) {
      const outcome = await openDocument(new MemorySource(bytes), { name });
      expect(outcome.kind, name).toBe('unrecognised');
      if (outcome.kind === 'unrecognised') expect(outcome.reason).toMatch(/not a readable|not a Binlens format/);
    }
  });
});
