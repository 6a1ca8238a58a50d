import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFixture } from '../../../../test/helpers/fixtures.js';
import { xzDecompressAll } from '../../codecs/xz/decode.js';
import { MemorySource } from '../../io/byteSource.js';
import type { Variant } from './model.js';
import { type SampleRun, jsonlSamples, selectSamples, streamSamples, writeJsonlSamples, writeStream } from './pipeline.js';
import { parseSelection } from './select.js';
import { MemorySink } from './testing.js';

async function encode(runs: AsyncIterable<SampleRun>, format: 'ben' | 'xben', variant: Variant): Promise<Uint8Array> {
  const sink = new MemorySink();
  await writeStream(runs, sink, { format, variant, preset: 6 });
  return sink.bytes();
}

async function toJsonl(bytes: Uint8Array, format: 'ben' | 'xben'): Promise<string> {
  const sink = new MemorySink();
  const src = new MemorySource(bytes);
  await writeJsonlSamples(streamSamples(src, { format, offset: 0, length: bytes.length }), sink, false);
  return sink.text();
}

const fromJsonl = (text: string | Uint8Array) => jsonlSamples(new MemorySource(typeof text === 'string' ? new TextEncoder().encode(text) : text));

const SOURCES = ['v1_source', 'grid4x4_chain', 'edge_small_example'];

describe('JSONL → BEN equals the reference writer byte for byte', () => {
  it.each(SOURCES.flatMap((s) => (['standard', 'mkv_chain'] as const).map((v) => [s, v] as const)))('%s → %s', async (source, variant) => {
    const out = await encode(fromJsonl(readFixture(`ben/${source}.jsonl`)), 'ben', variant);
    expect(out).toEqual(readFixture(`ben/${source}.${variant}.ben`));
  });

  it('TwoDelta: equals the independent implementation (snapshot, delta with count 2, snapshot for new id 3, delta)', async () => {
    const out = await encode(fromJsonl(readFixture('ben/independent/source_twodelta.jsonl')), 'ben', 'two_delta');
    expect(out).toEqual(readFixture('ben/independent/twodelta.ben'));
  });

  it('the spec example delta [1,1,2,2] → [1,2,2,2] is 01 0001 0002 02 00000001 70 0001', async () => {
    const out = await encode(fromJsonl('{"assignment":[1,1,2,2]}\n{"assignment":[1,2,2,2]}\n'), 'ben', 'two_delta');
    expect([...out.subarray(17 + 10)]).toEqual([0x01, 0x00, 0x01, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x01, 0x70, 0x00, 0x01]);
  });
});

describe('XBEN bodies', () => {
  it('TwoDelta body equals the independent body (full, chunk, full, chunk)', async () => {
    const xben = await encode(fromJsonl(readFixture('ben/independent/source_twodelta.jsonl')), 'xben', 'two_delta');
    expect(await xzDecompressAll(new MemorySource(xben), { maxOutput: 1 << 20 })).toEqual(readFixture('ben/independent/twodelta.xben.body'));
  });

  it.each(
    SOURCES.flatMap((s) => (['standard', 'mkv_chain'] as const).map((v) => [s, v] as const)).filter(
      ([s, v]) => s !== 'edge_small_example' || v === 'mkv_chain',
    ),
  )('%s %s: the BEN32 body equals the reference .xben body and the file is no more than 5 % larger', async (source, variant) => {
    const ref = readFixture(`ben/${source}.${variant}.xben`);
    const ours = await encode(fromJsonl(readFixture(`ben/${source}.jsonl`)), 'xben', variant);
    const body = (b: Uint8Array) => xzDecompressAll(new MemorySource(b), { maxOutput: 1 << 24 });
    expect(await body(ours)).toEqual(await body(ref));
    expect(ours.length).toBeLessThanOrEqual(ref.length * 1.05);
  });
});

/** Random ensembles: varying node counts, any district 0..65535, repeats, multi-district changes. */
const ensemble = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.array(fc.integer({ min: 0, max: 65535 }), { minLength: 0, maxLength: 40 }) },
      { weight: 3, arbitrary: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 40 }) },
      { weight: 1, arbitrary: fc.integer({ min: 65530, max: 70000 }).map((n) => Array.from({ length: n }, (_, i) => (i < 3 ? 7 : 0))) },
    ),
    { minLength: 1, maxLength: 12 },
  )
  .chain((plans) =>
    // Mutate some plans from the previous one so pair swaps, repeats and rotations all happen.
    fc.tuple(fc.constant(plans), fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 0, max: 3 })), { maxLength: 30 })).map(([ps, edits]) => {
      const out = ps.map((p) => [...p]);
      for (const [i, j, what] of edits) {
        const k = i % out.length;
        if (k === 0) continue;
        const prev = out[k - 1]!;
        if (what === 0)
          out[k] = [...prev]; // an exact repeat
        else if (prev.length > 1) {
          const next = [...prev];
          const a = j % prev.length;
          const b = (j * 7 + 3) % prev.length;
          [next[a], next[b]] = [next[b]!, next[a]!]; // a pair swap
          out[k] = next;
        }
      }
      return out;
    }),
  );

