import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { xorshiftBytes } from '../../../test/helpers/bytes.js';
import { readFixture, readJson } from '../../../test/helpers/fixtures.js';
import { decodeLz4Frame, lz4Decoders, readLz4FrameInfo } from './lz4.js';
import { encodeLz4Frame } from './lz4Encode.js';
import { xxh32 } from './xxh32.js';

/** Large byte arrays compared by their first difference (toEqual walks them element by element). */
function firstDifference(a: Uint8Array, b: Uint8Array): number | 'length' | undefined {
  if (a.length !== b.length) return 'length';
  const i = Buffer.from(a.buffer, a.byteOffset, a.length).compare(Buffer.from(b.buffer, b.byteOffset, b.length));
  if (i === 0) return undefined;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return k;
  return undefined;
}

const hasLz4Cli = spawnSync('lz4', ['--version']).status === 0;

/** Runs Debian's lz4 CLI (liblz4, the reference implementation) over `data`, from a file so it knows the size. */
function lz4Cli(args: string[], data: Uint8Array): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'binlens-lz4-'));
  try {
    writeFileSync(join(dir, 'in'), data);
    const r = spawnSync('lz4', [...args, '-c', join(dir, 'in')], { maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(String(r.stderr));
    return new Uint8Array(r.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Compressible but varied bytes: words from a small vocabulary picked by xorshift. */
function sampleText(n: number, seed = 7): Uint8Array {
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', '0.125', '\n', ',', 'weights'];
  const picks = xorshiftBytes(n, seed);
  const out = new Uint8Array(n);
  for (let i = 0, k = 0; i < n; k++) for (const ch of words[picks[k]! % words.length]!) if (i < n) out[i++] = ch.charCodeAt(0);
  return out;
}

/** A frame with FLG 0x60 built by hand around one block. */
function frameAround(block: Uint8Array, stored = false): Uint8Array {
  const header = [0x04, 0x22, 0x4d, 0x18, 0x60, 0x40];
  const hc = (xxh32(Uint8Array.from(header), 0, 4, 6) >>> 8) & 0xff;
  const size = block.length | (stored ? 0x80000000 : 0);
  return Uint8Array.from([...header, hc, size & 0xff, (size >>> 8) & 0xff, (size >>> 16) & 0xff, size >>> 24, ...block, 0, 0, 0, 0]);
}

describe('LZ4 frame decoding', () => {
  it('decodes every LZ4 and BG4 payload of the xorb fixtures (lz4_flex frames) to the recorded chunk bytes', () => {
    for (const name of ['02_lz4_text', '03_bg4_float32']) {
      const truth = readJson<{
        chunks: {
          payload_offset: number;
          compressed_size: number;
          uncompressed_size: number;
          lz4_frame: { flg: string; bd: string; blocks: { size: number }[] };
        }[];
      }>(`xorb/${name}.json`);
      const file = readFixture(`xorb/${name}.xorb`);
      for (const c of truth.chunks) {
        const payload = file.subarray(c.payload_offset, c.payload_offset + c.compressed_size);
        expect(decodeLz4Frame(payload, { maxSize: 131072, expectedSize: c.uncompressed_size })).toHaveLength(c.uncompressed_size);
        const info = readLz4FrameInfo(payload);
        expect([`0x${info.flg.toString(16)}`, `0x${info.bd.toString(16)}`, info.blocks.map((b) => b.size)]).toEqual([
          c.lz4_frame.flg,
          c.lz4_frame.bd,
          c.lz4_frame.blocks.map((b) => b.size),
        ]);
      }
    }
  });

  it.runIf(hasLz4Cli)('decodes frames of the lz4 CLI: content checksum, block checksums, linked blocks, content size, many blocks, stored blocks', () => {
    const data = sampleText(300_000);
    const random = xorshiftBytes(70_000);
    for (const args of [[], ['-BX'], ['-BD', '--content-size'], ['-B4'], ['-B4', '-BD', '-BX', '--content-size'], ['-9']]) {
      const frame = lz4Cli(args, data);
      expect(firstDifference(decodeLz4Frame(frame, { maxSize: 1 << 20, expectedSize: data.length }), data), args.join(' ')).toBeUndefined();
    }
    expect(firstDifference(decodeLz4Frame(lz4Cli(['-B4'], random), { maxSize: 1 << 20 }), random)).toBeUndefined();
    // The cases above really cover linked blocks with every optional field, and stored blocks.
    const linked = readLz4FrameInfo(lz4Cli(['-B4', '-BD', '-BX', '--content-size'], data));
    expect([linked.independentBlocks, linked.blockChecksums, linked.contentChecksum, linked.contentSize, linked.blocks.length > 1]).toEqual([
      false,
      true,
      true,
      data.length,
      true,
    ]);
    expect(readLz4FrameInfo(lz4Cli(['-B4'], random)).blocks.some((b) => b.stored)).toBe(true);
  });

  it.runIf(hasLz4Cli)('writes frames the lz4 CLI decodes, and decodes its own frames, for any bytes', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 3000 }),
          fc.integer({ min: 0, max: 300_000 }).map((n) => sampleText(n)),
        ),
        (data) => {
          const frame = encodeLz4Frame(data);
          expect(firstDifference(decodeLz4Frame(frame, { maxSize: 1 << 20, expectedSize: data.length }), data)).toBeUndefined();
          const r = spawnSync('lz4', ['-d', '-c'], { input: frame, maxBuffer: 64 << 20 });
          expect(firstDifference(new Uint8Array(r.stdout), data)).toBeUndefined();
        },
      ),
      { numRuns: 25 },
    );
  });

  it('with view, gives the same bytes as a view of the decoder memory, and an owned copy without', () => {
    const data = sampleText(200_000);
    const frame = encodeLz4Frame(data);
    const view = decodeLz4Frame(frame, { maxSize: 1 << 20, expectedSize: data.length, view: true });
    expect(firstDifference(view, data)).toBeUndefined();
    const owned = decodeLz4Frame(frame, { maxSize: 1 << 20, expectedSize: data.length });
    expect(firstDifference(owned, data)).toBeUndefined();
    expect(owned.buffer).not.toBe(view.buffer);
    expect([owned.byteOffset, owned.buffer.byteLength]).toEqual([0, data.length]);
  });

  it('round-trips any bytes through the encoder, with blocks stored when they do not shrink', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 20_000 }), fc.integer({ min: 0, max: 5 }), (data, repeat) => {
        const input = new Uint8Array(data.length * (repeat + 1));
        for (let r = 0; r <= repeat; r++) input.set(data, r * data.length);
        expect(firstDifference(decodeLz4Frame(encodeLz4Frame(input), { maxSize: 1 << 20, expectedSize: input.length }), input)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('writes the header the reference writer writes: FLG 0x60, BD by input size, one block per chunk', () => {
    const small = readLz4FrameInfo(encodeLz4Frame(sampleText(65536)));
    const large = readLz4FrameInfo(encodeLz4Frame(sampleText(131072)));
    expect([small.flg, small.bd, small.headerChecksum, small.blocks.length]).toEqual([0x60, 0x40, 0x82, 1]);
    expect([large.flg, large.bd, large.headerChecksum, large.blocks.length]).toEqual([0x60, 0x50, 0xfb, 1]);
    expect(readLz4FrameInfo(encodeLz4Frame(Uint8Array.from({ length: 100 }, (_, i) => (i * 151) & 0xff))).blocks[0]!.stored).toBe(true);
  });
});

