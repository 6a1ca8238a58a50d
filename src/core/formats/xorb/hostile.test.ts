import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { exercise, expectProblem, problems } from '../../../../test/helpers/hostile.js';
import { encodeLz4Frame } from '../../codecs/lz4Encode.js';
import { xxh32 } from '../../codecs/xxh32.js';

/**
 * Hostile xorbs built by hand from the spec (../shared/specs/xorb.md §2: an 8-byte chunk header,
 * u8 version, u24 LE compressed length, u8 scheme, u24 LE uncompressed length, then the payload),
 * through open → structure → pages → verify → convert. Chunks hold at most 128 KiB
 * (MAX_CHUNK_SIZE = 131072) uncompressed and 256 KiB compressed, declared or decoded.
 */
const u24 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff];
const chunk = (scheme: number, uncompressed: number, payload: Uint8Array, compressed = payload.length) =>
  Uint8Array.from([0, ...u24(compressed), scheme, ...u24(uncompressed), ...payload]);
const CONVERTERS = ['raw', 'chunks', 'xorb'];

describe('xorb chunk sizes above 128 KiB', () => {
  it.each([
    ['a stored chunk', 131073, 0],
    ['an LZ4 chunk', 0xffffff, 1],
    ['a BG4 chunk', 131073, 2],
  ])('%s declaring %i uncompressed bytes: a limit error at the uncompressed length (offset 5)', async (_what, declared, scheme) => {
    const payload = scheme === 0 ? new Uint8Array(declared) : encodeLz4Frame(new Uint8Array(100));
    const o = await exercise(chunk(scheme as number, declared as number, payload), { name: 'x.xorb' });
    // A damaged chunk is reported as the chunk, the failing field and its detail in the message.
    const want = expect.objectContaining({
      code: 'limit',
      offset: 5,
      message: expect.stringContaining(`chunk 0: uncompressed length: uncompressed length ${declared} exceeds 131072`),
    });
    expect(o.doc!.warnings).toContainEqual(expect.objectContaining({ status: 'fail', name: 'chunk 0 header', offset: 5, field: 'uncompressed length' }));
    expectProblem(o.verify, { status: 'fail', name: 'chunk 0 header', offset: 5, field: 'uncompressed length' });
    for (const id of CONVERTERS) expect(o.converts.get(id), id).toEqual(want);
  });

  it('a header declaring 16 MiB − 1 compressed bytes: a limit error at offset 1, and the walk stops at the payload', async () => {
    const o = await exercise(chunk(1, 100, Uint8Array.of(1, 2, 3), 0xffffff), { name: 'x.xorb' });
    expect(problems(o.verify)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 'fail', name: 'chunk 0 header', offset: 1, field: 'compressed length' }),
        expect.objectContaining({ status: 'fail', name: 'chunk layout', offset: 8, field: 'chunk payload' }),
      ]),
    );
    for (const id of CONVERTERS)
      expect(o.converts.get(id), id).toMatchObject({ code: 'truncated', offset: 8, message: expect.stringContaining('chunk 0: chunk payload: ') });
  });

  it.each([
    ['LZ4', 1],
    ['BG4-LZ4', 2],
  ])('a real %s bomb (4 MiB of zeros in a 16 KiB frame) declared as 64 KiB stops decoding at 128 KiB', async (_name, scheme) => {
    const frame = encodeLz4Frame(new Uint8Array(4 << 20));
    expect(frame.length).toBeLessThan(20_000);
    const o = await exercise(chunk(scheme as number, 65536, frame), { name: 'x.xorb' });
    const err = o.converts.get('raw')!;
    expect(err).toMatchObject({
      code: 'limit',
      message: expect.stringContaining('chunk 0: chunk payload (LZ4 frame) block data: decodes to more than 131072 bytes'),
    });
    // Located in the payload (the header is 8 bytes), not past it.
    expect(err.offset).toBeGreaterThanOrEqual(8);
    expect(err.offset).toBeLessThan(8 + frame.length);
    expectProblem(o.verify, { status: 'fail', name: 'chunk 0 payload', offset: err.offset });
    for (const id of CONVERTERS) expect(o.converts.get(id), id).toMatchObject({ code: 'limit', offset: err.offset });
  });

  it.each([
    // Past 2^53: refused where the descriptor is read.
    [2n ** 62n, { code: 'limit', detail: 'content size does not fit 2^53' }],
    // A number, but not what the frame holds: compared after decoding the 4 bytes there are.
    [2n ** 40n, { code: 'corrupt', detail: `decodes to 4 bytes, the frame's content size says ${2 ** 40}` }],
  ])('an LZ4 frame descriptor declaring %s content bytes is checked, not allocated', async (size, want) => {
    // FLG 0x68 (version 01, independent blocks, content size), BD 0x40, u64 LE content size, HC.
    const descriptor = [0x68, 0x40, ...Array.from({ length: 8 }, (_, i) => Number((size >> BigInt(8 * i)) & 0xffn))];
    const hc = (xxh32(Uint8Array.from(descriptor)) >>> 8) & 0xff;
    const data = new TextEncoder().encode('tiny');
    // One stored block (high bit of its size set), then the end mark.
    const frame = Uint8Array.from([0x04, 0x22, 0x4d, 0x18, ...descriptor, hc, data.length, 0, 0, 0x80, ...data, 0, 0, 0, 0]);
    const o = await exercise(chunk(1, data.length, frame), { name: 'x.xorb' });
    // The content size field sits at 6 in the frame, after the 8-byte chunk header.
    expect(o.converts.get('raw')).toMatchObject({
      code: want.code,
      offset: 8 + 6,
      message: expect.stringContaining(`chunk 0: chunk payload (LZ4 frame) content size: ${want.detail}`),
    });
    expectProblem(o.verify, { status: 'fail', name: 'chunk 0 payload', offset: 14 });
  });
});

describe('xorb footers declaring huge counts (spec §4)', () => {
  it('a hash section of 2^32 − 1 chunks is refused at its count before reading hashes', async () => {
    const full = readFixture('xorb/02_lz4_text.xorb').slice();
    // Footer: "XETBLOB", u8 version, 32-byte xorb hash, then "XBLBHSH", u8 version, u32 chunk count.
    const footerAt = 122015;
    expect(new TextDecoder().decode(full.subarray(footerAt, footerAt + 7))).toBe('XETBLOB');
    new DataView(full.buffer).setUint32(footerAt + 48, 0xffffffff, true);
    const o = await exercise(full, { name: 'x.xorb' });
    expectProblem(o.verify, { status: 'fail', name: 'footer', offset: footerAt + 48, field: 'chunk count (hash section)' });
    // The chunks may be intact, but no hash can vouch for them: a strict read stops at the footer.
    expect(o.converts.get('raw')).toMatchObject({ offset: footerAt + 48, message: expect.stringContaining('footer: chunk count (hash section): ') });
  });
});
