import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { BEN_STREAMS } from '../../../../test/helpers/benFixtures.js';
import { fixture, readFixture } from '../../../../test/helpers/fixtures.js';
import { MemorySource } from '../../io/byteSource.js';
import { JsonlWriter } from './jsonl.js';
import { readFrames, type StreamLocation } from './stream.js';
import { MemorySink } from './testing.js';

async function jsonl(path: string): Promise<{ text: string; error?: unknown }> {
  const bytes = readFixture(path);
  const loc: StreamLocation = { format: path.endsWith('.xben') ? 'xben' : 'ben', offset: 0, length: bytes.length };
  const sink = new MemorySink();
  const w = new JsonlWriter(sink);
  let error: unknown;
  try {
    const { frames } = await readFrames(new MemorySource(bytes), loc);
    for await (const f of frames) await w.write(f.plan, f.firstSample, f.count);
  } catch (e) {
    error = e;
  }
  await w.flush();
  return { text: sink.text(), error };
}

const truth = (path: string) => readFileSync(fixture(path), 'utf8');

describe('decoding to the reference JSONL', () => {
  it.each(BEN_STREAMS)('%s decodes byte for byte to %s', async (file, expected) => {
    const { text, error } = await jsonl(file);
    expect(error).toBeUndefined();
    expect(text).toBe(truth(expected));
  });

  it('truncated .ben: the 47 good samples the reference prints, then a located truncation in frame 47', async () => {
    const { text, error } = await jsonl('ben/negative/trunc_midframe.standard.ben');
    expect(text).toBe(truth('ben/negative/trunc_midframe.standard.partial.jsonl'));
    expect(error).toMatchObject({ code: 'truncated', offset: 617, field: 'frame 47 payload' });
  });

  it('truncated .xben: all 48 samples, then the missing index and footer', async () => {
    const { text, error } = await jsonl('ben/negative/trunc.mkv_chain.xben');
    expect(text).toBe(truth('ben/negative/trunc.mkv_chain.partial.jsonl'));
    expect(error).toMatchObject({ code: 'truncated', field: 'xz data' });
  });

  it('rejects count 0 at its offset (the reference v0.3.0 silently dropped the frame)', async () => {
    const { text, error } = await jsonl('ben/negative/zero_count.mkv_chain.ben');
    expect(text).toBe('');
    expect(error).toMatchObject({ code: 'corrupt', offset: 24, field: 'frame 0 count' });
  });

  it('rejects the unknown banner at offset 0 and the corrupt LZMA2 data', async () => {
    expect((await jsonl('ben/negative/bad_banner.standard.ben')).error).toMatchObject({ code: 'bad-magic', offset: 0, field: 'banner' });
    expect((await jsonl('ben/negative/flipped_byte.mkv_chain.xben')).error).toMatchObject({ code: 'corrupt', field: 'xz data' });
  });
});

describe('XBEN frame extents in the decompressed body', () => {
  const xbens = BEN_STREAMS.map(([file]) => file).filter((file) => file.endsWith('.xben'));
  it.each(xbens)('%s: a full frame spans its tag, runs and count; BEN32 frames follow each other', async (file) => {
    const bytes = readFixture(file);
    const { frames } = await readFrames(new MemorySource(bytes), { format: 'xben', offset: 0, length: bytes.length });
    let previousEnd: number | undefined;
    for await (const f of frames) {
      if (f.kind === 'snapshot') expect(f.length).toBe(1 + 4 + 4 * f.plan.runs + 2);
      if (f.kind === 'frame') {
        if (previousEnd !== undefined) expect(f.offset).toBe(previousEnd);
        previousEnd = f.offset + f.length;
      }
    }
  });
});
