import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { MemorySource } from '../../io/byteSource.js';
import { FrameIndex } from './frameIndex.js';
import type { Variant } from './model.js';

/** Whether walks get the WebAssembly hop; off, they take the TypeScript `hopFrames`, the walk as it was before it. */
const wasm = vi.hoisted(() => ({ on: true }));
vi.mock('./wasmHop.js', async (original) => {
  const m = await original<typeof import('./wasmHop.js')>();
  return { ...m, takeHopper: (capacity: number) => (wasm.on ? m.takeHopper(capacity) : null) };
});

/** A local file's kind of source: pieces are read at once into the buffer the walk hands over (the hop's own memory). */
class SyncSource extends MemorySource {
  readIntoSync(offset: number, target: Uint8Array): void {
    target.set(this.readSync(offset, target.length));
  }
}

const BANNER: Record<Variant, string> = { standard: 'STANDARD BEN FILE', mkv_chain: 'MKVCHAIN BEN FILE', two_delta: 'TWODELTA BEN FILE' };

/** Valid frames (a delta now and then in TwoDelta, never first), laid out by hand (spec §3, §4); payloads are filler. */
function stream(variant: Variant, frames: readonly { payload: number; count: number; delta: boolean }[]): { bytes: Uint8Array; ends: number[] } {
  const out: number[] = [...Buffer.from(BANNER[variant], 'latin1')];
  const ends: number[] = [];
  const u32 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  frames.forEach((f, i) => {
    const delta = variant === 'two_delta' && f.delta && i > 0;
    if (variant === 'two_delta') out.push(delta ? 1 : 0);
    out.push(...(delta ? [0, 1, 0, 2, 5] : [3, 5]), ...u32(f.payload));
    for (let j = 0; j < f.payload; j++) out.push(0x33);
    if (variant !== 'standard') out.push(f.count >> 8, f.count & 255);
    ends.push(out.length);
  });
  return { bytes: Uint8Array.from(out), ends };
}

/** What a viewer and the CLI learn from an index: the count, the error with its place, pages and the frames of samples. */
async function observe(Source: typeof MemorySource, variant: Variant, bytes: Uint8Array, probes: readonly number[], on: boolean): Promise<unknown> {
  wasm.on = on;
  try {
    const start = { index: 0, offset: 17, firstSample: 1 };
    const seen: unknown[] = [];
    const fresh = new FrameIndex(new Source(bytes), variant, start);
    for (const k of probes) {
      const hit = await fresh.frameOfSample(k);
      seen.push(hit && { index: hit.frame.index, offset: hit.at.offset, anchor: hit.at.anchor?.offset, first: hit.frame.firstSample });
    }
    seen.push((await fresh.frames(probes[0] ?? 0, 3)).map((f) => [f.index, f.offset, f.count]));
    const whole = new FrameIndex(new Source(bytes), variant, start);
    await whole.scanToEnd({});
    const { error, ...known } = whole.known;
    seen.push(known, error && { code: error.code, field: error.field, offset: error.offset, detail: error.detail }, whole.save());
    return seen;
  } finally {
    wasm.on = true;
  }
}

describe('FrameIndex with the WebAssembly hop', () => {
  it('counts, pages, seeks, saves and fails exactly as the TypeScript walk on random streams, damaged or cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Variant>('standard', 'mkv_chain', 'two_delta'),
        fc.array(fc.record({ payload: fc.integer({ min: 0, max: 120 }), count: fc.integer({ min: 1, max: 4 }), delta: fc.boolean() }), {
          minLength: 1,
          maxLength: 3000,
          size: 'max',
        }),
        // Bytes changed near a frame's start or end, where the tag, bits, length and count lie, to values the walk must refuse or take.
        fc.array(
          fc.record({
            frame: fc.oneof(fc.constant(0), fc.nat()),
            at: fc.constantFrom(-2, -1, 0, 1, 2, 5),
            value: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(0, 1, 16, 17, 255) }, { weight: 1, arbitrary: fc.nat(255) }),
          }),
          { maxLength: 3 },
        ),
        fc.option(fc.nat()),
        fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (variant, frames, flips, cutAt, where, sync) => {
          // The first and last sample of frames anywhere in the stream, and samples past its end.
          const firsts = [0];
          for (const f of frames) firsts.push(firsts.at(-1)! + (variant === 'standard' ? 1 : f.count));
          const probes = where.flatMap((x) => {
            const j = x % (frames.length + 1);
            return [firsts[Math.min(j, frames.length)]!, (firsts[j + 1] ?? firsts.at(-1)! + 5) - 1];
          });
          let { bytes, ends } = stream(variant, frames);
          for (const f of flips) {
            const end = ends[f.frame % ends.length]!;
            const at = f.at < 0 ? end + f.at : (ends[(f.frame % ends.length) - 1] ?? 17) + f.at;
            if (at < bytes.length) bytes[at] = f.value;
          }
          if (cutAt !== null) bytes = bytes.subarray(0, 17 + (cutAt % (bytes.length - 17)));
          const Source = sync ? SyncSource : MemorySource;
          expect(await observe(Source, variant, bytes, probes, true)).toEqual(await observe(Source, variant, bytes, probes, false));
        },
      ),
      { numRuns: 100 },
    );
  });
});
