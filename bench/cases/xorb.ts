import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeLz4Frame } from '../../src/core/codecs/lz4.js';
import { keyedBlake3 } from '../../src/core/codecs/blake3.js';
import { openFile } from '../../src/core/io/nodeFile.js';
import { xorbHandler } from '../../src/core/formats/xorb/handler.js';
import { CHUNK_HEADER_BYTES, Scheme } from '../../src/core/formats/xorb/model.js';
import { DATA_KEY } from '../../src/core/formats/xorb/hash.js';
import { XorbBuilder } from '../../src/core/formats/xorb/writer.js';
import { fillWords, xorshift32 } from '../synthetic.js';
import type { BenchCase } from '../types.js';

/**
 * A 64 MiB xorb of mixed schemes, decompressed and hashed by Binlens, against Debian's native
 * tools on the same bytes: `lz4 -d` over the xorb's LZ4 frames (BG4 chunks are LZ4 frames too)
 * and `b3sum` over the decompressed bytes. The LZ4 and BLAKE3 cases split the two. The libraries
 * and the numbers that chose them are in DESIGN.md, "Xorb".
 */
export const XORB = 'mixed-64mib.xorb';
const FRAMES = 'mixed-64mib.frames.lz4';
const RAW = 'mixed-64mib.raw';

function* mixedChunks(): Generator<Uint8Array> {
  const next = xorshift32(2463534242);
  for (let k = 0; ; k++) {
    const n = 32768 + (next() % 98304);
    const chunk = new Uint8Array(n);
    if (k % 3 === 0) {
      // CSV-like text: LZ4.
      fillWords(chunk, 0, n, next);
    } else if (k % 3 === 1) {
      // float32 weights near zero: BG4 wins.
      const f = new Float32Array(chunk.buffer, 0, n >> 2);
      for (let i = 0; i < f.length; i++) f[i] = ((next() % 20001) - 10000) / 1e6;
    } else {
      // Noise: stored (scheme 0).
      for (let i = 0; i < n; i++) chunk[i] = next() & 0xff;
    }
    yield chunk;
  }
}

export async function prepare(data: string): Promise<void> {
  if ([XORB, FRAMES, RAW].every((f) => existsSync(join(data, f)))) return;
  const builder = await XorbBuilder.create('auto', 'full');
  const raw: Uint8Array[] = [];
  for (const chunk of mixedChunks()) {
    if (!builder.fits(chunk.length)) break;
    builder.add(chunk);
    raw.push(chunk);
  }
  const built = await builder.finish();
  const frames: Uint8Array[] = [];
  // parts alternate header, payload (then the footer).
  for (let i = 0; i < built.schemes.length; i++) if (built.schemes[i] !== Scheme.None) frames.push(built.parts[2 * i + 1]!);
  await writeFile(join(data, XORB), built.parts);
  await writeFile(join(data, FRAMES), frames);
  await writeFile(join(data, RAW), raw);
}

/**
 * The whole input in one read, as the native tools read theirs: `FileHandle.readFile` reads in
 * 512 KiB pieces with an event-loop turn each, which took a quarter of the LZ4 case's time. The
 * Buffer is used as it is (it is a Uint8Array): copying it into a fresh Uint8Array cost another
 * 60 ms of page faults for 64 MiB, a fifth of the LZ4 case, with no counterpart in the native run.
 */
async function readAll(path: string): Promise<Uint8Array> {
  return readFileSync(path);
}

export const cases: BenchCase[] = [
  {
    id: 'xorb-decode-hash',
    title: 'xorb: open and verify a 64 MiB mixed xorb (decompress and hash every chunk, xorb hash)',
    runs: 3,
    prepare,
    async run(data) {
      const src = await openFile(join(data, XORB));
      try {
        const doc = await xorbHandler.open(src, { name: XORB });
        // A xorb this large opens without hashing; Verify decodes and hashes every chunk.
        for await (const check of doc.verify({})) if (check.status === 'fail') throw new Error(`verify: ${check.name}: ${check.detail}`);
        const info = doc.info() as { xorbHash: string | null; chunkCount: number; uncompressedSize: number };
        if (!info.xorbHash) throw new Error('no xorb hash after verify');
        return { bytes: info.uncompressedSize, items: info.chunkCount };
      } finally {
        await src.close?.();
      }
    },
    native: (data) => ({ label: 'lz4 -d (frames) + b3sum (raw)', command: ['sh', '-c', `lz4 -d -c '${join(data, FRAMES)}' > /dev/null && b3sum '${join(data, RAW)}' > /dev/null`] }),
  },
  {
    id: 'xorb-lz4',
    title: 'xorb: LZ4 frames of the 64 MiB xorb (BG4 included) decoded',
    runs: 3,
    prepare,
    async run(data) {
      // The payloads of schemes 1 and 2, found by the chunk headers, decoded in place. Each
      // frame's bytes are counted and dropped, as `lz4 -d > /dev/null` does, so they are taken
      // as the decoder's view (as BG4 decoding takes them) rather than copied out.
      const xorb = await readAll(join(data, XORB));
      const footerAt = xorb.length - 4 - new DataView(xorb.buffer, xorb.byteOffset, xorb.byteLength).getUint32(xorb.length - 4, true);
      let bytes = 0;
      for (let at = 0; at < footerAt; ) {
        const clen = xorb[at + 1]! | (xorb[at + 2]! << 8) | (xorb[at + 3]! << 16);
        const payload = xorb.subarray(at + CHUNK_HEADER_BYTES, at + CHUNK_HEADER_BYTES + clen);
        if (xorb[at + 4] !== Scheme.None) bytes += decodeLz4Frame(payload, { maxSize: 1 << 17, view: true }).length;
        at += CHUNK_HEADER_BYTES + clen;
      }
      return { bytes };
    },
    native: (data) => ({ label: 'lz4 -d', command: ['sh', '-c', `lz4 -d -c '${join(data, FRAMES)}' > /dev/null`] }),
  },
  {
    id: 'xorb-blake3',
    title: 'xorb: keyed BLAKE3 of the 64 MiB of chunk bytes, chunk by chunk',
    runs: 3,
    prepare,
    async run(data) {
      const raw = await readAll(join(data, RAW));
      const hash = await keyedBlake3(DATA_KEY);
      for (let at = 0; at < raw.length; at += 65536) hash(raw.subarray(at, at + 65536));
      return { bytes: raw.length };
    },
    native: (data) => ({ label: 'b3sum', command: ['b3sum', join(data, RAW)] }),
  },
];
