import { crc32c, crc32cReady } from '../../src/core/codecs/crc32c.js';
import type { BenchCase } from '../types.js';

const SIZE = 256 << 20;

export const cases: BenchCase[] = [
  {
    id: 'crc32c',
    title: 'CRC-32C of 256 MiB in 1 MiB pieces',
    async run() {
      await crc32cReady();
      const piece = new Uint8Array(1 << 20).map((_, i) => (i * 2654435761) >>> 24);
      let crc = 0;
      for (let done = 0; done < SIZE; done += piece.length) crc = crc32c(piece, crc);
      if (crc === 1) console.error('unlikely');
      return { bytes: SIZE };
    },
  },
];
