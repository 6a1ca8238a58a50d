import { describe, expect, it } from 'vitest';
import { deflateRaw } from '../../codecs/deflate.js';
import { MemorySource } from '../../io/byteSource.js';
import { frame, readFrameHeader } from './frames.js';
import { readDictionary } from './payloads.js';

describe('Bindu frame payloads', () => {
  const dict = Uint8Array.of(7, 1, 0, 2, 1, 0x61, 2, 0x62, 0x63); // id 7, VALUES, per-file, ["a", "bc"]

  it('reads a COMPRESSED Dictionary frame (codec, raw length, raw DEFLATE) like a plain one', async () => {
    const packed = deflateRaw(dict);
    const payload = Uint8Array.from([0x22, dict.length, 0, 0, 0, 0, 0, 0, 0, ...packed]);
    for (const [flags, body] of [
      [0, dict],
      [2, payload],
    ] as const) {
      const src = new MemorySource(frame(0x03, flags, body));
      const d = await readDictionary(src, await readFrameHeader(src, 0));
      expect([d.id, d.kind, d.origin, d.entries!.map((e) => new TextDecoder().decode(e))]).toEqual([7, 1, 0, ['a', 'bc']]);
    }
  });

  it('rejects a raw length that disagrees with the data, and COMPRESSED on a Column frame', async () => {
    const bad = Uint8Array.from([0x22, dict.length + 1, 0, 0, 0, 0, 0, 0, 0, ...deflateRaw(dict)]);
    const src = new MemorySource(frame(0x03, 2, bad));
    await expect(readDictionary(src, await readFrameHeader(src, 0))).rejects.toMatchObject({ code: 'corrupt', field: 'raw length', offset: 13 });
    const { readColumn } = await import('./payloads.js');
    const col = new MemorySource(frame(0x04, 2, Uint8Array.of(0)));
    await expect(readColumn(col, await readFrameHeader(col, 0))).rejects.toMatchObject({ field: 'frame flags', offset: 2 });
  });
});
