import { STREAM_FOOTER_BYTES, STREAM_HEADER_BYTES, checkName, type XzLayout } from '../../codecs/xz/container.js';
import type { CoveragePart } from '../../integrity.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { ByteRange } from '../../model.js';

/** BEN frames: no checksum in the format (spec §8); a flipped payload bit decodes to another plan. */
export function benFramesPart(range: ByteRange): CoveragePart {
  return { part: 'BEN frames', check: null, ranges: [range] };
}

/**
 * What an .xz's own checks cover: the CRC32s of its stream headers, block headers, indexes and
 * footers, and each block's check (None covers nothing). liblzma verifies all of them while
 * decoding; checkedXz.ts holds a block's data back until its check passed.
 */
export async function xzParts(src: ByteSource, layout: XzLayout | undefined, whole: ByteRange): Promise<CoveragePart[]> {
  if (!layout) return [{ part: 'xz blocks (no readable index)', check: null, ranges: [whole] }];
  const container: ByteRange[] = [];
  const data: ByteRange[] = [];
  const unchecked: ByteRange[] = [];
  const checks = new Set<string>();
  for (const s of layout.streams) {
    container.push(
      { offset: s.offset, length: STREAM_HEADER_BYTES },
      { offset: s.indexOffset, length: s.indexSize },
      { offset: s.footerOffset, length: STREAM_FOOTER_BYTES },
    );
    for (const b of s.blocks) {
      // A block header is (first byte + 1) × 4 bytes (xz-file-format §3.1.1).
      const headerSize = ((await src.read(b.offset, 1))[0]! + 1) * 4;
      container.push({ offset: b.offset, length: Math.min(headerSize, b.unpaddedSize) });
      const body = { offset: b.offset + headerSize, length: Math.max(0, b.unpaddedSize - headerSize) };
      if (s.checkType === 0) unchecked.push(body);
      else (data.push(body), checks.add(checkName(s.checkType)));
    }
  }
  const parts: CoveragePart[] = [{ part: 'xz stream headers, block headers, index and footer', check: 'their CRC32s', ranges: container }];
  if (data.length > 0) parts.push({ part: 'xz blocks', check: `xz block checks (${[...checks].join(', ')})`, ranges: data });
  if (unchecked.length > 0) parts.push({ part: 'xz blocks (check None)', check: null, ranges: unchecked });
  return parts;
}
