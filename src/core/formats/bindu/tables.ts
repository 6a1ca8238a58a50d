import { hex, hexString, range } from '../../describe.js';
import { rethrowUnlessFormatError } from '../../errors.js';
import { damagedCell, SHOW_DAMAGED } from '../../integrity.js';
import { column, listTable } from '../../tableSpec.js';
import type { Cell, Column, OptionValues, Row, Scalar, Table } from '../../model.js';
import type { FrameChecks } from './checks.js';
import { chainText } from './chain.js';
import { ChunkReader, type ColumnView } from './columns.js';
import type { Container } from './container.js';
import { outputNames, rowCountOf } from './export.js';
import { frameLength, frameTypeName, type FrameHeader, type LeafType } from './model.js';
import { typeText } from './schema.js';
import { flagText } from './structure.js';
import { notUnderstood } from './verify.js';
import { valueFromCanonical, type Value } from './values.js';

/** Frames, columns, chunks and the decoded rows as paged tables. */

export function framesTable(c: Container, crcState: (f: FrameHeader) => string | undefined): Table {
  return listTable({
    id: 'frames',
    title: 'Frames',
    columns: [
      column('offset', 'number'),
      column('type', 'text'),
      column('version', 'number'),
      column('flags', 'text'),
      column('length', 'number', 'payload bytes'),
      column('crc', 'text', 'CRC'),
    ],
    items: c.frames,
    row: (f) => {
      const crc = crcState(f);
      const critical = notUnderstood(f) && !(f.flags & 1);
      return {
        cells: [f.offset, `${hex(f.type, 2)} ${frameTypeName(f.type)}`, f.version, flagText(f.flags), f.payloadLength, crc ?? 'not checked'],
        range: range(f.offset, frameLength(f)),
        mark: (crc !== undefined && crc !== 'ok') || critical || c.problems.has(f.offset) ? 'error' : notUnderstood(f) ? 'warn' : undefined,
      };
    },
  });
}

export function columnsTable(views: readonly ColumnView[]): Table {
  return listTable({
    id: 'columns',
    title: 'Columns',
    columns: [
      column('id', 'number'),
      column('name', 'text'),
      column('type', 'text'),
      column('nullable', 'bool'),
      column('chain', 'text', 'codec chain (encode order)'),
      column('rows', 'number'),
      column('chunks', 'number'),
      column('bytes', 'number', 'frame bytes'),
      column('state', 'text', 'decoding'),
    ],
    items: views,
    row: (v) => ({
      cells: [
        v.column.id,
        v.column.name,
        typeText(v.column.type),
        v.column.nullable,
        chainText(v.column.stages),
        v.column.rowCount,
        v.column.chunks.length,
        frameLength(v.column.frame),
        v.undecodable ?? 'full',
      ],
      range: range(v.column.frame.offset, frameLength(v.column.frame)),
      mark: v.undecodable ? 'warn' : undefined,
    }),
  });
}

function statText(type: LeafType, b: Uint8Array | undefined): Cell {
  if (b === undefined) return null;
  if (b.length === 0) return { text: '(all null)', mark: 'null' };
  try {
    const v = valueFromCanonical(type, b);
    return v instanceof Uint8Array ? hexString(v) : typeof v === 'bigint' ? v.toString() : v;
  } catch (e) {
    rethrowUnlessFormatError(e);
    return { text: hexString(b), title: e.detail, mark: 'error' };
  }
}