describe('LZ4 frame strictness: every defect is a located FormatError', () => {
  const data = sampleText(5000);
  const frame = encodeLz4Frame(data);
  const opts = { maxSize: 1 << 20, offset: 1000, field: 'payload' };

  it('a frame that decodes to a length other than expected', () => {
    expect(() => decodeLz4Frame(frame, { ...opts, expectedSize: data.length + 1 })).toThrow(
      expect.objectContaining({ code: 'corrupt', offset: 1000, message: expect.stringMatching(/decodes to 5000 bytes, 5001 expected/) }),
    );
    expect(() => decodeLz4Frame(frame, { ...opts, expectedSize: data.length - 1 })).toThrow(
      expect.objectContaining({ code: 'corrupt', message: expect.stringMatching(/more than the 4999 bytes expected/) }),
    );
  });

  it('bytes after the end mark', () => {
    const longer = Uint8Array.from([...frame, 0]);
    expect(() => decodeLz4Frame(longer, opts)).toThrow(
      expect.objectContaining({ code: 'corrupt', offset: 1000 + frame.length, field: 'payload trailing bytes' }),
    );
    // A second frame is trailing bytes too: xet's payload is exactly one frame.
    expect(() => decodeLz4Frame(Uint8Array.from([...frame, ...frame]), opts)).toThrow(expect.objectContaining({ field: 'payload trailing bytes' }));
  });

  it('a bad header checksum, magic, version or reserved bits', () => {
    const bad = (at: number, v: number) => Uint8Array.from(frame, (b, i) => (i === at ? v : b));
    expect(() => decodeLz4Frame(bad(6, frame[6]! ^ 1), opts)).toThrow(
      expect.objectContaining({ code: 'checksum', offset: 1006, field: 'payload header checksum' }),
    );
    expect(() => decodeLz4Frame(bad(0, 0x05), opts)).toThrow(expect.objectContaining({ code: 'corrupt', offset: 1000, field: 'payload frame magic' }));
    expect(() => decodeLz4Frame(bad(4, 0xa0), opts)).toThrow(expect.objectContaining({ code: 'unsupported', offset: 1004 }));
    expect(() => decodeLz4Frame(bad(5, 0x41), opts)).toThrow(expect.objectContaining({ code: 'corrupt', offset: 1005, field: 'payload BD' }));
  });

  it('a match offset before the start of the block (lz4_flex OffsetOutOfBounds)', () => {
    // token: 1 literal, match length 4; literal "A"; offset 2 but only 1 byte decoded.
    const block = Uint8Array.from([0x10, 0x41, 0x02, 0x00, 0x10, 0x42]);
    expect(() => decodeLz4Frame(frameAround(block), opts)).toThrow(expect.objectContaining({ code: 'out-of-range', offset: 1000 + 11 + 2 }));
    expect(() => decodeLz4Frame(frameAround(Uint8Array.from([0x10, 0x41, 0x00, 0x00, 0x10, 0x42])), opts)).toThrow(
      expect.objectContaining({ code: 'out-of-range' }),
    );
    // The same block with offset 1 is valid: "A" repeated 5 times, then "B".
    expect(new TextDecoder().decode(decodeLz4Frame(frameAround(Uint8Array.from([0x10, 0x41, 0x01, 0x00, 0x10, 0x42])), opts))).toBe('AAAAAB');
  });

  it('blocks that end early, literals past the block, and truncated frames', () => {
    expect(() => decodeLz4Frame(frameAround(Uint8Array.from([0x50, 0x41])), opts)).toThrow(
      expect.objectContaining({ code: 'corrupt', field: 'payload block data' }),
    );
    expect(() => decodeLz4Frame(frameAround(Uint8Array.from([0x10, 0x41, 0x01])), opts)).toThrow(expect.objectContaining({ code: 'truncated' }));
    for (let cut = 0; cut < frame.length; cut += 97) {
      expect(() => decodeLz4Frame(frame.subarray(0, cut), opts)).toThrow(expect.objectContaining({ name: 'FormatError' }));
    }
  });

  it('caps the output: a tiny frame that expands past maxSize stops with a limit error', () => {
    const bomb = encodeLz4Frame(new Uint8Array(4 << 20));
    expect(bomb.length).toBeLessThan(40_000);
    expect(() => decodeLz4Frame(bomb, { maxSize: 1 << 20 })).toThrow(expect.objectContaining({ code: 'limit' }));
    expect(() => decodeLz4Frame(bomb, { maxSize: 1 << 20, expectedSize: 4 << 20 })).toThrow(expect.objectContaining({ code: 'limit' }));
  });

  it('never throws anything but a FormatError on damaged frames', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: frame.length - 1 }), fc.integer({ min: 1, max: 255 }), (at, flip) => {
        const bad = Uint8Array.from(frame, (b, i) => (i === at ? b ^ flip : b));
        try {
          const out = decodeLz4Frame(bad, { maxSize: 1 << 20, expectedSize: data.length });
          expect(out).toHaveLength(data.length);
        } catch (e) {
          expect((e as Error).name).toBe('FormatError');
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('LZ4 in WebAssembly (wasm/lz4block.wat) and in TypeScript agree', () => {
  const decodeBoth = (frame: Uint8Array, opts: { maxSize: number; expectedSize?: number }) => {
    const wasm = lz4Decoders.wasm(frame, opts);
    let ts: Uint8Array | Error;
    try {
      ts = lz4Decoders.ts(frame, opts);
    } catch (e) {
      ts = e as Error;
    }
    return { wasm, ts };
  };

  it.runIf(hasLz4Cli)('the WebAssembly path decodes the lz4 CLI frames itself, byte for byte', () => {
    // Text with long and short matches, runs (offset 1), short periods (offsets 2 to 7) and noise.
    const text = sampleText(400_000, 11);
    const runs = Uint8Array.from({ length: 200_000 }, (_, i) => (i % 5000 < 3000 ? 0x41 : i % 7 === 0 ? i & 0xff : (i % 3) + 0x30));
    for (const data of [text, runs, xorshiftBytes(90_000, 3)]) {
      for (const args of [[], ['-BD'], ['-B4', '-BD', '-BX', '--content-size'], ['-1'], ['-9'], ['--fast=5']]) {
        const frame = lz4Cli(args, data);
        const got = lz4Decoders.wasm(frame, { maxSize: 1 << 20, expectedSize: data.length });
        expect(got, args.join(' ')).toBeDefined();
        expect(firstDifference(got!, data), args.join(' ')).toBeUndefined();
        expect(firstDifference(lz4Decoders.wasm(frame, { maxSize: 1 << 20 })!, data), args.join(' ')).toBeUndefined();
      }
    }
  });

  it('accepts exactly the frames the TypeScript decoder accepts, with the same bytes (damaged frames)', () => {
    const data = sampleText(70_000, 5);
    const frames = [encodeLz4Frame(data), ...(hasLz4Cli ? [lz4Cli(['-B4', '-BD'], data), lz4Cli(['-B4', '-BX', '--content-size'], data)] : [])];
    fc.assert(
      fc.property(fc.nat(frames.length - 1), fc.nat(), fc.integer({ min: 1, max: 255 }), fc.boolean(), (which, at0, flip, exact) => {
        const frame = frames[which]!;
        const at = at0 % frame.length;
        const bad = Uint8Array.from(frame, (b, i) => (i === at ? b ^ flip : b));
        const opts = exact ? { maxSize: 1 << 20, expectedSize: data.length } : { maxSize: 1 << 20 };
        const { wasm, ts } = decodeBoth(bad, opts);
        // Declining is always allowed (the TypeScript decoder then answers); accepting is only
        // allowed with the bytes the TypeScript decoder gives.
        if (wasm !== undefined) {
          expect(ts).toBeInstanceOf(Uint8Array);
          expect(firstDifference(wasm, ts as Uint8Array)).toBeUndefined();
        }
      }),
      { numRuns: 400 },
    );
  });

  it('random token streams: both decoders accept or refuse alike, independent and linked blocks', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 400 }), fc.boolean(), fc.integer({ min: 1, max: 5000 }), (block, linked, cap) => {
        const frame = frameAround(block);
        if (linked) frame[4] = 0x40; // FLG without the independence bit; fix the header checksum below
        frame[6] = (xxh32(frame, 0, 4, 6) >>> 8) & 0xff;
        const opts = { maxSize: cap };
        const { wasm, ts } = decodeBoth(frame, opts);
        if (ts instanceof Uint8Array) {
          expect(wasm).toBeDefined();
          expect(firstDifference(wasm!, ts)).toBeUndefined();
        } else expect(wasm).toBeUndefined();
      }),
      { numRuns: 3000 },
    );
  });
});
