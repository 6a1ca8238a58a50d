import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { BinReader } from '../../io/binReader.js';
import { MemorySource } from '../../io/byteSource.js';
import { BENDL_ENTRY, BENDL_HEADER, readBendlHeader, readDirectory } from './bendl.js';
import { bundleHeader, directoryBytes } from './bendlWrite.js';

describe('the BENDL layout declarations', () => {
  it('put every header field where spec ben.md §6 tables it', () => {
    // Offsets typed from the spec's header table, not from the declaration.
    const spec = [0, 8, 10, 12, 13, 14, 16, 20, 24, 32, 40, 48, 56];
    expect(BENDL_HEADER.keys().map((k) => BENDL_HEADER.offset(k))).toEqual(spec);
    expect(BENDL_HEADER.size).toBe(64);
    expect(BENDL_ENTRY.size).toBe(28);
  });

  it('read spec_example_finalized.bendl as its MANIFEST describes it', async () => {
    const h = await readBendlHeader(new MemorySource(readFixture('ben/spec-derived/spec_example_finalized.bendl')));
    expect(h).toMatchObject({
      major: 1,
      finalized: 1,
      assignmentFormat: 1,
      flags: 1,
      streamOffset: 0xff,
      streamLength: 53,
      directoryOffset: 0x134,
      directoryLength: 132,
      sampleCount: 5n,
    });
  });

  it('write back the independent flags_set.bendl header, tail and directory byte for byte', async () => {
    const file = readFixture('ben/independent/flags_set.bendl');
    const src = new MemorySource(file);
    const { magic: _magic, major: _major, minor: _minor, finalized, assignmentFormat, ...rest } = BENDL_HEADER.read(new BinReader(file.subarray(0, 64)));
    expect([...bundleHeader({ ...rest, finalized: finalized === 1, format: assignmentFormat === 1 ? 'ben' : 'xben' })]).toEqual([...file.subarray(0, 72)]);
    const h = await readBendlHeader(src);
    const dir = await readDirectory(src, h);
    const placed = dir.entries.map((e) => ({
      name: e.name,
      type: e.assetType,
      flags: e.flags,
      offset: e.payloadOffset,
      length: e.payloadLength,
      crc: e.checksum!,
    }));
    expect([...directoryBytes(placed)]).toEqual([...file.subarray(h.directoryOffset, h.directoryOffset + h.directoryLength)]);
  });
});
