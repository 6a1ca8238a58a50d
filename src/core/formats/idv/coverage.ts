/**
 * What a dataview's checks cover (../../integrity.ts, `Coverage`). The format carries no
 * checksum: blocks are raw DEFLATE (RFC 1951, no zlib wrapper, so no Adler-32) or stored, and
 * the header, table of contents, lookup tables and metadata carry none either. The only bytes a
 * check covers are the two signatures, each compared with its expected value: a changed magic
 * makes the file fail to open, a changed tail is reported, and neither is ever part of the output.
 */
import type { Coverage, CoveragePart } from '../../integrity.js';
import type { IdvFile } from './file.js';
import { SIGNATURE, TAIL_SIGNATURE } from './model.js';

export function idvCoverage(file: IdvFile, tailOk: boolean): Coverage {
  const h = file.header;
  const signatures = [{ offset: 0, length: SIGNATURE.length }];
  if (tailOk) signatures.push({ offset: h.tailOffset, length: TAIL_SIGNATURE.length });
  const parts: CoveragePart[] = [
    { part: 'IDV signatures', check: 'compared with "CML\\0DVB\\0" at byte 0 and its reverse at the tail', ranges: signatures },
    { part: 'IDV header, table of contents and lookup tables', check: null },
    { part: 'IDV blocks', check: null },
  ];
  if (file.columns.some((c) => c.entry.metadataTocOffset !== 0 || c.entry.slotNames)) parts.push({ part: 'IDV metadata', check: null });
  return { parts };
}
