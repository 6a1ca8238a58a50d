import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/byteSource.js';
import { FrameIndex } from './frameIndex.js';
import type { Variant } from './model.js';

/**
 * Streams built byte by byte here (spec §3, §4), not by our encoder: the frame headers walk only
 * reads tags, bit widths, n_bytes and counts, so payloads are filler and every expected offset,
 * frame and sample number comes from how the bytes were laid out.
 */
interface Built {
  readonly bytes: Uint8Array;
  /** Per frame: absolute offset, repeat count, 1-based first sample, TwoDelta kind. */
  readonly frames: { offset: number; count: number; firstSample: number; snapshot: boolean }[];
  readonly samples: number;
}

const BANNER: Record<Variant, string> = { standard: 'STANDARD BEN FILE', mkv_chain: 'MKVCHAIN BEN FILE', two_delta: 'TWODELTA BEN FILE' };

function build(variant: Variant, frames: readonly { payload: number; count?: number; delta?: boolean }[]): Built {
  const parts: number[][] = [Array.from(Buffer.from(BANNER[variant], 'latin1'))];
  let offset = 17;
  let sample = 1;
  const out: Built['frames'] = [];
  const u32 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  for (const f of frames) {
    const count = variant === 'standard' ? 1 : (f.count ?? 1);
    const head: number[] = [];
    if (variant === 'two_delta') head.push(f.delta ? 1 : 0);
    if (f.delta) head.push(0, 1, 0, 2, 7, ...u32(f.payload));
    else head.push(5, 7, ...u32(f.payload));
    const tail = variant === 'standard' ? [] : [count >> 8, count & 255];
    parts.push(head, new Array<number>(f.payload).fill(0xa5), tail);
    out.push({ offset, count, firstSample: sample, snapshot: !f.delta });
    offset += head.length + f.payload + tail.length;
    sample += count;
  }
  const bytes = new Uint8Array(offset);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { bytes, frames: out, samples: sample - 1 };
}

/** A file-like source: reads into the caller's buffer, and counts them. */
class CountingSource extends MemorySource {
  reads = 0;
  override read(offset: number, length: number): Promise<Uint8Array> {
    this.reads++;
    return super.read(offset, length);
  }
  readInto(offset: number, target: Uint8Array): Promise<void> {
    this.reads++;
    target.set(this.readSync(offset, target.length));
    return Promise.resolve();
  }
}

/** Small frames with counts 1..5, some of 100 KiB (past the read-ahead overlap) and one of 5 MiB (past any read). */
function mixed(n: number): { payload: number; count: number }[] {
  let seed = 7;
  const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  return Array.from({ length: n }, (_, i) => ({
    payload: i === n / 2 ? 5 << 20 : i % 9973 === 17 ? 100 << 10 : rnd() % 300,
    count: 1 + (rnd() % 5),
  }));
}

/** A local file's kind of source: it also reads at once into the caller's buffer, and the walk must use that. */
class SyncCountingSource extends CountingSource {
  override readInto(): Promise<void> {
    throw new Error('a walk over a source that reads at once reads no piece ahead');
  }
  readIntoSync(offset: number, target: Uint8Array): void {
    this.reads++;
    target.set(this.readSync(offset, target.length));
  }
}

const open = (b: Built, variant: Variant, Source: typeof CountingSource = CountingSource) => {
  const src = new Source(b.bytes);
  return { src, index: new FrameIndex(src, variant, { index: 0, offset: 17, firstSample: 1 }) };
};

describe.each([
  ['pieces read ahead', CountingSource],
  ['pieces read at once into one buffer', SyncCountingSource],
])('FrameIndex over %s', (_, Source) => {
  const variant = 'mkv_chain';
  const b = build(variant, mixed(60_000));

  it('counts every frame and sample of a stream whose frames cross every read boundary, in a few large reads', async () => {
    const { src, index } = open(b, variant, Source);
    await index.scanToEnd({});
    expect(index.known).toEqual({ frames: 60_000, samples: b.samples, complete: true, error: undefined });
    // Not a read per frame: 17 MB in pieces of up to 1 MiB, plus the 5 MiB frame read on its own.
    expect(src.reads).toBeLessThan(40);
  });

  it('finds the frame of a sample anywhere, from a fresh index and from one that has walked further', async () => {
    const { index } = open(b, variant, Source);
    const probe = [0, 1, 2, 5000, b.frames[30_000]!.firstSample - 1, b.frames[30_000]!.firstSample, b.samples - 1];
    for (const k of [...probe, ...probe.reverse()]) {
      const hit = await index.frameOfSample(k);
      const i = b.frames.findIndex((f) => f.firstSample - 1 <= k && k < f.firstSample - 1 + f.count);
      expect({ k, index: hit?.frame.index, offset: hit?.at.offset, count: hit?.frame.count }).toEqual({
        k,
        index: i,
        offset: b.frames[i]!.offset,
        count: b.frames[i]!.count,
      });
    }
    expect(await index.frameOfSample(b.samples)).toBeUndefined();
    expect(index.known.complete).toBe(true);
  });
});

