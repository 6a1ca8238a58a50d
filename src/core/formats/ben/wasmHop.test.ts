import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_EVERY, WalkState, hopFrames } from './headerWalk.js';
import type { Variant } from './model.js';
import { wasmMemory } from '../../codecs/wasm/module.js';
import { Hopper, releaseHopper, takeHopper } from './wasmHop.js';

/**
 * The WebAssembly hop must be `hopFrames` exactly: same answer, same place, same samples, same
 * TwoDelta anchor, same checkpoints, on valid streams and on damaged ones (bad tags, bits, zero
 * counts, lengths past the end, cut headers), at any piece boundary and any stop.
 */
interface Frame {
  readonly tag: number;
  readonly vbits: number;
  readonly lbits: number;
  readonly payload: number;
  readonly count: number;
}

const frameArb = fc.record({
  // Mostly valid: a snapshot (0) or delta (1); now and then a tag no frame has.
  tag: fc.oneof({ weight: 12, arbitrary: fc.constantFrom(0, 1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 255 }) }),
  vbits: fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 1, max: 16 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 17, 255) }),
  lbits: fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 1, max: 16 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 17, 200) }),
  payload: fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 0, max: 40 }) }, { weight: 1, arbitrary: fc.constantFrom(300, 0xffffffff, 0x80000000) }),
  count: fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 1, max: 70_000 }) }, { weight: 1, arbitrary: fc.constant(0) }),
});

/** The stream's bytes (spec §3, §4): payloads are filler, and a length past the end stays as written. */
function layout(variant: Variant, frames: readonly Frame[]): Uint8Array {
  const out: number[] = [];
  const u32 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  for (const f of frames) {
    if (variant === 'two_delta') out.push(f.tag);
    if (variant === 'two_delta' && f.tag === 1) out.push(0, 1, 0, 2, f.lbits, ...u32(f.payload));
    else out.push(f.vbits, f.lbits, ...u32(f.payload));
    for (let i = 0; i < Math.min(f.payload, 64); i++) out.push(0x5a);
    if (variant !== 'standard') out.push(f.count >> 8, f.count & 255);
  }
  return Uint8Array.from(out);
}

interface Outcome {
  hops: { result: number; index: number; offset: number; firstSample: number; anchor: unknown }[];
  checkpoints: { index: number; offset: number; firstSample: number }[];
}

type Hop = typeof hopFrames;

/** Hops over `bytes` piece by piece (each piece from where the last hop stood, as FrameIndex reads), until a stop, the end or a frame left over. */
function walk(
  hop: Hop,
  variant: Variant,
  bytes: Uint8Array,
  start: { index: number; sample: number },
  piece: number,
  stopIndex: number,
  stopSample: number,
): Outcome {
  const base = 100;
  const s = new WalkState({ index: start.index, offset: base, firstSample: start.sample });
  const out: Outcome = { hops: [], checkpoints: [] };
  const end = base + bytes.length;
  for (let guard = 0; guard < 10_000; guard++) {
    const from = s.offset - base;
    const buf = bytes.slice(from, from + piece);
    const result = hop(buf, s.offset, variant, s, end, stopIndex, stopSample, (w) =>
      out.checkpoints.push({ index: w.index, offset: w.offset, firstSample: w.firstSample }),
    );
    const { anchor, ...at } = s.position();
    out.hops.push({ result, ...at, anchor });
    // Refill only while the walk moved on; else FrameIndex would hand the frame to readFrame.
    if (result !== 2 || s.offset - base === from || s.offset >= end) break;
  }
  return out;
}

describe('the WebAssembly frame header hop', () => {
  const hopper = Hopper.create(1 << 16)!;
  const wasm: Hop = hopper.hopFrames;

  it('answers as hopFrames does on random and damaged streams, at any piece size, start and stop', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Variant>('standard', 'mkv_chain', 'two_delta'),
        fc.array(frameArb, { maxLength: 60 }),
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom(0, 1, CHECKPOINT_EVERY - 3, 5 * CHECKPOINT_EVERY - 1),
        fc.oneof(fc.constant(Infinity), fc.integer({ min: 0, max: 6 * CHECKPOINT_EVERY })),
        fc.oneof(fc.constant(Infinity), fc.integer({ min: 0, max: 2_000_000 })),
        (variant, frames, piece, index, stopIndex, stopSample) => {
          const bytes = layout(variant, frames);
          const start = { index, sample: 1 + index * 3 };
          expect(walk(wasm, variant, bytes, start, piece, stopIndex, stopSample)).toEqual(walk(hopFrames, variant, bytes, start, piece, stopIndex, stopSample));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('answers as hopFrames does on random bytes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Variant>('standard', 'mkv_chain', 'two_delta'),
        fc.uint8Array({ maxLength: 300 }),
        fc.integer({ min: 1, max: 300 }),
        (variant, bytes, piece) => {
          const start = { index: 0, sample: 1 };
          expect(walk(wasm, variant, bytes, start, piece, Infinity, Infinity)).toEqual(walk(hopFrames, variant, bytes, start, piece, Infinity, Infinity));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('records a checkpoint at every multiple of 1024 frames, across many checkpoints in one piece', () => {
    const frames = Array.from({ length: 5000 }, (_, i) => ({ tag: i % 7 === 0 ? 0 : 1, vbits: 3, lbits: 4, payload: i % 13, count: 1 + (i % 3) }));
    for (const variant of ['standard', 'mkv_chain', 'two_delta'] as const) {
      const bytes = layout(variant, frames);
      const got = walk(wasm, variant, bytes, { index: 0, sample: 1 }, bytes.length, Infinity, Infinity);
      expect(got.checkpoints.map((c) => c.index)).toEqual([1024, 2048, 3072, 4096]);
      expect(got).toEqual(walk(hopFrames, variant, bytes, { index: 0, sample: 1 }, bytes.length, Infinity, Infinity));
    }
  });

  it('hops over a piece read into its own memory without copying it, with the same answer', () => {
    const frames = Array.from({ length: 3000 }, (_, i) => ({ tag: 0, vbits: 2, lbits: 2, payload: 20 + (i % 40), count: 1 + (i % 4) }));
    const bytes = layout('mkv_chain', frames);
    const big = Hopper.create(1 << 20)!;
    const view = big.view(bytes.length);
    view.set(bytes);
    const run = (hop: Hop, buf: Uint8Array) => {
      const s = new WalkState({ index: 0, offset: 0, firstSample: 1 });
      return { r: hop(buf, 0, 'mkv_chain', s, bytes.length, Infinity, 5000, () => undefined), at: s.position() };
    };
    expect(run(big.hopFrames, view)).toEqual(run(hopFrames, bytes));
  });

  it('keeps the memory of hoppers no walk holds in the memory budget, which can let it go', () => {
    wasmMemory.drop();
    const before = wasmMemory.bytes();
    const h = takeHopper(1 << 20)!;
    expect(wasmMemory.bytes()).toBe(before);
    releaseHopper(h);
    expect(wasmMemory.bytes()).toBe(before + h.bytes);
    expect(h.bytes).toBeGreaterThan(1 << 20);
    wasmMemory.drop();
    expect(wasmMemory.bytes()).toBe(before);
    expect(takeHopper(1 << 20)).not.toBe(h);
  });
});
