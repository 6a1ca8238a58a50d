import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeLz4Frame } from '../../src/core/codecs/lz4.js';
import { keyedBlake3 } from '../../src/core/codecs/blake3.js';
import { installNativeCodecs } from '../../src/core/codecs/native.js';
import { nodeCodecs } from '../../src/core/io/nodeCodecs.js';
import { openFile } from '../../src/core/io/nodeFile.js';
import { xorbHandler } from '../../src/core/formats/xorb/handler.js';
import { CHUNK_HEADER_BYTES, Scheme } from '../../src/core/formats/xorb/model.js';
import { DATA_KEY } from '../../src/core/formats/xorb/hash.js';
import { XorbBuilder } from '../../src/core/formats/xorb/writer.js';
import { fillWords, xorshift32 } from '../synthetic.js';
import type { BenchCase } from '../types.js';

// As the engine and the CLI do in Node: BLAKE3 from the native addon where it loads.
installNativeCodecs(nodeCodecs);

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
 * The chunks of a xorb file read 1 MiB at a time into one buffer, as `lz4 -d` streams its input
 * (reading all 64 MiB into fresh memory first cost a quarter of the decoding time).
 */
function* chunksOf(path: string): Generator<{ scheme: number; payload: Uint8Array }> {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const tail = new Uint8Array(4);
    readSync(fd, tail, 0, 4, size - 4);
    const footerAt = size - 4 - new DataView(tail.buffer).getUint32(0, true);
    const buf = new Uint8Array(2 << 20);
    let have = 0; // bytes in buf
    let pos = 0; // file offset of buf[0]
    let at = 0; // next chunk, relative to buf
    while (pos + at < footerAt) {
      const need =
        at + CHUNK_HEADER_BYTES <= have ? at + CHUNK_HEADER_BYTES + (buf[at + 1]! | (buf[at + 2]! << 8) | (buf[at + 3]! << 16)) : at + CHUNK_HEADER_BYTES;
      if (need > have) {
        buf.copyWithin(0, at, have);
        pos += at;
        have -= at;
        at = 0;
        const n = readSync(fd, buf, have, Math.min(buf.length - have, footerAt - pos - have), pos + have);
        if (n <= 0) throw new Error(`xorb ends inside a chunk at ${pos + have}`);
        have += n;
        continue;
      }
      yield { scheme: buf[at + 4]!, payload: buf.subarray(at + CHUNK_HEADER_BYTES, need) };
      at = need;
    }
  } finally {
    closeSync(fd);
  }
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
        // A xorb this large opens without hashing; Verify decodes and hashes every chunk. What
        // `binlens verify` does, and no more: not `info`, which prints every chunk's hashes.
        let hashChecked = false;
        for await (const check of doc.verify({})) {
          if (check.status === 'fail') throw new Error(`verify: ${check.name}: ${check.detail}`);
          if (check.name === 'xorb hash' && check.status === 'pass') hashChecked = true;
        }
        if (!hashChecked) throw new Error('verify did not check the xorb hash');
        const count = (name: string) => Number(doc.summary.find((f) => f.name === name)?.value);
        return { bytes: count('uncompressed bytes'), items: count('chunks') };
      } finally {
        await src.close?.();
      }
    },
    native: (data) => ({
      label: 'lz4 -d (frames) + b3sum (raw)',
      command: ['sh', '-c', `lz4 -d -c '${join(data, FRAMES)}' > /dev/null && b3sum '${join(data, RAW)}' > /dev/null`],
    }),
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
      let bytes = 0;
      for (const { scheme, payload } of chunksOf(join(data, XORB))) {
        if (scheme !== Scheme.None) bytes += decodeLz4Frame(payload, { maxSize: 1 << 17, view: true }).length;
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
      // A MiB at a time, the next one read in Node's thread pool while this one hashes, as
      // Verify reads chunks (decode.ts, decodedChunks) and as b3sum maps its input: read first
      // and hashed after, the reads alone cost nearly what hashing does (30 against 38 ms).
      const hash = await keyedBlake3(DATA_KEY);
      const file = await open(join(data, RAW), 'r');
      const pieces = [new Uint8Array(1 << 20), new Uint8Array(1 << 20)];
      let bytes = 0;
      try {
        let reading = file.read(pieces[0]!, 0, 1 << 20, 0);
        for (let k = 0; ; k++) {
          const { bytesRead: n } = await reading;
          if (n === 0) break;
          reading = file.read(pieces[(k + 1) & 1]!, 0, 1 << 20, bytes + n);
          const piece = pieces[k & 1]!;
          for (let at = 0; at < n; at += 65536) hash(piece.subarray(at, Math.min(n, at + 65536)));
          bytes += n;
        }
      } finally {
        await file.close();
      }
      return { bytes };
    },
    native: (data) => ({ label: 'b3sum', command: ['b3sum', join(data, RAW)] }),
  },
];
