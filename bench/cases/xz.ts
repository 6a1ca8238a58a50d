import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { xzDecompress } from '../../src/core/codecs/xz/decode.js';
import { xzCompress } from '../../src/core/codecs/xz/encode.js';
import { openFile } from '../../src/core/io/nodeFile.js';
import { fillWords, xorshift32 } from '../synthetic.js';
import type { BenchCase } from '../types.js';

/**
 * Plain .xz decoding against `xz -dc` on the same file: 48 MiB of CSV-like text with every
 * eighth 64 KiB piece float-like binary records, compressed once at preset 6 (the xz default) with a CRC64 check. The XBEN cases
 * in ben.ts add the JSONL writing on top; this one is liblzma (WASM) against liblzma (native).
 */
const FILE = 'plain-48mib.xz';
const SIZE = 48 << 20;

function content(): Uint8Array {
  const out = new Uint8Array(SIZE);
  const next = xorshift32(88172645);
  for (let i = 0; i < SIZE; ) {
    if ((i >> 16) % 8 === 7) {
      // 64 KiB of little-endian float32-like records: compressible high bytes, noisy low bytes.
      for (const stop = Math.min(SIZE, i + 65536); i < stop; i++) out[i] = i % 4 === 3 ? 0x3c + (next() % 3) : i % 4 === 2 ? next() & 0x7f : next() & 0xff;
    } else {
      const stop = Math.min(SIZE, i + 65536);
      fillWords(out, i, stop, next);
      i = stop;
    }
  }
  return out;
}

const hasXz = () => spawnSync('xz', ['--version']).status === 0;

export const cases: BenchCase[] = [
  {
    id: 'xz-decode',
    title: 'xz: decode 48 MiB (mostly text, 1/8 binary records; preset 6, CRC64) from a file',
    runs: 5,
    async prepare(data) {
      const path = join(data, FILE);
      if (existsSync(path)) return;
      if (hasXz()) {
        const raw = join(data, 'plain-48mib.raw');
        writeFileSync(raw, content());
        const r = spawnSync('xz', ['-6', '-T1', '-C', 'crc64', '-f', raw]);
        if (r.status !== 0) throw new Error(String(r.stderr));
        spawnSync('mv', [`${raw}.xz`, path]);
      } else writeFileSync(path, await xzCompress(content(), { preset: 6, check: 'crc64' }));
    },
    async run(data) {
      const src = await openFile(join(data, FILE));
      let bytes = 0;
      try {
        for await (const chunk of xzDecompress(src)) bytes += chunk.length;
      } finally {
        await src.close?.();
      }
      if (bytes !== SIZE) throw new Error(`decoded ${bytes} bytes, ${SIZE} expected`);
      return { bytes };
    },
    native: (data) => (hasXz() ? { label: 'xz -dc', command: ['sh', '-c', `xz -dc '${join(data, FILE)}' > /dev/null`] } : undefined),
  },
];
