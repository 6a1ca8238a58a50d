import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { reused, twoBlockXben } from '../../../../test/helpers/xben.js';
import { xzDecompressAll } from '../../codecs/xz/decode.js';
import { xzCompress } from '../../codecs/xz/encode.js';
import { MemorySource } from '../../io/byteSource.js';
import { concatBytes } from '../../io/bytes.js';
import { ByteCursor } from './cursor.js';
import { type DecodedFrame, xbenFrames } from './decode.js';
import { Ensemble } from './ensemble.js';
import { BANNER_BYTES } from './model.js';
import { readFrames, type StreamLocation } from './stream.js';
import { skipBen32Frames } from './xbenCount.js';

const loc = (bytes: Uint8Array): StreamLocation => ({ format: 'xben', offset: 0, length: bytes.length });

/** A frame as the reader sees it, its plan copied (the decoder reuses it). */
const seen = (f: DecodedFrame) => ({
  index: f.index,
  offset: f.offset,
  count: f.count,
  firstSample: f.firstSample,
  values: [...f.plan.values.subarray(0, f.plan.runs)],
  lengths: [...f.plan.lengths.subarray(0, f.plan.runs)],
});

/** Every frame of a whole decode, or the error it ends with. */
async function decodeAll(frames: AsyncIterable<DecodedFrame>): Promise<{ frames: ReturnType<typeof seen>[]; error?: unknown }> {
  const out: ReturnType<typeof seen>[] = [];
  try {
    for await (const f of frames) out.push(seen(f));
  } catch (error) {
    return { frames: out, error };
  }
  return { frames: out };
}

/** The frame holding 0-based sample `k`, from a seek, or the error the seek ends with. */
async function seek(bytes: Uint8Array, k: number): Promise<ReturnType<typeof seen> | undefined> {
  const { frames, close } = await readFrames(new MemorySource(bytes), loc(bytes), { fromSample: k });
  try {
    const r = await frames.next();
    return r.done ? undefined : seen(r.value);
  } finally {
    await close();
  }
}

/** BEN32 frames of `runs` (value, length) runs, the terminator, and a u16 count when MkvChain. */
const frame = (runs: number, count?: number) => [
  ...Array.from({ length: runs }, (_, i) => [0, 1 + (i % 3), 0, 7 + i]).flat(),
  0,
  0,
  0,
  0,
  ...(count === undefined ? [] : [0, count]),
];

/** Skips to sample `k` over `body` cut into `size`-byte pieces, then decodes the rest. */
async function skipThenDecode(body: Uint8Array, size: number, hasCount: boolean, k: number) {
  const c = ByteCursor.overChunks(reused(body, size));
  const start = await skipBen32Frames(c, hasCount, k);
  return decodeAll(xbenFrames(c, hasCount ? 'mkv_chain' : 'standard', {}, start));
}

