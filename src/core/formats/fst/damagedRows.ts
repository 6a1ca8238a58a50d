import { damagedCell } from '../../integrity.js';
import type { Cell, Row, Scalar } from '../../model.js';
import { type ChecksumResult, checksumDamage } from './checksum.js';

/**
 * Rows of keys from a v3 file whose CRC fails. The CRC covers every node, so no key or value of
 * such a file can be trusted: each cell shows "damaged" (the reason as its tooltip), or with the
 * show-anyway option the value decoded regardless, labelled as damaged.
 */
export function crcFailure(r: ChecksumResult | undefined): string | undefined {
  if (r === undefined || r.ok) return undefined;
  return `the file's ${checksumDamage(r).detail}: any key or value may be wrong`;
}

export function markDamaged(rows: readonly Row[], detail: string | undefined, showAnyway: boolean): readonly Row[] {
  if (detail === undefined) return rows;
  return rows.map((row) => ({ ...row, mark: 'error', cells: row.cells.map((c) => damagedCell(detail, showAnyway ? scalarOf(c) : undefined)) }));
}

function scalarOf(c: Cell): Scalar {
  return c !== null && typeof c === 'object' ? c.text : c;
}
