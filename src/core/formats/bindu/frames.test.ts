import { describe, expect, it } from 'vitest';
import { listFixtures, readFixture } from '../../../../test/helpers/fixtures.js';
import { BinReader } from '../../io/binReader.js';
import { MemorySource } from '../../io/byteSource.js';
import { frame, readFrameHeader, readPreamble } from './frames.js';
import { FOOTER_FRAME_BYTES, FOOTER_PAYLOAD, FOOTER_SECTION, FRAME_HEADER, FRAME_HEADER_BYTES, FrameType, HEADER_PAYLOAD } from './model.js';

describe('the bindu layout declarations', () => {
  it('put the frame header and footer fields where spec C.2 and C.10 table them', () => {
    // Offsets typed from the spec's tables, not from the declarations.
    expect(FRAME_HEADER.keys().map((k) => FRAME_HEADER.offset(k))).toEqual([0, 1, 2, 4]);
    expect(FOOTER_PAYLOAD.keys().map((k) => FOOTER_PAYLOAD.offset(k))).toEqual([0, 4, 8, 16, 24, 25, 32, 64, 80, 112, 116, 120, 312, 488]);
    expect([FRAME_HEADER_BYTES, FOOTER_PAYLOAD.size, FOOTER_FRAME_BYTES, FOOTER_SECTION.size]).toEqual([12, 496, 512, 24]);
  });

  it.each(listFixtures('bindu', ['.bindu']))('write back the footer frame of %s byte for byte', (path) => {
    const file = readFixture(path);
    const last = file.subarray(file.length - FOOTER_FRAME_BYTES);
    const head = FRAME_HEADER.read(new BinReader(last));
    const payload = last.subarray(FRAME_HEADER_BYTES, FRAME_HEADER_BYTES + head.payloadLength);
    const rewritten = new Uint8Array(FOOTER_PAYLOAD.size);
    FOOTER_PAYLOAD.write(FOOTER_PAYLOAD.read(new BinReader(payload)), rewritten);
    expect([...frame(head.type, head.flags, rewritten)]).toEqual([...last]);
  });

  it.each(listFixtures('bindu', ['.bindu']))('write back the fixed start of the Header frame of %s byte for byte', async (path) => {
    const file = readFixture(path);
    const src = new MemorySource(file);
    const f = await readFrameHeader(src, (await readPreamble(src)).size);
    expect(f.type).toBe(FrameType.Header);
    const at = f.offset + FRAME_HEADER_BYTES;
    const fixed = file.subarray(at, at + HEADER_PAYLOAD.size);
    const rewritten = new Uint8Array(HEADER_PAYLOAD.size);
    HEADER_PAYLOAD.write(HEADER_PAYLOAD.read(new BinReader(fixed)), rewritten);
    expect([...rewritten]).toEqual([...fixed]);
    expect(HEADER_PAYLOAD.keys().map((k) => HEADER_PAYLOAD.offset(k))).toEqual([0, 16, 24, 32, 36, 38, 40]);
  });
});
