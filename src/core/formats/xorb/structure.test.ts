import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/byteSource.js';
import type { Check } from '../../model.js';
import { readFixture, readJson } from '../../../../test/helpers/fixtures.js';
import { hashFromString, hashToString } from './hash.js';
import { xorbHandler } from './handler.js';

const POSITIVE = ['01_none_only', '02_lz4_text', '03_bg4_float32', '05_single_chunk'];

async function open(path: string) {
  return xorbHandler.open(new MemorySource(readFixture(path)), {});
}

async function checks(path: string): Promise<Check[]> {
  const out: Check[] = [];
  for await (const c of (await open(path)).verify({})) out.push(c);
  return out;
}

interface Truth {
  xorb_hash: string;
  footer: { start_offset: number; version: number; chunk_boundary_offsets: number[]; unpacked_chunk_offsets: number[] };
  chunks: {
    index: number;
    header_offset: number;
    scheme: string;
    compressed_size: number;
    uncompressed_size: number;
    hash: string;
    hash_raw_bytes_hex: string;
  }[];
}

describe('xorb structure against the JSON ground truth', () => {
  it.each(
    POSITIVE.flatMap(
      (n) =>
        [
          [n, `${n}.xorb`, 'full'],
          [n, `${n}.nofooter.xorb`, 'footerless'],
        ] as const,
    ),
  )('%s (%s): form, chunk headers, footer', async (name, file, form) => {
    const truth = readJson<Truth>(`xorb/${name}.json`);
    const info = (await open(`xorb/${file}`)).info() as {
      form: string;
      chunkCount: number;
      xorbHash: string | null;
      chunks: { offset: number; scheme: string; compressedSize: number; uncompressedSize: number; hash: string | null }[];
    };
    expect(info.form).toBe(form);
    expect(info.chunkCount).toBe(truth.chunks.length);
    expect(info.chunks.map((c) => [c.offset, c.scheme, c.compressedSize, c.uncompressedSize])).toEqual(
      truth.chunks.map((c) => [c.header_offset, c.scheme, c.compressed_size, c.uncompressed_size]),
    );
    // Both forms give the same hashes: the footerless one recomputes them from the chunks.
    expect(info.xorbHash).toBe(truth.xorb_hash);
    expect(info.chunks.map((c) => c.hash)).toEqual(truth.chunks.map((c) => c.hash));
    expect((await checks(`xorb/${file}`)).filter((c) => c.status === 'fail')).toEqual([]);
  });

  it('reads the legacy V0 footer of fixture 07 with the chunks of fixture 02', async () => {
    const truth = readJson<Truth>('xorb/02_lz4_text.json');
    const info = (await open('xorb/07_lz4_text_v0footer.xorb')).info() as { footerVersion: number; xorbHash: string; chunks: { hash: string }[] };
    expect(info.footerVersion).toBe(0);
    expect(info.xorbHash).toBe(truth.xorb_hash);
    expect(info.chunks.map((c) => c.hash)).toEqual(truth.chunks.map((c) => c.hash));
  });

  it('shows hashes in xet string form: each 8-byte group reversed', () => {
    const truth = readJson<Truth>('xorb/02_lz4_text.json');
    for (const c of truth.chunks) {
      const raw = Uint8Array.from(Buffer.from(c.hash_raw_bytes_hex, 'hex'));
      expect(hashToString(raw)).toBe(c.hash);
      expect(hashFromString(c.hash)).toEqual(raw);
    }
  });
});

describe('xorb structure on damaged files', () => {
  it('90: truncated in chunk 1 payload', async () => {
    expect(await checks('xorb/90_truncated_mid_chunk.xorb')).toContainEqual(expect.objectContaining({ status: 'fail', offset: 30221, field: 'chunk payload' }));
  });

  it('91: truncated in chunk 2 header, chunks 0–1 intact', async () => {
    const doc = await open('xorb/91_truncated_mid_header_nofooter.xorb');
    expect((doc.info() as { chunkCount: number }).chunkCount).toBe(2);
    expect(await checks('xorb/91_truncated_mid_header_nofooter.xorb')).toContainEqual(
      expect.objectContaining({ status: 'fail', offset: 62460, field: 'chunk header' }),
    );
  });

  it('95: unknown scheme 3 in chunk 1 header', async () => {
    expect(await checks('xorb/95_bad_scheme_byte.xorb')).toContainEqual(
      expect.objectContaining({ status: 'fail', name: 'chunk 1 header', offset: 30217, field: 'compression scheme' }),
    );
  });

  it('97: chunk 1 uncompressed size disagrees with the footer', async () => {
    expect(await checks('xorb/97_header_uncompressed_size_mismatch.xorb')).toContainEqual(
      expect.objectContaining({ status: 'fail', name: 'unpacked offsets' }),
    );
  });
});
