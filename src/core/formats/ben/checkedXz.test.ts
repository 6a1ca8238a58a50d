import { describe, expect, it } from 'vitest';
import { readXzLayout } from '../../codecs/xz/container.js';
import { xzDecompress } from '../../codecs/xz/decode.js';
import { xzCompress } from '../../codecs/xz/encode.js';
import { FormatError } from '../../errors.js';
import { MemorySource } from '../../io/byteSource.js';
import { concatBytes } from '../../io/bytes.js';
import { XzBlockError, blockSpans, checkedChunks } from './checkedXz.js';

/** Three concatenated CRC64 streams of 3000 known bytes each: blocks 0, 1, 2. */
async function threeBlocks(): Promise<{ xz: Uint8Array; data: Uint8Array; checkOf: (k: number) => number }> {
  const data = Uint8Array.from({ length: 9000 }, (_, i) => (i * 7 + (i >> 5)) & 0xff);
  const parts = [];
  for (let k = 0; k < 3; k++) parts.push(await xzCompress(data.subarray(k * 3000, (k + 1) * 3000), { preset: 0, check: 'crc64' }));
  const xz = concatBytes(parts);
  const layout = await readXzLayout(new MemorySource(xz));
  const checkOf = (k: number) => {
    const b = layout.streams[k]!.blocks[0]!;
    return b.offset + b.unpaddedSize - 8;
  };
  return { xz, data, checkOf };
}

/** liblzma's output cut into 500-byte pieces, so holding, dropping and replaying happen inside blocks. */
async function* pieces(src: MemorySource): AsyncGenerator<Uint8Array> {
  for await (const c of xzDecompress(src)) for (let i = 0; i < c.length; i += 500) yield c.subarray(i, i + 500);
}

/** Everything `checkedChunks` releases before it stops, and the error that stopped it. */
async function drain(xz: Uint8Array, holdLimit: number, known = true): Promise<{ out: Uint8Array; error?: XzBlockError }> {
  const src = new MemorySource(xz);
  const blocks = known ? blockSpans(await readXzLayout(src)) : undefined;
  const parts: Uint8Array[] = [];
  try {
    for await (const c of checkedChunks(() => pieces(src), blocks, holdLimit)) parts.push(c.slice());
  } catch (e) {
    if (!(e instanceof XzBlockError)) throw e;
    return { out: concatBytes(parts), error: e };
  }
  return { out: concatBytes(parts) };
}

const flip = (b: Uint8Array, at: number) => {
  const c = b.slice();
  c[at]! ^= 0xff;
  return c;
};

describe('checkedChunks: decompressed bytes leave only after their block check passed', () => {
  it('an intact file gives every byte, whether blocks are held or decoded twice past the hold limit', async () => {
    const { xz, data } = await threeBlocks();
    for (const limit of [1 << 20, 100, 0]) expect((await drain(xz, limit)).out).toEqual(data);
    expect((await drain(xz, 100, false)).out).toEqual(data);
  });

  it('a failed check in block 1 releases exactly block 0, held or decoded twice, and names block 1 with its bytes', async () => {
    const { xz, data, checkOf } = await threeBlocks();
    const layout = await readXzLayout(new MemorySource(xz));
    const b1 = layout.streams[1]!.blocks[0]!;
    for (const limit of [1 << 20, 100]) {
      const r = await drain(flip(xz, checkOf(1)), limit);
      expect(r.out).toEqual(data.subarray(0, 3000));
      expect(r.error).toBeInstanceOf(FormatError);
      expect(r.error).toMatchObject({ field: 'xz block 1', block: { index: 1, range: { offset: b1.offset, length: b1.unpaddedSize } } });
    }
  });

  it('without block ends (no trusted index) nothing leaves before the end of the data', async () => {
    const { xz, checkOf } = await threeBlocks();
    const r = await drain(flip(xz, checkOf(2)), 1 << 20, false);
    expect(r.out).toHaveLength(0);
    expect(r.error).toMatchObject({ field: 'xz data' });
  });

  it('a failed check in the last block holds back that block only', async () => {
    const { xz, data, checkOf } = await threeBlocks();
    const r = await drain(flip(xz, checkOf(2)), 1 << 20);
    expect(r.out).toEqual(data.subarray(0, 6000));
    expect(r.error).toMatchObject({ field: 'xz block 2' });
  });
});
