import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { xorshiftBytes } from '../../../../test/helpers/bytes.js';
import { MemorySource } from '../../io/byteSource.js';
import { PageCache } from '../../io/pageCache.js';
import { decodedChunks, hashChunks, readChunk } from './decode.js';
import { hashToString } from './hash.js';
import { CHUNK_HEADER_BYTES } from './model.js';
import { XorbBuilder } from './writer.js';
import { XorbFile } from './xorbFile.js';

/** Decoded bytes as a digest (comparing megabytes element by element is slow), or the error. */
const outcome = (data: Uint8Array | undefined, error?: Error) => (error ? error.message : createHash('sha256').update(data!).digest('hex'));

/** One chunk at a time, through readChunk: the path the chunk preview takes. */
async function oneByOne(x: XorbFile, from: number, end: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = from; i < end; i++)
    out.push(
      await readChunk(x.src, x.chunks[i]!, x.regionEnd).then(
        (d) => outcome(d),
        (e: Error) => outcome(undefined, e),
      ),
    );
  return out;
}

describe('chunks decoded in order', () => {
  it('read in batches ahead of decoding, give what reading each chunk alone gives, damaged chunks included', async () => {
    // 120 chunks of up to 128 KiB (stored, LZ4 and BG4): about 10 MiB, three batches of reads.
    const b = await XorbBuilder.create('auto', 'full');
    for (let i = 0; i < 120; i++) {
      const n = 60_000 + ((i * 7919) % 71_000);
      b.add(
        i % 3 === 0
          ? xorshiftBytes(n, i + 1)
          : i % 3 === 1
            ? new Uint8Array(n).fill(i)
            : new Uint8Array(new Float32Array(n >> 2).map((_, k) => Math.sin(k + i)).buffer),
      );
    }
    const built = await b.finish();
    const bytes = new Uint8Array(built.size);
    built.parts.reduce((at, p) => (bytes.set(p, at), at + p.length), 0);
    // Damage the payloads of chunks 1 (LZ4), 55 and 119, the last one of the last batch.
    const starts = [0];
    for (let i = 0; i + 1 < built.parts.length; i += 2) starts.push(starts.at(-1)! + built.parts[i]!.length + built.parts[i + 1]!.length);
    for (const i of [1, 55, 119]) bytes[starts[i]! + CHUNK_HEADER_BYTES + 9]! ^= 0xff;

    // Reads into the caller's memory, as a file does (a MemorySource hands out views instead).
    const file = {
      size: bytes.length,
      read: (o: number, n: number) => Promise.resolve(bytes.slice(o, o + n)),
      readInto: async (o: number, t: Uint8Array) => t.set(bytes.subarray(o, o + t.length)),
    };
    const x = await XorbFile.open(new PageCache(file), 'x.xorb');
    expect(x.chunks.length).toBe(120);
    for (const [from, end] of [
      [0, 120],
      [37, 101],
      [119, 120],
      [5, 5],
    ] as const) {
      const got: string[] = [];
      const indexes: number[] = [];
      for await (const c of decodedChunks(x.src, x.chunks, x.regionEnd, from, end)) {
        indexes.push(c.index);
        got.push(outcome(c.value, c.error));
      }
      expect(indexes).toEqual(Array.from({ length: end - from }, (_, k) => from + k));
      expect(got).toEqual(await oneByOne(x, from, end));
      // With `use`, the batches take turns in two reused buffers (the source reads into them).
      const used: string[] = [];
      for await (const c of decodedChunks(x.src, x.chunks, x.regionEnd, from, end, (d) => outcome(d)))
        used.push(c.error ? outcome(undefined, c.error) : c.value);
      expect(used).toEqual(got);
    }
    expect((await oneByOne(x, 0, 120)).filter((c) => !/^[0-9a-f]{64}$/.test(c))).toHaveLength(3);
  });
});

describe('hashing chunks', () => {
  it('gives the same hashes when two xorbs are hashed at once (their decodes interleave)', async () => {
    const xorbOf = async (seed: number) => {
      const b = await XorbBuilder.create('auto', 'full');
      for (let i = 0; i < 40; i++)
        b.add(i % 2 ? new Uint8Array(50_000 + i * 997).fill(seed + i) : new Uint8Array(new Float32Array(20_000).map((_, k) => Math.cos(k * seed + i)).buffer));
      const built = await b.finish();
      const bytes = new Uint8Array(built.size);
      built.parts.reduce((at, p) => (bytes.set(p, at), at + p.length), 0);
      return { file: await XorbFile.open(new MemorySource(bytes), undefined), chunkHashes: built.chunkHashes.map((h) => hashToString(h)) };
    };
    const [a, b] = await Promise.all([xorbOf(3), xorbOf(5)]);
    const run = (x: XorbFile) =>
      hashChunks(x.src, x.chunks, x.regionEnd, { signal: new AbortController().signal }).then((h) =>
        h.chunks.map((c) => (c.hash ? hashToString(c.hash) : c.error.message)),
      );
    const [ha, hb] = await Promise.all([run(a.file), run(b.file)]);
    expect(ha).toEqual(a.chunkHashes);
    expect(hb).toEqual(b.chunkHashes);
  });
});
