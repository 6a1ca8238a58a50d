import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/byteSource.js';
import { concatBytes } from '../../io/bytes.js';
import { type XzBlockEncoders, lendXzBlockEncoders } from './blockEncoders.js';
import { blockDictionary, xzCompressBlock } from './blockEncode.js';
import { readBlockHeader, readXzLayout } from './container.js';
import { xzDecompressAll } from './decode.js';
import type { XzCheck } from './encode.js';
import { ParallelXzWriter, openXzWriter } from './parallelWriter.js';

const hasXz = spawnSync('xz', ['--version']).status === 0;
const decode = (bytes: Uint8Array) => xzDecompressAll(new MemorySource(bytes), { maxOutput: 1 << 30 });

/** Encoders on this thread: the writer cannot tell them from worker threads. `order` delays answers to reorder them. */
function inThread(threads: number, answerLater = (_i: number) => 0): XzBlockEncoders & { closed: boolean; sizes: number[] } {
  let n = 0;
  return {
    threads,
    closed: false,
    sizes: [],
    async encode(data, opts) {
      const i = n++;
      this.sizes.push(data.length);
      for (let k = answerLater(i); k > 0; k--) await Promise.resolve();
      return xzCompressBlock(data, opts);
    },
    warm() {},
    close() {
      this.closed = true;
    },
  };
}

async function writeAll(w: { write(c: Uint8Array): Promise<void>; finish(): Promise<unknown> }, data: Uint8Array, piece: number): Promise<void> {
  for (let at = 0; at < data.length; at += piece) await w.write(data.subarray(at, at + piece));
  await w.finish();
}

function parallel(encoders: XzBlockEncoders, check: XzCheck, blockBytes: number) {
  const parts: Uint8Array[] = [];
  const w = new ParallelXzWriter({ write: async (c) => void parts.push(c.slice()) }, { preset: 1, check }, encoders, blockBytes);
  return { w, bytes: () => concatBytes(parts) };
}

