import { readXzLayout } from '../../src/core/codecs/xz/container.js';
import { xzDecompressAll } from '../../src/core/codecs/xz/decode.js';
import { xzCompress } from '../../src/core/codecs/xz/encode.js';
import { readFrames } from '../../src/core/formats/ben/stream.js';
import { MemorySource } from '../../src/core/io/byteSource.js';
import { concatBytes } from '../../src/core/io/bytes.js';
import { readFixture } from './fixtures.js';

/** A body in pieces of `size` bytes, each written over the one before as liblzma's output buffer is. */
export async function* reused(body: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  const buffer = new Uint8Array(size);
  for (let at = 0; at < body.length; at += size) {
    const n = Math.min(size, body.length - at);
    buffer.set(body.subarray(at, at + n));
    yield buffer.subarray(0, n);
    buffer.fill(0xee);
  }
}

/**
 * grid4x4_chain.mkv_chain.xben (48 samples) recompressed as two concatenated xz streams with
 * CRC64 checks, split in the middle of a frame: block 0 and block 1. `inFirst` is the number of
 * samples whose frames lie wholly in block 0 (decoded from the undamaged file); `secondCheck` is
 * where block 1's CRC64 starts.
 */
export async function twoBlockXben(): Promise<{ bytes: Uint8Array; inFirst: number; secondCheck: number; secondBlock: { offset: number; length: number } }> {
  const ref = readFixture('ben/grid4x4_chain.mkv_chain.xben');
  const body = await xzDecompressAll(new MemorySource(ref), { maxOutput: 1 << 20 });
  const split = Math.floor(body.length / 2);
  const bytes = concatBytes([
    await xzCompress(body.subarray(0, split), { preset: 0, check: 'crc64' }),
    await xzCompress(body.subarray(split), { preset: 0, check: 'crc64' }),
  ]);
  let inFirst = 0;
  const { frames } = await readFrames(new MemorySource(bytes), { format: 'xben', offset: 0, length: bytes.length });
  for await (const f of frames) if (f.offset + f.length <= split) inFirst += f.count;
  const b = (await readXzLayout(new MemorySource(bytes))).streams[1]!.blocks[0]!;
  // The CRC64 is the last 8 bytes of the block's unpadded size.
  return { bytes, inFirst, secondCheck: b.offset + b.unpaddedSize - 8, secondBlock: { offset: b.offset, length: b.unpaddedSize } };
}
