import { formatScalar } from '../../core/describe.js';
import type { Cell, Check, Field, Row, Table } from '../../core/model.js';
import type { CellDTO, CheckDTO, FieldDTO, RowDTO, TableDTO } from '../../protocol/protocol.js';

/** Core model values → the plain JSON the webview and worker boundaries carry. */

export function fieldDTO(f: Field): FieldDTO {
  return { name: f.name, value: f.display ?? formatScalar(f.value), range: f.range, mark: f.mark, note: f.note };
}

export function cellDTO(c: Cell): CellDTO {
  if (typeof c === 'bigint') return c.toString();
  return c;
}

export function rowDTO(r: Row): RowDTO {
  return { cells: r.cells.map(cellDTO), range: r.range, mark: r.mark };
}

export function checkDTO(c: Check): CheckDTO {
  return { name: c.name, status: c.status, detail: c.detail, offset: c.offset, field: c.field };
}

export function tableDTO(t: Table): TableDTO {
  const rowCount = t.rowCount();
  return {
    id: t.id,
    title: t.title,
    columns: t.columns,
    rowCount,
    countable: t.count !== undefined && (!rowCount.complete || t.countIndexes === true),
    params: t.params,
  };
}