/** Runs of u16 pairs like an XBEN body's, wandering a little from one line to the next: compressible, not trivially. */
function sampleBody(n: number): Uint8Array {
  let seed = 7;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = i % 4 < 2 ? 0 : (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 29;
  return out;
}
const body = sampleBody(50_000);

afterEach(() => lendXzBlockEncoders(undefined));

describe('xz blocks compressed apart, one stream written in order', () => {
  it.each(['none', 'crc32', 'crc64', 'sha256'] as const)(
    'check %s: the body in 4 KiB blocks reads back byte for byte, the index listing every block',
    async (check) => {
      const { w, bytes } = parallel(inThread(3), check, 4096);
      await writeAll(w, body, 1000);
      const xz = bytes();
      expect(await decode(xz)).toEqual(body);
      const { streams } = await readXzLayout(new MemorySource(xz));
      expect(streams).toHaveLength(1);
      // 50 000 bytes: 11 whole blocks, then the twelfth and the last 848 bytes split among the 3 threads.
      expect(streams[0]!.blocks.map((b) => Number(b.uncompressedSize))).toEqual([...Array<number>(11).fill(4096), 1648, 1648, 1648]);
      expect(streams[0]).toMatchObject({ headerCrcOk: true, indexCrcOk: true, footerCrcOk: true });
      if (hasXz) expect(spawnSync('xz', ['-t'], { input: xz }).status).toBe(0);
    },
  );

  it('writes blocks in their order when later ones are compressed first', async () => {
    const { w, bytes } = parallel(
      inThread(4, (i) => 40 - i * 10),
      'crc64',
      4096,
    );
    await writeAll(w, body, 5000);
    expect(await decode(bytes())).toEqual(body);
  });

  it('an empty input is an empty stream that xz and our decoder accept', async () => {
    const { w, bytes } = parallel(inThread(2), 'crc32', 4096);
    await w.finish();
    expect(await decode(bytes())).toEqual(new Uint8Array(0));
    if (hasXz) expect(spawnSync('xz', ['-t'], { input: bytes() }).status).toBe(0);
  });

  it('a body too small to split in two quarter blocks is compressed on the writing thread, no encoder asked', async () => {
    const encoders = { ...inThread(2), encode: () => Promise.reject(new Error('no thread should be started')) };
    const { w, bytes } = parallel(encoders, 'crc64', 4096);
    await writeAll(w, body.subarray(0, 2047), 1000);
    expect(await decode(bytes())).toEqual(body.subarray(0, 2047));
    expect(encoders.closed).toBe(true);
  });

  it('splits the last full block and the rest evenly among the threads', async () => {
    const encoders = inThread(2);
    const { w, bytes } = parallel(encoders, 'crc32', 4096);
    await writeAll(w, body.subarray(0, 14_001), 1000);
    // 4096 + 4096 + 4096 + 1713: the first two sent as they filled, the third held back and split with the rest.
    expect(encoders.sizes).toEqual([4096, 4096, 2905, 2904]);
    expect(await decode(bytes())).toEqual(body.subarray(0, 14_001));
    if (hasXz) expect(spawnSync('xz', ['-t'], { input: bytes() }).status).toBe(0);
  });

  it('any body, block size, thread count and pieces written: reads back, whole blocks, then the tail split within a byte', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 40_000 }),
        fc.integer({ min: 1024, max: 8192 }),
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 1, max: 5000 }),
        async (n, blockBytes, threads, piece) => {
          const { w, bytes } = parallel(inThread(threads), 'crc64', blockBytes);
          await writeAll(w, body.subarray(0, n), piece);
          const xz = bytes();
          expect(await decode(xz)).toEqual(body.subarray(0, n));
          const blocks = (await readXzLayout(new MemorySource(xz))).streams[0]!.blocks.map((b) => Number(b.uncompressedSize));
          const whole = n < blockBytes ? 0 : Math.floor(n / blockBytes) - 1;
          expect(blocks.slice(0, whole)).toEqual(Array.from({ length: whole }, () => blockBytes));
          const tail = blocks.slice(whole);
          const rest = n - whole * blockBytes;
          expect(tail.reduce((a, b) => a + b, 0)).toBe(rest);
          expect(tail).toHaveLength(Math.max(rest > 0 ? 1 : 0, Math.min(threads, Math.floor(rest / (blockBytes / 4)))));
          expect(Math.max(...tail) - Math.min(...tail)).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('an encoder that fails fails the finish, and the encoders are closed', async () => {
    const encoders = { ...inThread(2), encode: () => Promise.reject(new Error('out of memory')) };
    const { w } = parallel(encoders, 'none', 4096);
    await w.write(body.subarray(0, 5000));
    await expect(w.finish()).rejects.toThrow('out of memory');
    expect(encoders.closed).toBe(true);
  });

  it('openXzWriter splits into blocks only when a host lends two threads or more', async () => {
    const blocksOf = async (encoders: XzBlockEncoders | undefined) => {
      lendXzBlockEncoders(encoders && (async () => encoders));
      const parts: Uint8Array[] = [];
      const w = await openXzWriter({ write: async (c) => void parts.push(c.slice()) }, { preset: 0, check: 'crc32' });
      await writeAll(
        w,
        new Uint8Array(3 << 20).map((_, i) => (i * 7) & 0xff),
        1 << 20,
      );
      return (await readXzLayout(new MemorySource(concatBytes(parts)))).streams[0]!.blocks.length;
    };
    expect(await blocksOf(undefined)).toBe(1);
    expect(await blocksOf(inThread(1))).toBe(1);
    // Two whole blocks, and the third split between the two threads.
    expect(await blocksOf(inThread(2))).toBe(4);
  });
});

describe('one block compressed in one call', () => {
  it('uses the preset dictionary, or the smallest power of two holding the block when smaller', () => {
    expect(blockDictionary(7, 1 << 20)).toBe(1 << 20);
    expect(blockDictionary(7, (1 << 20) + 1)).toBe(2 << 20);
    expect(blockDictionary(7, 64 << 20)).toBe(16 << 20);
    expect(blockDictionary(0, 10)).toBe(4096);
    expect(blockDictionary(0, 1 << 20)).toBe(256 << 10);
  });

  it.each([
    [1 << 20, 16],
    [50_000, 8],
  ])('writes that dictionary in the block header: %i bytes at preset 4, LZMA2 property byte %i', async (n, prop) => {
    const xz = await xzCompressBlock(sampleBody(n), { preset: 4, check: 'crc64' });
    const { streams } = await readXzLayout(new MemorySource(xz));
    const header = await readBlockHeader(new MemorySource(xz), streams[0]!.blocks[0]!.offset);
    expect(header.filters).toMatchObject([{ id: 0x21n, properties: Uint8Array.of(prop) }]);
  });

  it.each([0, 3, 4, 7])('preset %i reads back byte for byte', async (preset) => {
    expect(await decode(await xzCompressBlock(body, { preset, check: 'crc32' }))).toEqual(body);
  });
});
