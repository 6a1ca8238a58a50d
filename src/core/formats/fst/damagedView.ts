import { damagedCell } from '../../integrity.js';
import type { Cell, Row, Scalar } from '../../model.js';
import type { PanelData } from '../../views.js';
import { type ChecksumResult, checksumDamage } from './checksum.js';

/**
 * How the viewer shows what it read from a v3 file whose CRC fails. The CRC covers every node, so
 * no key or value of such a file can be trusted: each cell of a row shows "damaged" (the reason as
 * its tooltip), or with the show-anyway option the value decoded regardless, labelled as damaged.
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

/**
 * A panel (automaton, node fields, dot text) of a file whose CRC fails: shown, since it is how one
 * inspects the damage, but labelled as damaged wherever it says anything.
 */
export function labelDamaged(data: PanelData, detail: string | undefined): PanelData {
  if (detail === undefined) return data;
  const group = { title: 'damaged', fields: [{ name: 'checksum', value: detail, mark: 'error' as const }] };
  switch (data.kind) {
    case 'fields':
      return { ...data, groups: [group, ...data.groups] };
    case 'automaton':
      return {
        ...data,
        note: data.note === undefined ? `damaged: ${detail}` : `damaged: ${detail}. ${data.note}`,
        details: data.details && [group, ...data.details],
      };
    case 'text':
      return { ...data, text: `// damaged: ${detail}\n${data.text}` };
    default:
      return data;
  }
}