/** The chunk index; a chunk's min/max are values too, so a column whose frame fails its checks shows them as damaged. */
export function chunksTable(views: readonly ColumnView[], checks: FrameChecks): Table {
  return listTable({
    id: 'chunks',
    title: 'Chunks',
    columns: [
      column('column', 'text'),
      column('chunk', 'number'),
      column('rows', 'text'),
      column('offset', 'number', 'blob offset'),
      column('bytes', 'number'),
      column('min', 'text'),
      column('max', 'text'),
    ],
    items: views.flatMap((v) => v.column.chunks.map((k) => ({ v, k }))),
    row: async ({ v, k }, _index, signal): Promise<Row> => {
      const damaged = await checks.problem(v.column.frame, { signal });
      const stat = (b: Uint8Array | undefined) => (damaged && b !== undefined ? damagedCell(damaged) : statText(v.column.type, b));
      return {
        cells: [v.column.name, k.index, `${k.firstRow}–${k.firstRow + k.rows - 1} (${k.rows})`, k.blobOffset, k.byteLength, stat(k.min), stat(k.max)],
        range: range(k.blobOffset, k.byteLength),
        mark: damaged ? 'error' : undefined,
      };
    },
  });
}

const TS_DIVISOR: Record<string, bigint> = { s: 1n, ms: 1000n, us: 1_000_000n, ns: 1_000_000_000n };

function cellOf(type: LeafType, v: Value): Cell {
  if (v === null) return { text: 'null', mark: 'null' };
  if (v instanceof Uint8Array) return hexString(v);
  if (type.code === 'TS' && typeof v === 'bigint') {
    const ms = (v * 1000n) / TS_DIVISOR[type.unit]!;
    const d = new Date(Number(ms));
    return { text: v.toString(), title: Number.isNaN(d.getTime()) ? undefined : d.toISOString() };
  }
  return v;
}

/**
 * The decoded rows: each page decodes only the chunks that hold it; a column that cannot be
 * decoded says why in its cells. A column whose frame (or dictionary frame) fails its CRC-32C or
 * Merkle leaf shows "damaged" cells; with SHOW_DAMAGED on, the value decoded anyway, labelled.
 */
export function rowsTable(views: readonly ColumnView[], reader: ChunkReader, checks: FrameChecks, showDamaged = false): Table {
  const names = outputNames(views);
  const columns: Column[] = views.map((v, i) => ({
    key: `c${v.column.id}`,
    title: names[i]!,
    type: v.column.type.code === 'INT' || v.column.type.code === 'FLOAT' ? 'number' : v.column.type.code === 'BYTES' ? 'hex' : 'text',
    description: `${typeText(v.column.type)}${v.column.nullable ? ', nullable' : ''}: ${chainText(v.column.stages)}`,
  }));
  const total = rowCountOf(views);
  return {
    id: showDamaged ? `rows?${SHOW_DAMAGED.key}` : 'rows',
    title: 'Rows',
    columns: [column('row', 'number', '#'), ...columns],
    rowCount: () => ({ known: total, complete: true }),
    params: [SHOW_DAMAGED],
    withParams: (values: OptionValues) => Promise.resolve(rowsTable(views, reader, checks, values[SHOW_DAMAGED.key] === true)),
    async page(from, count, signal) {
      const n = Math.max(0, Math.min(count, total - from));
      const cells = await Promise.all(
        views.map(async (v): Promise<Cell[]> => {
          if (v.undecodable) return Array(n).fill({ text: 'describe-only', title: v.undecodable, mark: 'warn' });
          const damaged = await checks.columnProblem(v, { signal });
          if (damaged && !showDamaged) return Array(n).fill(damagedCell(damaged));
          let values: Value[];
          try {
            values = await reader.range(v, from, n);
          } catch (e) {
            rethrowUnlessFormatError(e);
            return Array(n).fill(damaged ? damagedCell(damaged) : { text: 'unreadable', title: e.message, mark: 'error' });
          }
          return Array.from({ length: n }, (_, i) => {
            if (i >= values.length) return { text: '—', title: 'past the end of this column', mark: 'warn' };
            if (!damaged) return cellOf(v.column.type, values[i]!);
            return damagedCell(damaged, showDamaged ? scalarOf(values[i]!) : undefined);
          });
        }),
      );
      return Array.from({ length: n }, (_, i): Row => ({ cells: [from + i, ...cells.map((c) => c[i]!)] }));
    },
  };
}

/** A value as the "shown anyway" text of a damaged cell. */
function scalarOf(v: Value): Scalar {
  return v instanceof Uint8Array ? hexString(v) : v;
}
