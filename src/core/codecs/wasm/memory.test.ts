import { describe, expect, it } from 'vitest';
import { decodeLz4Frame } from '../lz4.js';
import { encodeLz4Frame } from '../lz4Encode.js';
import { MemorySource } from '../../io/byteSource.js';
import { xzDecompressAll } from '../xz/decode.js';
import { xzCompress } from '../xz/encode.js';
import { wasmMemory } from './module.js';

/** Bytes that compress, but not to nothing: a counter mixed into text. */
function sample(n: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = 7;
  for (let i = 0; i < n; i++) out[i] = i % 97 < 60 ? 97 + (i % 26) : (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24;
  return out;
}

/** Deep equality of megabytes is slow in expect. */
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

describe("the worker's WebAssembly memories", () => {
  it('the LZ4 decoder grown by a large frame is counted, dropped back to nothing, and decodes the same after', () => {
    wasmMemory.drop();
    const data = sample(2 << 20);
    const frame = encodeLz4Frame(data);
    expect(same(decodeLz4Frame(frame, { maxSize: data.length }), data)).toBe(true);
    expect(wasmMemory.bytes()).toBeGreaterThan(2 << 20);
    wasmMemory.drop();
    expect(wasmMemory.bytes()).toBe(0);
    expect(same(decodeLz4Frame(frame, { maxSize: data.length }), data)).toBe(true);
  });

  it("liblzma's heap grown by an encoder's dictionary is counted, made again after a drop, and decodes the same", async () => {
    wasmMemory.drop();
    const data = sample(256 << 10);
    const xz = await xzCompress(data, { preset: 6, check: 'crc64' });
    const grown = wasmMemory.bytes();
    expect(grown).toBeGreaterThan(32 << 20);
    wasmMemory.drop();
    expect(wasmMemory.bytes()).toBeLessThan(grown);
    expect(same(await xzDecompressAll(new MemorySource(xz), { maxOutput: data.length }), data)).toBe(true);
  });
});