describe('XBEN seek: the frames before the wanted sample are counted, not decoded', () => {
  it.each([
    ['ben/v1_source.standard.xben', 5],
    ['ben/grid4x4_chain.mkv_chain.xben', 48],
    ['ben/edge_small_example.mkv_chain.xben', 6],
  ])('%s: every sample (first, middle, last) comes from the frame a full decode gives it, and none past the end', async (file, samples) => {
    const bytes = readFixture(file);
    const full = (await decodeAll((await readFrames(new MemorySource(bytes), loc(bytes))).frames)).frames;
    const holding = (k: number) => full.find((f) => f.firstSample - 1 <= k && k < f.firstSample - 1 + f.count);
    for (let k = 0; k < samples; k++) expect(await seek(bytes, k), `sample ${k}`).toEqual(holding(k));
    expect(await seek(bytes, samples)).toBeUndefined();
  });

  it('the ensemble hands out the same first run as a full decode trimmed to it, for the first, a middle and the last sample', async () => {
    const bytes = readFixture('ben/grid4x4_chain.mkv_chain.xben');
    const full = (await decodeAll((await readFrames(new MemorySource(bytes), loc(bytes))).frames)).frames;
    for (const k of [0, 20, 47]) {
      const f = full.find((x) => x.firstSample - 1 <= k && k < x.firstSample - 1 + x.count)!;
      const ens = new Ensemble(new MemorySource(bytes), loc(bytes), 'mkv_chain', undefined);
      for await (const r of ens.from(k)) {
        expect(r.firstSample).toBe(k + 1);
        expect(r.count).toBe(f.firstSample + f.count - 1 - k);
        expect([...r.plan.values.subarray(0, r.plan.runs)]).toEqual(f.values);
        break;
      }
      await ens.release(); // the decode parked for a next page holds a liblzma dictionary
    }
  });

  it('lands on the same frame whatever pieces the body comes in: runs, terminators and counts cut anywhere', async () => {
    const chain = Uint8Array.from([...frame(3, 2), ...frame(1, 1), ...frame(5, 4), ...frame(2, 1)]);
    const standard = Uint8Array.from([...frame(3), ...frame(1), ...frame(5), ...frame(2)]);
    const chainAll = await skipThenDecode(chain, chain.length, true, 0);
    const standardAll = await skipThenDecode(standard, standard.length, false, 0);
    for (const size of [1, 2, 3, 5, 7, 8, 9, 64]) {
      for (let k = 0; k < 8; k++) {
        const first = chainAll.frames.findIndex((f) => k < f.firstSample - 1 + f.count);
        expect(await skipThenDecode(chain, size, true, k)).toEqual({ frames: chainAll.frames.slice(first) });
      }
      for (let k = 0; k < 4; k++) expect(await skipThenDecode(standard, size, false, k)).toEqual({ frames: standardAll.frames.slice(k) });
    }
  });

  it('stops at a damaged frame before the wanted sample: the decoder names it with the offset and frame number a full decode gives', async () => {
    const badRun = Uint8Array.from([...frame(2, 1), 0, 5, 0, 0, ...frame(1, 1), ...frame(1, 1)]);
    const zeroCount = Uint8Array.from([...frame(2, 1), ...frame(1, 0), ...frame(1, 1)]);
    const cut = Uint8Array.from([...frame(2, 1), ...frame(3, 1).slice(0, 9)]);
    for (const body of [badRun, zeroCount, cut]) {
      const full = await skipThenDecode(body, body.length, true, 0);
      expect(full.error).toMatchObject({ offset: expect.any(Number), field: expect.stringMatching(/^frame 1/) });
      for (const size of [1, 3, 64]) {
        const r = await skipThenDecode(body, size, true, 2);
        expect(r.frames).toEqual([]);
        expect(r.error).toEqual(full.error);
      }
    }
  });

  it('a failed xz block check before the wanted sample: the seek fails naming the block, as the full decode does; samples before it still seek', async () => {
    const { bytes, secondCheck } = await twoBlockXben();
    bytes[secondCheck + 7]! ^= 1; // block 1's CRC64
    const full = await decodeAll((await readFrames(new MemorySource(bytes), loc(bytes))).frames);
    expect(full.frames.length).toBeGreaterThan(0);
    expect(full.error).toMatchObject({ field: 'xz block 1', offset: expect.any(Number) });
    const { frames } = await readFrames(new MemorySource(bytes), loc(bytes), { fromSample: 47 });
    expect(await decodeAll(frames)).toEqual({ frames: [], error: full.error });
    expect(await seek(bytes, 1)).toEqual(full.frames.find((f) => f.firstSample - 1 <= 1 && 1 < f.firstSample - 1 + f.count));
  });

  it('a damaged body inside good xz: the seek to the last sample fails at the frame, with its decompressed offset', async () => {
    const ref = readFixture('ben/grid4x4_chain.mkv_chain.xben');
    const banner = (await xzDecompressAll(new MemorySource(ref), { maxOutput: 1 << 20 })).subarray(0, BANNER_BYTES);
    const bytes = await xzCompress(concatBytes([banner, Uint8Array.from([...frame(2, 1), 0, 5, 0, 0, ...frame(1, 1)])]), { preset: 0, check: 'none' });
    const full = await decodeAll((await readFrames(new MemorySource(bytes), loc(bytes))).frames);
    expect(full.error).toMatchObject({ field: 'frame 1 run', detail: expect.stringContaining(`(decompressed byte ${BANNER_BYTES + frame(2, 1).length})`) });
    const { frames } = await readFrames(new MemorySource(bytes), loc(bytes), { fromSample: 2 });
    expect(await decodeAll(frames)).toEqual({ frames: [], error: full.error });
  });
});
