import { hex, hexString, range } from '../../describe.js';
import { rethrowUnlessFormatError } from '../../errors.js';
import { damagedCell, SHOW_DAMAGED } from '../../integrity.js';
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

function pageOf<T>(items: readonly T[], row: (item: T) => Row): Pick<Table, 'rowCount' | 'page'> {
  return { rowCount: () => ({ known: items.length, complete: true }), page: (from, count) => Promise.resolve(items.slice(from, from + count).map(row)) };
}

export function framesTable(c: Container, crcState: (f: FrameHeader) => string | undefined): Table {
  return {
    id: 'frames',
    title: 'Frames',
    columns: [
      { key: 'offset', title: 'offset', type: 'number' },
      { key: 'type', title: 'type', type: 'text' },
      { key: 'version', title: 'version', type: 'number' },
      { key: 'flags', title: 'flags', type: 'text' },
      { key: 'length', title: 'payload bytes', type: 'number' },
      { key: 'crc', title: 'CRC', type: 'text' },
    ],
    ...pageOf(c.frames, (f) => {
      const crc = crcState(f);
      const critical = notUnderstood(f) && !(f.flags & 1);
      return {
        cells: [f.offset, `${hex(f.type, 2)} ${frameTypeName(f.type)}`, f.version, flagText(f.flags), f.payloadLength, crc ?? 'not checked'],
        range: range(f.offset, frameLength(f)),
        mark: (crc !== undefined && crc !== 'ok') || critical || c.problems.has(f.offset) ? 'error' : notUnderstood(f) ? 'warn' : undefined,
      };
    }),
  };
}

export function columnsTable(views: readonly ColumnView[]): Table {
  return {
    id: 'columns',
    title: 'Columns',
    columns: [
      { key: 'id', title: 'id', type: 'number' },
      { key: 'name', title: 'name', type: 'text' },
      { key: 'type', title: 'type', type: 'text' },
      { key: 'nullable', title: 'nullable', type: 'bool' },
      { key: 'chain', title: 'codec chain (encode order)', type: 'text' },
      { key: 'rows', title: 'rows', type: 'number' },
      { key: 'chunks', title: 'chunks', type: 'number' },
      { key: 'bytes', title: 'frame bytes', type: 'number' },
      { key: 'state', title: 'decoding', type: 'text' },
    ],
    ...pageOf(views, (v) => ({
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
    })),
  };
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
  const all = views.flatMap((v) => v.column.chunks.map((k) => ({ v, k })));
  return {
    id: 'chunks',
    title: 'Chunks',
    columns: [
      { key: 'column', title: 'column', type: 'text' },
      { key: 'chunk', title: 'chunk', type: 'number' },
      { key: 'rows', title: 'rows', type: 'text' },
      { key: 'offset', title: 'blob offset', type: 'number' },
      { key: 'bytes', title: 'bytes', type: 'number' },
      { key: 'min', title: 'min', type: 'text' },
      { key: 'max', title: 'max', type: 'text' },
    ],
    rowCount: () => ({ known: all.length, complete: true }),
    page: (from, count, signal) =>
      Promise.all(
        all.slice(from, from + count).map(async ({ v, k }): Promise<Row> => {
          const damaged = await checks.problem(v.column.frame, { signal });
          const stat = (b: Uint8Array | undefined) => (damaged && b !== undefined ? damagedCell(damaged) : statText(v.column.type, b));
          return {
            cells: [v.column.name, k.index, `${k.firstRow}–${k.firstRow + k.rows - 1} (${k.rows})`, k.blobOffset, k.byteLength, stat(k.min), stat(k.max)],
            range: range(k.blobOffset, k.byteLength),
            mark: damaged ? 'error' : undefined,
          };
        }),
      ),
  };
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
    columns: [{ key: 'row', title: '#', type: 'number' }, ...columns],
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
