import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { FormatError } from '../../errors.js';
import { MemorySource } from '../../io/byteSource.js';
import { concatBytes } from '../../io/bytes.js';
import { xzDecompress, xzDecompressAll } from './decode.js';
import { type XzCheck, xzCompress } from './encode.js';

const all = (bytes: Uint8Array, maxOutput = 1 << 30) => xzDecompressAll(new MemorySource(bytes), { maxOutput });

describe('xz decoding (liblzma WASM)', () => {
  it('decodes the independent TwoDelta .xben to its published body (check None, 64 MiB dictionary)', async () => {
    expect(await all(readFixture('ben/independent/twodelta.xben'))).toEqual(readFixture('ben/independent/twodelta.xben.body'));
  });

  it('reads the v1_source BEN32 body: banner first, 85 bytes as the index says', async () => {
    const body = await all(readFixture('ben/v1_source.standard.xben'));
    expect(body.length).toBe(85);
    expect(new TextDecoder().decode(body.subarray(0, 17))).toBe('STANDARD BEN FILE');
  });

  it('rejects the byte-flipped .xben as corrupt data', async () => {
    const e = await all(readFixture('ben/negative/flipped_byte.mkv_chain.xben')).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(FormatError);
    expect(e).toMatchObject({ code: 'corrupt' });
  });

  it('yields the whole body of the truncated .xben, then fails as truncated', async () => {
    const chunks: Uint8Array[] = [];
    const e = await (async () => {
      for await (const c of xzDecompress(new MemorySource(readFixture('ben/negative/trunc.mkv_chain.xben')))) chunks.push(c);
    })().catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'truncated' });
    const whole = await all(readFixture('ben/grid4x4_chain.mkv_chain.xben'));
    expect(concatBytes(chunks)).toEqual(whole);
  });

  it('stops at the output cap with a limit error', async () => {
    const bomb = await xzCompress(new Uint8Array(4 << 20), { preset: 1, check: 'none' });
    expect(bomb.length).toBeLessThan(4096);
    await expect(all(bomb, 1 << 20)).rejects.toMatchObject({ code: 'limit' });
  });

  it('names the offset and field of a non-xz input', async () => {
    await expect(xzDecompressAll(new MemorySource(new Uint8Array(64).fill(7)), { maxOutput: 100, offset: 8, field: 'stream' })).rejects.toMatchObject({
      code: 'bad-magic',
      field: 'stream',
    });
  });
});

describe('xz round trips', () => {
  it.each<XzCheck>(['none', 'crc32', 'crc64', 'sha256'])('check %s: compress then decompress gives the input back', async (check) => {
    const input = new TextEncoder().encode('STANDARD BEN FILE'.repeat(5000));
    const packed = await xzCompress(input, { preset: 6, check });
    expect(packed[7]).toBe({ none: 0, crc32: 1, crc64: 4, sha256: 10 }[check]);
    expect(await all(packed)).toEqual(input);
  });

  it('a damaged CRC32 check is caught', async () => {
    const packed = (await xzCompress(new Uint8Array(1000).fill(3), { preset: 0, check: 'crc32' })).slice();
    // The block's 4-byte check sits just before the index (which starts with 0x00 and ends 12 bytes before the footer).
    const footer = packed.length - 12;
    const indexSize = (packed[footer + 4]! + 1) * 4;
    packed[footer - indexSize - 1]! ^= 0xff;
    await expect(all(packed)).rejects.toMatchObject({ code: 'corrupt' });
  });

  it('concatenated streams and stream padding read as one, like xz -d', async () => {
    const a = await xzCompress(new Uint8Array([1, 2, 3]), { preset: 0, check: 'crc64' });
    const b = await xzCompress(new Uint8Array([4, 5]), { preset: 0, check: 'none' });
    expect(await all(concatBytes([a, new Uint8Array(8), b, new Uint8Array(4)]))).toEqual(new Uint8Array([1, 2, 3, 4, 5]));
  });

  it('any bytes survive, in pieces larger than the 1 MiB buffers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), fc.integer({ min: 0, max: 3 }), async (bytes, preset) => {
        expect(await all(await xzCompress(bytes, { preset, check: 'crc32' }))).toEqual(bytes);
      }),
      { numRuns: 10 },
    );
    const big = new Uint8Array((1 << 20) + 12345).map((_, i) => (i * 7919) >>> 9);
    expect(await all(await xzCompress(big, { preset: 0, check: 'crc64' }))).toEqual(big);
  });

  it('refuses presets the WASM heap cannot hold', async () => {
    await expect(xzCompress(new Uint8Array(1), { preset: 9, check: 'none' })).rejects.toMatchObject({ code: 'unsupported' });
  });
});

describe('liblzma with bulk memcpy and zero-fill (bulkMemory.ts)', () => {
  it('replaces exactly the byte-loop memcpy and zero-fill of the shipped build, and the result compiles', async () => {
    const { readFileSync } = await import('node:fs');
    const { createRequire } = await import('node:module');
    const { withBulkMemory } = await import('./bulkMemory.js');
    const wasm = new Uint8Array(readFileSync(createRequire(import.meta.url).resolve('node-liblzma/wasm/liblzma.wasm')));
    const { bytes, replaced } = withBulkMemory(wasm);
    expect(replaced).toBe(2);
    expect((globalThis as unknown as { WebAssembly: { validate(b: Uint8Array): boolean } }).WebAssembly.validate(bytes)).toBe(true);
    // Applying it again finds nothing to replace, and a module without the loop is returned as is.
    expect(withBulkMemory(bytes)).toEqual({ bytes, replaced: 0 });
  });

  it('decodes what the xz CLI writes, for data with long and short, near and overlapping matches', async () => {
    const { spawnSync } = await import('node:child_process');
    if (spawnSync('xz', ['--version']).status !== 0) return;
    const parts: number[] = [];
    let x = 7;
    for (let i = 0; i < 300_000; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      const r = x >>> 24;
      // runs (overlapping matches), short repeats, long repeats 70+ bytes back, and noise
      if (r < 40) for (let k = 0; k < (r & 15) + 2; k++) parts.push(65);
      else if (r < 120) parts.push(...parts.slice(-((r % 9) + 2)));
      else if (r < 200 && parts.length > 200) parts.push(...parts.slice(parts.length - 150 - (r % 40), parts.length - 60));
      else parts.push(r);
      if (parts.length > 2_000_000) break;
    }
    const data = Uint8Array.from(parts);
    for (const args of [['-6'], ['-1', '-C', 'crc32'], ['-9e', '-C', 'sha256']]) {
      const packed = spawnSync('xz', [...args, '-T1', '-c'], { input: data, maxBuffer: 1 << 26 }).stdout;
      const got = await all(new Uint8Array(packed));
      expect(Buffer.from(got).equals(Buffer.from(data)), args.join(' ')).toBe(true);
    }
  });
});
