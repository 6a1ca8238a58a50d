import type { Coverage, CoveragePart } from '../../integrity.js';
import type { ByteRange } from '../../model.js';
import type { Container } from './container.js';
import { CHECKSUM_ALGOS, FrameType, frameLength } from './model.js';

/**
 * What each check of a Bindu file covers (issue 17), as `cat` and the conversions run them:
 * every frame's CRC-32C (its header, payload and CRC, so a flipped length or type is caught too),
 * the footer's file checksum over the preamble and every frame before it, and the Merkle leaves
 * of a sealed file. Bytes the frame walk could not read (the tail of a cut-short file) belong to
 * no frame, so no frame check covers them; neither does the preamble of an unsealed file without a checksum.
 */
export function coverageOf(c: Container): Coverage {
  const parts: CoveragePart[] = [];
  const whole = (offset: number, length: number): ByteRange => ({ offset, length });
  parts.push({ part: 'frames', check: 'CRC-32C of each frame (header and payload)', ranges: c.frames.map((f) => whole(f.offset, frameLength(f))) });
  const ft = c.footer;
  const summed = ft && ft.flags & 2 && (ft.checksumAlgo === 1 || ft.checksumAlgo === 2);
  const mf = c.merkle && c.frames.find((f) => f.type === FrameType.MerkleTree);
  if (summed)
    parts.push({
      part: 'preamble and frames before the footer',
      check: `${CHECKSUM_ALGOS[ft.checksumAlgo]} file checksum in the footer`,
      ranges: [whole(0, ft.offset)],
    });
  if (mf)
    parts.push({
      part: 'preamble and frames before the MerkleTree frame',
      check: 'SHA-256 Merkle leaves in the MerkleTree frame',
      ranges: [whole(0, c.preamble.size), ...c.frames.filter((f) => f.offset < mf.offset).map((f) => whole(f.offset, frameLength(f)))],
    });
  if (!summed && !mf) parts.push({ part: 'preamble', check: null, ranges: [whole(0, c.preamble.size)] });
  if (c.unread.length) parts.push({ part: 'bytes in no complete frame', check: null, ranges: c.unread.map((u) => whole(u.offset, u.length)) });
  return { parts };
}