const asJsonl = (plans: number[][]) => plans.map((a, i) => `{"assignment":[${a.join(',')}],"sample":${i + 1}}\n`).join('');

describe('round trips JSONL → BEN/XBEN → JSONL are identical', () => {
  it.each(['standard', 'mkv_chain', 'two_delta'] as const)('%s, .ben and .xben, random ensembles', async (variant) => {
    await fc.assert(
      fc.asyncProperty(ensemble, async (plans) => {
        const text = asJsonl(plans);
        for (const format of ['ben', 'xben'] as const) expect(await toJsonl(await encode(fromJsonl(text), format, variant), format)).toBe(text);
      }),
      { numRuns: 25 },
    );
  });

  it('65536 repeats of one plan: MkvChain writes the frame again, TwoDelta a no-op delta', async () => {
    const plan = { values: Uint16Array.of(4, 9), lengths: Uint16Array.of(2, 3), runs: 2, nodes: 5 };
    async function* many(): AsyncGenerator<SampleRun> {
      yield { plan, count: 70000, firstSample: 1 };
    }
    for (const variant of ['mkv_chain', 'two_delta'] as const) {
      const ben = await encode(many(), 'ben', variant);
      const text = await toJsonl(ben, 'ben');
      expect(text.split('\n').length - 1).toBe(70000);
      expect(text.split('\n')[69999]).toBe('{"assignment":[4,4,9,9,9],"sample":70000}');
    }
    const twoDelta = await encode(many(), 'ben', 'two_delta');
    expect(twoDelta[17 + 11]).toBe(1); // the second frame is a delta
  });

  it('every BEN fixture converts between variants and back to the same JSONL', async () => {
    for (const source of SOURCES) {
      const truth = new TextDecoder().decode(readFixture(`ben/${source}.jsonl`));
      const ben = readFixture(`ben/${source}.mkv_chain.ben`);
      for (const variant of ['standard', 'mkv_chain', 'two_delta'] as const) {
        for (const format of ['ben', 'xben'] as const) {
          const out = await encode(streamSamples(new MemorySource(ben), { format: 'ben', offset: 0, length: ben.length }), format, variant);
          expect(await toJsonl(out, format)).toBe(truth);
        }
      }
    }
  });
});

describe('subsampling', () => {
  const text = new TextDecoder().decode(readFixture('ben/grid4x4_chain.jsonl'));
  const lines = text.split('\n').slice(0, -1);
  const assignments = (l: readonly string[]) => l.map((x) => x.replace(/,"sample":\d+}$/, ''));
  const pick = async (sel: string) => {
    const ben = readFixture('ben/grid4x4_chain.mkv_chain.ben');
    const sink = new MemorySink();
    await writeJsonlSamples(
      selectSamples(streamSamples(new MemorySource(ben), { format: 'ben', offset: 0, length: ben.length }), parseSelection(sel)),
      sink,
      false,
    );
    return sink.text().split('\n').slice(0, -1);
  };
  it('every 5th, a half-open range and a list keep exactly those samples across repeat counts', async () => {
    expect(assignments(await pick('every 5'))).toEqual(assignments(lines.filter((_, i) => i % 5 === 0)));
    expect(assignments(await pick('every 4 from 2'))).toEqual(assignments(lines.filter((_, i) => i >= 2 && (i - 2) % 4 === 0)));
    expect(assignments(await pick('47, 0, 13, 13'))).toEqual(assignments([lines[0]!, lines[13]!, lines[47]!]));
    // A range keeps the original sample numbers, even from inside a repeated frame (samples 23 and 24 are one frame, count 2).
    expect(await pick('10..20')).toEqual(lines.slice(10, 20));
    expect(await pick('23..25')).toEqual(lines.slice(23, 25));
  });
});

describe('plan equality', () => {
  it('compares node by node whatever the run split', async () => {
    const { samePlan } = await import('./plan.js');
    const p = (values: number[], lengths: number[]) => ({
      values: Uint16Array.from(values),
      lengths: Uint16Array.from(lengths),
      runs: values.length,
      nodes: lengths.reduce((x, y) => x + y, 0),
    });
    expect(samePlan(p([1, 1, 2], [3, 2, 4]), p([1, 2], [5, 4]))).toBe(true);
    expect(samePlan(p([1, 2], [5, 4]), p([1, 2], [4, 5]))).toBe(false);
    expect(samePlan(p([1, 2], [5, 4]), p([1, 3], [5, 4]))).toBe(false);
    expect(samePlan(p([], []), p([], []))).toBe(true);
  });
});