describe('FrameIndex: the frame header walk', () => {
  const variant = 'mkv_chain';
  const b = build(variant, mixed(60_000));

  it('finds the frame of the first sample of a checkpoint from its header alone, reading no piece to walk', async () => {
    const longest: number[] = [];
    class Measured extends CountingSource {
      override readInto(offset: number, target: Uint8Array): Promise<void> {
        longest.push(target.length);
        return super.readInto(offset, target);
      }
      override read(offset: number, length: number): Promise<Uint8Array> {
        longest.push(length);
        return super.read(offset, length);
      }
    }
    const { index } = open(b, variant, Measured);
    const hit = await index.frameOfSample(0);
    expect([hit?.frame.index, hit?.at.offset, hit?.frame.count]).toEqual([0, b.frames[0]!.offset, b.frames[0]!.count]);
    expect(Math.max(...longest)).toBeLessThan(64);
    // Past the end of an empty stream there is no frame to read.
    const empty = build(variant, []);
    expect(await open(empty, variant).index.frameOfSample(0)).toBeUndefined();
  });

  it('pages the frames at any position with their offsets and first samples', async () => {
    const { index } = open(b, variant);
    for (const from of [59_990, 0, 29_999, 1023, 1024]) {
      const page = await index.frames(from, 20);
      const want = b.frames.slice(from, from + 20);
      expect(page.map((f) => [f.index, f.offset, f.count, f.firstSample])).toEqual(want.map((f, i) => [from + i, f.offset, f.count, f.firstSample]));
    }
  });

  it('stops at a bad frame header far into the stream with the error readFrame names: its field and offset', async () => {
    const bad = b.bytes.slice();
    bad[b.frames[40_000]!.offset] = 0; // vbits 0
    const { index } = open({ ...b, bytes: bad }, variant);
    await index.scanToEnd({});
    expect(index.known.frames).toBe(40_000);
    expect(index.known.samples).toBe(b.frames[40_000]!.firstSample - 1);
    expect(index.known.error).toMatchObject({ code: 'corrupt', field: 'frame 40000 vbits', offset: b.frames[40_000]!.offset });
  });

  it('names the frame that runs past the end of a cut stream', async () => {
    const last = b.frames.at(-1)!;
    const cut = b.bytes.subarray(0, last.offset + 3);
    const { index } = open({ ...b, bytes: cut }, variant);
    await index.scanToEnd({});
    expect(index.known.frames).toBe(59_999);
    expect(index.known.error).toMatchObject({ code: 'truncated', field: 'frame 59999 n_bytes', offset: last.offset + 2 });
  });

  it('gives a TwoDelta sample the latest snapshot before its frame, where decoding starts', async () => {
    const frames = Array.from({ length: 5000 }, (_, i) => ({ payload: (i * 37) % 200, count: 1 + (i % 3), delta: i % 700 !== 0 }));
    const t = build('two_delta', frames);
    const { index } = open(t, 'two_delta');
    for (const i of [4999, 1, 700, 701, 2100, 3499]) {
      const hit = await index.frameOfSample(t.frames[i]!.firstSample - 1);
      const snapshot = Math.floor((i - 1) / 700) * 700;
      expect([hit?.frame.index, hit?.frame.kind, hit?.at.anchor?.offset]).toEqual([
        i,
        i % 700 ? 'delta' : 'snapshot',
        t.frames[i % 700 ? Math.floor(i / 700) * 700 : snapshot]!.offset,
      ]);
    }
    await index.scanToEnd({});
    expect(index.known).toMatchObject({ frames: 5000, samples: t.samples, complete: true });
  });
});

