import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/byteSource.js';
import type { Check } from '../../model.js';
import { readFixture, readJson } from '../../../../test/helpers/fixtures.js';
import { binduHandler } from './handler.js';

interface Truth {
  preamble: { size: number; format_major: number };
  header: { row_count: string; column_count: number; writer_name: string; writer_version: string; file_flags_set: string[] };
  frames: { offset: number; type: number; version: number; flags: number; payload_len: number; crc_stored: string; crc_ok: boolean }[];
  footer: { offset: number; frame_count: number };
}

const FILES = ['sample', 'schemaless-int64-delta', 'nullable-float-dict-bloom-sealed', 'preamble8-variant'];

async function open(bytes: Uint8Array) {
  return binduHandler.open(new MemorySource(bytes), {});
}

async function checks(bytes: Uint8Array): Promise<Check[]> {
  const out: Check[] = [];
  for await (const c of (await open(bytes)).verify({})) out.push(c);
  return out;
}

describe('Bindu structure against the truth files', () => {
  it.each(FILES)('%s: preamble, header fields, every frame with its CRC', async (name) => {
    const truth = readJson<Truth>(`bindu/${name}.truth.json`);
    const info = (await open(readFixture(`bindu/${name}.bindu`))).info() as {
      preamble: number;
      formatMajor: number;
      rowCount: bigint;
      columnCount: number;
      writer: string;
      fileFlags: string;
      footer: string;
      frames: { offset: number; type: number; version: number; flags: number; payloadLength: number; crcStored: number; crcOk: boolean }[];
    };
    expect(info.preamble).toBe(truth.preamble.size);
    expect(info.formatMajor).toBe(truth.preamble.format_major);
    expect(String(info.rowCount)).toBe(truth.header.row_count);
    expect(info.columnCount).toBe(truth.header.column_count);
    expect(info.writer).toBe(`${truth.header.writer_name} ${truth.header.writer_version}`);
    expect(info.fileFlags).toBe(truth.header.file_flags_set.join(', ') || 'none');
    expect(info.footer).toBe('ok');
    expect(info.frames.map((f) => [f.offset, f.type, f.version, f.flags, f.payloadLength, `0x${f.crcStored.toString(16).padStart(8, '0')}`, f.crcOk])).toEqual(
      truth.frames.map((f) => [f.offset, f.type, f.version, f.flags, f.payload_len, f.crc_stored, f.crc_ok]),
    );
    const found = await checks(readFixture(`bindu/${name}.bindu`));
    expect(found.filter((c) => c.status === 'fail')).toEqual([]);
    if (truth.preamble.size === 8) expect(found).toContainEqual(expect.objectContaining({ name: 'preamble', status: 'warn' }));
  });

  it("a flipped payload byte fails that frame's CRC, the file checksum and the Merkle leaf of that frame only (spec C.12)", async () => {
    const truth = readJson<Truth>('bindu/sample.truth.json');
    const bytes = readFixture('bindu/sample.bindu').slice();
    const target = truth.frames[1]!; // UserMeta: its text stays valid UTF-8, so only integrity checks can notice
    const last = target.offset + 12 + target.payload_len - 1;
    bytes[last] = bytes[last]! ^ 0x01;
    const found = await checks(bytes);
    expect(found.filter((c) => c.status === 'fail').map((c) => [c.name, c.offset])).toEqual([
      ['frame CRC', target.offset],
      ['file checksum', truth.footer.offset + 12 + 32],
      ['Merkle leaf', target.offset],
    ]);
    for (const name of ['footer', 'schema fingerprint', 'decode']) expect(found).toContainEqual(expect.objectContaining({ name, status: 'pass' }));
  });

  it('without its footer the file is scanned front to back and every frame is still found', async () => {
    const truth = readJson<Truth>('bindu/sample.truth.json');
    const bytes = readFixture('bindu/sample.bindu').slice(0, truth.footer.offset);
    const doc = await open(bytes);
    expect((doc.info() as { frames: unknown[]; footer: string }).footer).toBe('missing');
    expect((doc.info() as { frames: unknown[] }).frames).toHaveLength(truth.footer.frame_count);
    expect(doc.warnings).toContainEqual(expect.objectContaining({ name: 'footer', status: 'warn' }));
  });

  it('an incomplete last frame is reported with its offset and declared length', async () => {
    const bytes = readFixture('bindu/sample.bindu').slice(0, 300);
    const found = await checks(bytes);
    expect(found).toContainEqual(expect.objectContaining({ name: 'frames', status: 'fail', field: 'payload length' }));
  });

  it('bytes without the magic are not an open-v1 container', async () => {
    const sbp = Uint8Array.from({ length: 21 }, (_, i) => i * 7);
    expect(binduHandler.sniff({ head: sbp, tail: sbp, size: 21 })).toBe('no');
    await expect(open(sbp)).rejects.toMatchObject({ code: 'bad-magic', field: 'magic' });
  });
});
