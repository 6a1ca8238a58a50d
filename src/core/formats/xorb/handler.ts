import { lazyHandler } from '../../handlerSpec.js';
import type { Probe, SniffVerdict } from '../../model.js';
import { CHUNK_HEADER_BYTES, MAX_CHUNK_BYTES, MAX_COMPRESSED_BYTES } from './model.js';

const LZ4_MAGIC = [0x04, 0x22, 0x4d, 0x18];
const XETBLOB = [0x58, 0x45, 0x54, 0x42, 0x4c, 0x4f, 0x42];

function plausibleHeader(b: Uint8Array, at: number): { clen: number; scheme: number; ulen: number } | undefined {
  if (at + CHUNK_HEADER_BYTES > b.length || b[at] !== 0) return undefined;
  const clen = b[at + 1]! | (b[at + 2]! << 8) | (b[at + 3]! << 16);
  const scheme = b[at + 4]!;
  const ulen = b[at + 5]! | (b[at + 6]! << 8) | (b[at + 7]! << 16);
  if (scheme > 2 || ulen > MAX_CHUNK_BYTES || clen > MAX_COMPRESSED_BYTES || ulen === 0) return undefined;
  if (scheme === 0 && clen !== ulen) return undefined;
  return { clen, scheme, ulen };
}

/**
 * A full xorb ends with its footer length and "XETBLOB" at the footer start; a footerless one
 * has no magic, so its first chunk header must be plausible and confirmed by an LZ4 frame magic,
 * a second plausible header, or the file ending right after the chunk.
 */
function sniff(p: Probe): SniffVerdict {
  if (p.tail.length >= 4) {
    const t = p.tail;
    const infoLength = (t[t.length - 4]! | (t[t.length - 3]! << 8) | (t[t.length - 2]! << 16) | (t[t.length - 1]! << 24)) >>> 0;
    const footerAt = t.length - 4 - infoLength;
    if (infoLength + 4 <= p.size && footerAt >= 0 && XETBLOB.every((c, i) => t[footerAt + i] === c)) return 'yes';
  }
  const first = plausibleHeader(p.head, 0);
  if (!first) return 'no';
  const payload = CHUNK_HEADER_BYTES;
  if (first.scheme !== 0 && LZ4_MAGIC.every((c, i) => p.head[payload + i] === c)) return 'yes';
  if (CHUNK_HEADER_BYTES + first.clen === p.size) return 'yes';
  if (plausibleHeader(p.head, CHUNK_HEADER_BYTES + first.clen)) return 'yes';
  return 'maybe';
}

export const xorbHandler = lazyHandler(
  {
    id: 'xorb',
    label: 'Hugging Face Xet xorb',
    extensions: ['.xorb'],
    sniff,
    importers: async () => (await import('./convert.js')).xorbImporters,
  },
  async () => (await import('./document.js')).openXorb,
);
