/**
 * What a dataview's checks cover (../../integrity.ts, `Coverage`). The format carries no
 * checksum: blocks are raw DEFLATE (RFC 1951, no zlib wrapper, so no Adler-32) or stored, and
 * the header, table of contents, lookup tables and metadata carry none either. The codec's own
 * checks (inflated length, counts, text boundaries) catch some damage, never all of it. The only
 * bytes a check covers are the magic: a file whose first 8 bytes differ does not open. The tail
 * signature is verified too, but a wrong tail does not stop a read (it holds no data), so it is
 * not "covered" in the sense that every read path fails on it.
 */
import type { Coverage, CoveragePart } from '../../integrity.js';
import type { IdvFile } from './file.js';
import { SIGNATURE } from './model.js';

export function idvCoverage(file: IdvFile): Coverage {
  const parts: CoveragePart[] = [
    { part: 'IDV signature', check: 'compared with "CML\\0DVB\\0": a file without it does not open', ranges: [{ offset: 0, length: SIGNATURE.length }] },
    { part: 'IDV header, table of contents, lookup tables and tail', check: null },
    { part: 'IDV blocks', check: null },
  ];
  if (file.columns.some((c) => c.entry.metadataTocOffset !== 0 || c.entry.slotNames)) parts.push({ part: 'IDV metadata', check: null });
  return { parts };
}
