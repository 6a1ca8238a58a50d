import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test/helpers/fixtures.js';
import { writeBriefDump } from './dumpBrief.js';
import { MemorySource } from './io/byteSource.js';
import type { FormatDocument } from './model.js';
import { openDocument } from './open.js';

/**
 * The expected ranges come from the specs (../shared/specs), computed here from the fixture's
 * bytes; the digests from node:crypto. Only the labels are the code's own.
 */
type Range = readonly [offset: number, length: number];

async function brief(bytes: Uint8Array, name: string): Promise<string> {
  const src = new MemorySource(bytes);
  const outcome = await openDocument(src, { name });
  if (outcome.kind !== 'opened') throw new Error(`${name}: ${outcome.kind}`);
  let text = '';
  await writeBriefDump(outcome.doc, src, { fileName: name, size: bytes.length }, (t) => void (text += t));
  return text;
}

const sha = (bytes: Uint8Array, [offset, length]: Range) =>
  createHash('sha256')
    .update(bytes.subarray(offset, offset + length))
    .digest('hex');

/** The section lines, as [offset, length, digest], in file order. */
function sectionLines(text: string): [number, number, string][] {
  const body = text.slice(text.indexOf('\nsections'));
  return [...body.matchAll(/^([0-9a-f]{8}) +(\d+)  sha256:([0-9a-f]{64})  /gm)].map((m) => [parseInt(m[1]!, 16), Number(m[2]), m[3]!]);
}

function expectSections(text: string, bytes: Uint8Array, ranges: readonly Range[]): void {
  expect(sectionLines(text)).toEqual(ranges.map((r) => [r[0], r[1], sha(bytes, r)]));
}

const u32le = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

describe('dump --brief: header lines and one SHA-256 per section, ranges as the specs give them', () => {
  it('ben standard: the 17-byte banner, then the frames to the end of the file (ben.md §2, §3)', async () => {
    const bytes = readFixture('ben/grid4x4_chain.standard.ben');
    const text = await brief(bytes, 'grid4x4_chain.standard.ben');
    expect(text.split('\n').slice(0, 4)).toEqual([
      'binlens-dump 1 brief',
      'file: grid4x4_chain.standard.ben',
      'format: ben (BEN Standard stream)',
      `size: ${bytes.length}`,
    ]);
    expect(new TextDecoder().decode(bytes.subarray(0, 17))).toBe('STANDARD BEN FILE');
    expectSections(text, bytes, [
      [0, 17],
      [17, bytes.length - 17],
    ]);
  });

  it('xben: one xz stream over the whole file (ben.md §5)', async () => {
    const bytes = readFixture('ben/grid4x4_chain.standard.xben');
    expectSections(await brief(bytes, 'x.xben'), bytes, [[0, bytes.length]]);
  });

  it('xorb with footer: chunks [0, size − 4 − L), then the footer and its u32 L (xorb.md, detection rule 2)', async () => {
    const bytes = readFixture('xorb/02_lz4_text.xorb');
    const footerAt = bytes.length - 4 - u32le(bytes, bytes.length - 4);
    expect(new TextDecoder().decode(bytes.subarray(footerAt, footerAt + 7))).toBe('XETBLOB');
    const text = await brief(bytes, '02_lz4_text.xorb');
    expect(text).toContain('format: xorb');
    expectSections(text, bytes, [
      [0, footerAt],
      [footerAt, bytes.length - footerAt],
    ]);
  });

  it('fst v3: 16-byte header, nodes, 16-byte footer, 4-byte checksum (fst.md §2)', async () => {
    const bytes = readFixture('fst/one.map.fst3.fst');
    const n = bytes.length;
    expectSections(await brief(bytes, 'one.map.fst3.fst'), bytes, [
      [0, 16],
      [16, n - 36],
      [n - 20, 16],
      [n - 4, 4],
    ]);
  });

  it('idv (no rows): 256-byte header, the table of contents, the 8-byte tail signature (idv.md §3, §4, §6)', async () => {
    const bytes = readFixture('idv/mlnet-model-embedded/ep_model1__DataLoaderModel_Transform_002_Schema.idv');
    const n = bytes.length;
    expectSections(await brief(bytes, 'schema.idv'), bytes, [
      [0, 256],
      [256, n - 264],
      [n - 8, 8],
    ]);
  });

  it('bindu: the 10-byte preamble, then each frame of 12 + payload_len + 4 bytes (bindu-open-v1.md C.1, C.2)', async () => {
    const bytes = readFixture('bindu/sample.bindu');
    const ranges: Range[] = [[0, 10]];
    for (let at = 10; at < bytes.length; ) {
      const payload = Number(new DataView(bytes.buffer, bytes.byteOffset + at + 4, 8).getBigUint64(0, true));
      ranges.push([at, 16 + payload]);
      at += 16 + payload;
    }
    expect(ranges.length).toBeGreaterThan(5);
    expectSections(await brief(bytes, 'sample.bindu'), bytes, ranges);
  });
});

describe('dump --brief diffs as git textconv needs', () => {
  it('a flipped byte changes the digest of the section that holds it and of no other', async () => {
    const bytes = readFixture('fst/one.map.fst3.fst');
    const flipped = bytes.slice();
    flipped[17]! ^= 0x01; // in the nodes, [16, size − 20)
    const before = sectionLines(await brief(bytes, 'a.fst'));
    const after = sectionLines(await brief(flipped, 'a.fst'));
    expect(after.map(([o, l]) => [o, l])).toEqual(before.map(([o, l]) => [o, l]));
    const changed = after.filter((line, i) => line[2] !== before[i]![2]);
    expect(changed).toEqual([[16, bytes.length - 36, sha(flipped, [16, bytes.length - 36])]]);
  });

  it('bytes no section claims get lines of their own, so every byte is under some digest', async () => {
    // A hand-made document: sections [2, 4) and [6, 8) of a 10-byte file leave [0, 2), [4, 6), [8, 10).
    const bytes = Uint8Array.from({ length: 10 }, (_, i) => i * 7);
    const section = (offset: number, label: string) => ({ label, range: { offset, length: 2 } });
    const doc = {
      format: 'fst',
      title: 'hand-made',
      warnings: [],
      summary: [],
      structure: () => ({ label: 'root', range: { offset: 0, length: 10 }, children: [section(2, 'a'), section(6, 'b')] }),
    } as unknown as FormatDocument;
    let text = '';
    await writeBriefDump(doc, new MemorySource(bytes), { fileName: 'h', size: 10 }, (t) => void (text += t));
    expectSections(
      text,
      bytes,
      [0, 2, 4, 6, 8].map((o) => [o, 2] as const),
    );
    expect(text.match(/\(bytes in no section\)/g)).toHaveLength(3);
  });
});
