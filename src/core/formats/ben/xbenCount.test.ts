import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/byteSource.js';
import type { FormatDocument } from '../../model.js';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { reused } from '../../../../test/helpers/xben.js';
import { xzDecompressAll } from '../../codecs/xz/decode.js';
import { xzCompress } from '../../codecs/xz/encode.js';
import { readXzLayout } from '../../codecs/xz/container.js';
import { benHandler } from './handler.js';
import { countXbenStream } from './stream.js';
import { MAX_NODES } from './plan.js';
import { countBen32Body } from './xbenCount.js';

const loc = (bytes: Uint8Array) => ({ format: 'xben' as const, offset: 0, length: bytes.length });
const lines = (path: string) => new TextDecoder().decode(readFixture(path)).split('\n').filter(Boolean).length;
/** A body as one piece. */
async function* whole(bytes: number[]): AsyncGenerator<Uint8Array> {
  yield Uint8Array.from(bytes);
}

describe('XBEN frame count without decoding plans', () => {
  // Frames and samples from ben/MANIFEST.md (made by the reference v0.3.0).
  it.each([
    ['ben/v1_source.standard.xben', 5, 5],
    ['ben/grid4x4_chain.mkv_chain.xben', 37, 48],
    ['ben/edge_small_example.mkv_chain.xben', 6, 6],
  ])('%s: %i frames, %i samples', async (file, frames, samples) => {
    const bytes = readFixture(file);
    expect(await countXbenStream(new MemorySource(bytes), loc(bytes))).toEqual({ frames, samples });
  });

  it('leaves TwoDelta and a cut stream to the decoder, whose count info then gives (the good prefix of the cut one)', async () => {
    const twoDelta = readFixture('ben/independent/twodelta.xben');
    expect(await countXbenStream(new MemorySource(twoDelta), loc(twoDelta))).toBeUndefined();
    const cut = readFixture('ben/negative/trunc.mkv_chain.xben');
    expect(await countXbenStream(new MemorySource(cut), loc(cut))).toBeUndefined();
    const doc: FormatDocument = await benHandler.open(new MemorySource(cut), {});
    await doc.countAll!({});
    expect(doc.info()).toMatchObject({ samples: lines('ben/negative/trunc.mkv_chain.partial.jsonl'), counted: true });
  });

  it('gives up, for the decoder to name, at a run of length 0 that is not the terminator, a count of 0 or a cut frame', async () => {
    // Hand-made MkvChain bodies: runs (value, length) as u16 pairs, 00000000, then the u16 count.
    const good = [0, 1, 0, 3, 0, 2, 0, 1, 0, 0, 0, 0, 0, 2];
    expect(await countBen32Body(whole(good), true)).toEqual({ frames: 1, samples: 2 });
    expect(await countBen32Body(whole([...good, ...good]), true)).toEqual({ frames: 2, samples: 4 });
    expect(await countBen32Body(whole([0, 1, 0, 3, 0, 5, 0, 0, 0, 0, 0, 0, 0, 1]), true)).toBeUndefined();
    expect(await countBen32Body(whole([0, 1, 0, 3, 0, 0, 0, 0, 0, 0]), true)).toBeUndefined();
    expect(await countBen32Body(whole(good.slice(0, 11)), true)).toBeUndefined();
    expect(await countBen32Body(whole(good.slice(0, 12)), false)).toEqual({ frames: 1, samples: 1 });
  });

  it('counts the same whatever pieces the body arrives in, each overwritten once read: runs, terminators and counts cut anywhere', async () => {
    const frame = (runs: number, count: number) => [...Array.from({ length: runs }, (_, i) => [0, 1 + (i % 3), 0, 7]).flat(), 0, 0, 0, 0, 0, count];
    const body = Uint8Array.from([...frame(3, 2), ...frame(1, 1), ...frame(5, 4), ...frame(2, 1)]);
    for (const size of [1, 2, 3, 5, 7, 8, 9, 10, 64]) expect(await countBen32Body(reused(body, size), true)).toEqual({ frames: 4, samples: 8 });
    const standard = Uint8Array.from([0, 1, 0, 3, 0, 2, 0, 1, 0, 0, 0, 0, 0, 4, 0, 9, 0, 0, 0, 0]);
    for (const size of [1, 3, 4, 6, 11]) expect(await countBen32Body(reused(standard, size), false)).toEqual({ frames: 2, samples: 2 });
  });

  it('gives no count where an xz block check fails, though its bytes read as good frames: the decode then names the block', async () => {
    const body = await xzDecompressAll(new MemorySource(readFixture('ben/grid4x4_chain.mkv_chain.xben')), { maxOutput: 1 << 20 });
    const bytes = await xzCompress(body, { preset: 0, check: 'crc64' });
    expect(await countXbenStream(new MemorySource(bytes), loc(bytes))).toEqual({ frames: 37, samples: 48 });
    const b = (await readXzLayout(new MemorySource(bytes))).streams[0]!.blocks[0]!;
    bytes[b.offset + b.unpaddedSize - 1]! ^= 1; // the CRC64's last byte
    expect(await countXbenStream(new MemorySource(bytes), loc(bytes))).toBeUndefined();
    const doc: FormatDocument = await benHandler.open(new MemorySource(bytes), {});
    await doc.countAll!({});
    expect(doc.info()).toMatchObject({ samples: 0, error: expect.stringContaining('xz block 0') });
    expect(doc.warnings.find((w) => w.name === 'body')).toMatchObject({ status: 'fail', detail: expect.stringContaining('corrupt') });
  });

  it('gives up at a frame of more than 2^26 nodes, also when its runs come in many pieces', async () => {
    const run = [0, 1, 0xff, 0xff];
    const runs = Math.ceil(MAX_NODES / 0xffff) + 1;
    const pieces = (async function* () {
      for (let i = 0; i < runs; i += 100) yield Uint8Array.from(Array.from({ length: Math.min(100, runs - i) }, () => run).flat());
      yield Uint8Array.of(0, 0, 0, 0, 0, 1);
    })();
    expect(await countBen32Body(pieces, true)).toBeUndefined();
  });
});
