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

/** Encoders on this thread: the writer cannot tell them from worker threads. `answerLater` delays answers to reorder them. */
function inThread(threads: number, answerLater = (_i: number) => 0): XzBlockEncoders & { closed: boolean; sizes: number[] } {
  let n = 0;
  let busy = 0;
  let waiters: (() => void)[] = [];
  return {
    threads,
    closed: false,
    sizes: [],
    async encode(data, opts) {
      const i = n++;
      this.sizes.push(data.length);
      busy++;
      try {
        for (let k = answerLater(i); k > 0; k--) await Promise.resolve();
        return await xzCompressBlock(data, opts);
      } finally {
        busy--;
        const told = waiters;
        waiters = [];
        for (const w of told) w();
      }
    },
    warm() {},
    idle: () => Math.max(0, threads - busy),
    nextIdle: () => new Promise<void>((resolve) => waiters.push(resolve)),
    close() {
      this.closed = true;
    },
  };
}

/** The same encoders with threads that start only when the writer first waits for one (none is idle before). */
function starting<T extends XzBlockEncoders>(e: T): T {
  let started = false;
  return Object.assign(Object.create(e) as T, {
    idle: () => (started ? e.idle() : 0),
    nextIdle: () => (started ? e.nextIdle() : new Promise<void>((resolve) => setImmediate(() => ((started = true), resolve())))),
  });
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
      expect(streams[0]!.blocks.map((b) => Number(b.uncompressedSize))).toEqual(
        Array.from({ length: Math.ceil(body.length / 4096) }, (_, i) => Math.min(4096, body.length - i * 4096)),
      );
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

  it('splits what no thread has started by the end evenly among the threads', async () => {
    // Threads still starting when the input ends (as the CLI's are for a 2 MB body): nothing is sent before.
    const encoders = starting(inThread(2));
    const { w, bytes } = parallel(encoders, 'crc32', 4096);
    await writeAll(w, body.subarray(0, 10_001), 1000);
    expect(encoders.sizes).toEqual([5001, 5000]);
    expect(await decode(bytes())).toEqual(body.subarray(0, 10_001));
    if (hasXz) expect(spawnSync('xz', ['-t'], { input: bytes() }).status).toBe(0);
  });

  it('any body, block size, thread count and start-up: reads back, blocks in order, the split tail within a byte', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 40_000 }),
        fc.integer({ min: 1024, max: 8192 }),
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.boolean(),
        async (n, blockBytes, threads, piece, slowStart) => {
          const encoders = slowStart ? starting(inThread(threads)) : inThread(threads);
          const { w, bytes } = parallel(encoders, 'crc64', blockBytes);
          await writeAll(w, body.subarray(0, n), piece);
          const xz = bytes();
          expect(await decode(xz)).toEqual(body.subarray(0, n));
          const blocks = (await readXzLayout(new MemorySource(xz))).streams[0]!.blocks.map((b) => Number(b.uncompressedSize));
          expect(blocks.reduce((a, b) => a + b, 0)).toBe(n);
          // Whole blocks, then the tail split into at most `threads` pieces of at least a quarter block.
          const tail = blocks.slice(blocks.findIndex((b, i) => b !== blockBytes || i === blocks.length - 1));
          expect(tail.length).toBeLessThanOrEqual(threads);
          if (tail.length > 1) {
            expect(Math.max(...tail) - Math.min(...tail)).toBeLessThanOrEqual(1);
            expect(Math.min(...tail)).toBeGreaterThanOrEqual(blockBytes / 4 - 1);
          }
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

  it('a thread that fails before it starts fails the finish holding blocks for it, and the encoders are closed', async () => {
    const encoders = { ...inThread(2), idle: () => 0, nextIdle: () => Promise.reject(new Error('thread ended (exit code 1)')) };
    const { w } = parallel(encoders, 'none', 4096);
    await w.write(body.subarray(0, 5000));
    await expect(w.finish()).rejects.toThrow('thread ended');
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
    expect(await blocksOf(inThread(2))).toBe(3);
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