describe('FrameIndex: saved between opens', () => {
  const variant = 'mkv_chain';
  const b = build(variant, mixed(60_000));
  const walked = async (bytes = b.bytes, v: Variant = variant) => {
    const { index } = open({ ...b, bytes }, v);
    await index.scanToEnd({});
    return index;
  };

  it('a restored index reaches the last sample with a few reads and finds the frame the layout put there', async () => {
    const saved = (await walked()).save()!;
    // 59 checkpoints of six f64 each, plus the frontier and a 20-byte head.
    expect(saved.length).toBe(20 + 48 * 60);
    const { src, index } = open(b, variant);
    expect(index.restore(saved)).toBe(true);
    expect(index.known).toEqual({ frames: 60_000, samples: b.samples, complete: true, error: undefined });
    const hit = await index.frameOfSample(b.samples - 1);
    expect([hit?.frame.index, hit?.at.offset]).toEqual([59_999, b.frames[59_999]!.offset]);
    // The 607 frame headers after the last checkpoint (two read-ahead pieces), then the frame; a
    // fresh index reads all 17 MB in dozens of pieces first.
    expect(src.reads).toBeLessThanOrEqual(4);
    const page = await index.frames(30_000, 3);
    expect(page.map((f) => f.offset)).toEqual(b.frames.slice(30_000, 30_003).map((f) => f.offset));
  });

  it('keeps TwoDelta snapshot anchors: a delta restored far from its snapshot still starts there', async () => {
    const frames = Array.from({ length: 5000 }, (_, i) => ({ payload: (i * 37) % 200, count: 1 + (i % 3), delta: i % 700 !== 0 }));
    const t = build('two_delta', frames);
    const first = open(t, 'two_delta').index;
    await first.scanToEnd({});
    const { index } = open(t, 'two_delta');
    expect(index.restore(first.save()!)).toBe(true);
    const hit = await index.frameOfSample(t.frames[4099]!.firstSample - 1);
    expect([hit?.frame.index, hit?.at.anchor?.offset]).toEqual([4099, t.frames[3500]!.offset]);
  });

  it('a walk that stopped at damage saves what came before it, not the failure: the next open finds it again', async () => {
    const bad = b.bytes.slice();
    bad[b.frames[40_000]!.offset] = 0;
    const saved = (await walked(bad)).save()!;
    const { index } = open({ ...b, bytes: bad }, variant);
    expect(index.restore(saved)).toBe(true);
    expect(index.known).toMatchObject({ frames: 40_000, complete: false });
    await index.scanToEnd({});
    expect(index.known.error).toMatchObject({ field: 'frame 40000 vbits', offset: b.frames[40_000]!.offset });
  });

  it('saved bytes that do not describe this stream are refused and change nothing', async () => {
    const saved = (await walked()).save()!;
    const f64 = (bytes: Uint8Array, at: number, n: number) => {
      const copy = bytes.slice();
      new DataView(copy.buffer).setFloat64(at, n, true);
      return copy;
    };
    const cp = (i: number) => 20 + 48 * (1 + i);
    const refused = [
      saved.subarray(0, saved.length - 1), // cut short
      f64(saved, 8, b.bytes.length + 1), // another stream end
      f64(saved, cp(5) + 8, b.frames[4 * 1024 - 1]!.offset), // a checkpoint behind the one before
      f64(saved, cp(3), 3 * 1024 + 1), // a checkpoint not at a multiple of 1024 frames
      f64(saved, cp(0) + 8, 18), // not the stream's start
      f64(saved, 20 + 8, b.bytes.length - 1), // complete, but the frontier stops short of the end
      f64(saved, cp(7) + 8, 2 ** 60), // past the stream
      Uint8Array.from(Buffer.from('not an index')),
    ];
    for (const [i, bytes] of refused.entries()) {
      const { index } = open(b, variant);
      expect([i, index.restore(bytes)]).toEqual([i, false]);
      expect(index.known).toMatchObject({ frames: 0, complete: false });
    }
    const { index: other } = open(b, 'standard');
    expect(other.restore(saved)).toBe(false);
  });

  it('keeps a walk that went further than the saved one, and saves nothing before the first checkpoint', async () => {
    const short = open(b, variant).index;
    await short.frames(0, 10);
    expect(short.save()).toBeUndefined();
    await short.frames(2000, 1);
    const partial = short.save()!;
    const full = await walked();
    expect(full.restore(partial)).toBe(false);
    expect(full.known.complete).toBe(true);
  });
});
