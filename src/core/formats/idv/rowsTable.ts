/**
 * The rows of a dataview in the virtual table. A page decodes only the blocks it overlaps.
 * Parameters pick the reading of legacy NA values (1.1.1.5 files) and expand one vector column
 * into a column per slot, headed by its slot names.
 */
import { FormatError } from '../../errors.js';
import { damagedCell } from '../../integrity.js';
import { choiceParam, column } from '../../tableSpec.js';
import type { Cell, Column, OptionSpec, OptionValues, Row, Table } from '../../model.js';
import type { IdvColumn } from './blocks.js';
import type { ColumnType, ItemType } from './columnType.js';
import { typeText } from './columnType.js';
import { isDamage } from './damage.js';
import type { IdvFile, RowWindow } from './file.js';
import { itemText, vectorPreview } from './format.js';
import { type ReadValue, type Reading, type Value, type VectorValue, defaultValue } from './values.js';

/** Slots shown at once when a vector is expanded; the "first slot" input moves the window. */
export const SLOT_WINDOW = 200;

interface RowsView {
  readonly reading: Reading;
  /** Column index of the expanded vector, or −1. */
  readonly expand: number;
  readonly firstSlot: number;
}

/** The expanded vector column and the slots [first, last) it shows as columns. */
interface SlotWindow {
  readonly expanded: IdvColumn | undefined;
  readonly first: number;
  readonly last: number;
}

const NA_NOTE = 'legacy NA: ML.NET ≤ 0.5 wrote this as a missing value';

export function rowsTable(file: IdvFile, view: RowsView = { reading: 'modern', expand: -1, firstSlot: 0 }, slotNames?: readonly string[]): Table {
  const vectors = file.columns.filter((c) => c.type.kind === 'vector' && c.type.size > 0);
  const slots = slotWindow(file, view);
  const id = view.reading === 'modern' && view.expand < 0 ? 'rows' : `rows?reading=${view.reading}&expand=${view.expand}&slot=${slots.first}`;
  return {
    id,
    title: view.reading === 'legacy' ? 'Rows (legacy NA)' : 'Rows',
    columns: rowsColumns(file, slots, slotNames),
    params: rowsParams(file, vectors),
    rowCount: () => ({ known: file.rowCount, complete: true }),
    async withParams(values: OptionValues): Promise<Table> {
      const expand = vectors.some((c) => String(c.entry.index) === String(values.expand)) ? Number(values.expand) : -1;
      const names = expand >= 0 ? await file.metadataStrings(expand, 'SlotNames') : undefined;
      const reading = values.reading === 'legacy' && file.legacy ? 'legacy' : 'modern';
      return rowsTable(file, { reading, expand, firstSlot: Math.max(0, Math.floor(Number(values.slot ?? 0)) || 0) }, names);
    },
    async page(from, count, signal) {
      const keyNames = await keyValueNames(file);
      const w = await file.window(from, count, view.reading, signal);
      const rows: Row[] = [];
      for (let r = from; r < from + w.count; r++) rows.push(rowAt(file, w, r, slots, keyNames, view.reading));
      return rows;
    },
  };
}

/** The inputs above the rows: the NA reading of a legacy file, and the vector to expand. */
function rowsParams(file: IdvFile, vectors: readonly IdvColumn[]): OptionSpec[] {
  const params: OptionSpec[] = [];
  if (file.legacy) {
    const readings = { modern: "as today's ML.NET reads them", legacy: 'as missing (ML.NET ≤ 0.5, 1.1.1.5 files)' };
    params.push(choiceParam('reading', 'NA values', readings, 'This 1.1.1.5 file stores legacy NA sentinels; flagged cells show where they are.'));
  }
  if (vectors.length > 0) {
    params.push(
      {
        key: 'expand',
        label: 'Expand vector',
        type: 'choice',
        default: '-1',
        choices: [
          { value: '-1', label: 'none' },
          ...vectors.map((c) => ({ value: String(c.entry.index), label: `${c.entry.name} (${typeText(c.type, c.entry.codec)})` })),
        ],
        description: 'Show one fixed-size vector column as a column per slot, headed by its slot names',
      },
      { key: 'slot', label: 'First slot', type: 'number', default: 0, min: 0, description: `The expanded vector shows ${SLOT_WINDOW} slots from this one` },
    );
  }
  return params;
}

function slotWindow(file: IdvFile, view: RowsView): SlotWindow {
  const expanded = view.expand >= 0 ? file.columns[view.expand] : undefined;
  const slotCount = expanded && expanded.type.kind === 'vector' ? expanded.type.size : 0;
  const first = Math.max(0, Math.min(view.firstSlot, Math.max(0, slotCount - 1)));
  return { expanded, first, last: Math.min(slotCount, first + SLOT_WINDOW) };
}

/** The row number, then a column per dataview column, the expanded vector's slots in its place. */
function rowsColumns(file: IdvFile, { expanded, first, last }: SlotWindow, slotNames: readonly string[] | undefined): Column[] {
  const slots: Column[] = [];
  // Slot columns are headed by the column's SlotNames where it has them.
  for (let s = first; s < last; s++) slots.push({ key: `s${s}`, title: slotNames?.[s] || `${expanded!.entry.name}[${s}]`, type: columnKind(expanded!) });
  return [
    column('row', 'number'),
    ...file.columns.flatMap((c): Column[] =>
      c === expanded
        ? slots
        : [{ key: `c${c.entry.index}`, title: c.shadowed ? `${c.entry.name} (hidden)` : c.entry.name, type: columnKind(c), description: describe(c) }],
    ),
  ];
}

function rowAt(file: IdvFile, w: RowWindow, r: number, { expanded, first, last }: SlotWindow, keyNames: Map<number, string[]>, reading: Reading): Row {
  const cells: Cell[] = [r];
  let mark: Row['mark'];
  for (const c of file.columns) {
    const i = c.entry.index;
    if (c.type.kind === 'dead') {
      cells.push({ text: 'unreadable', title: c.type.reason, mark: 'warn' });
      continue;
    }
    const got = w.value(i, r);
    if (got instanceof FormatError) {
      // A block that fails to decode has no value to show, not even "anyway": no SHOW_DAMAGED here.
      mark = 'error';
      const cell = failedCell(got);
      if (c === expanded) for (let s = first; s < last; s++) cells.push(cell);
      else cells.push(cell);
      continue;
    }
    if (c === expanded) cells.push(...slotCells(got, c.type as ColumnType & { kind: 'vector' }, first, last));
    else cells.push(cellOf(got, c.type, keyNames.get(i), reading));
  }
  return { cells, mark };
}

/** A cell of a block that could not be read: damaged, or past a cap this reader sets. */
function failedCell(e: FormatError): Cell {
  return isDamage(e) ? damagedCell(e.message) : { text: 'unreadable block', title: e.message, mark: 'error' };
}

function columnKind(c: IdvColumn): Column['type'] {
  const t = c.type;
  if (t.kind === 'dead') return 'text';
  const item = t.kind === 'vector' ? t.item : t;
  if (item.kind === 'key') return 'number';
  if (['bool', 'bool2'].includes(item.scalar)) return t.kind === 'vector' ? 'text' : 'bool';
  if (['text', 'dt', 'dz', 'ts', 'rowid'].includes(item.scalar)) return 'text';
  return t.kind === 'vector' ? 'text' : 'number';
}

function describe(c: IdvColumn): string {
  const t = typeText(c.type, c.entry.codec);
  const parts = [t];
  if (c.shadowed) parts.push('hidden: a later column has the same name');
  if (c.type.kind === 'dead') parts.push(`unreadable: ${c.type.reason}`);
  parts.push(...c.notes);
  return parts.join('; ');
}

/** KeyValues of every key column that has them, for showing keys by name. */
async function keyValueNames(file: IdvFile): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  for (const c of file.columns) {
    const item = c.type.kind === 'vector' ? c.type.item : c.type;
    if (item.kind !== 'key' || c.entry.metadataTocOffset === 0) continue;
    const names = await file.metadataStrings(c.entry.index, 'KeyValues');
    if (names) out.set(c.entry.index, names);
  }
  return out;
}

function itemCell(v: Value, item: ItemType, na: boolean, keyNames: string[] | undefined, reading: Reading): Cell {
  if (na)
    return reading === 'legacy'
      ? { text: 'NA', title: NA_NOTE, mark: 'null' }
      : { text: itemText(v, item) || '""', title: `${NA_NOTE}; today's ML.NET reads it as this value`, mark: 'warn' };
  if (item.kind === 'key') {
    const raw = typeof v === 'bigint' ? v : BigInt(v as number);
    if (raw === 0n) return { text: '—', title: 'key 0: missing', mark: 'null' };
    const name = keyNames?.[Number(raw - 1n)];
    const key = item.min === 0n ? '' : ` = key ${item.min + raw - 1n}`;
    return name !== undefined ? { text: name, title: `raw value ${raw}${key}` } : { text: String(raw), title: key ? `raw value ${raw}${key}` : undefined };
  }
  if (item.scalar === 'bool' || item.scalar === 'bool2') return v as boolean;
  if (item.scalar === 'text') return v as string;
  if (item.scalar === 'f32' || item.scalar === 'f64') return { text: itemText(v, item) };
  if (item.scalar === 'dt' || item.scalar === 'ts' || item.scalar === 'dz') {
    const ticks = typeof v === 'bigint' ? v : (v as { ticks: bigint }).ticks;
    return { text: itemText(v, item), title: `${ticks} ticks` };
  }
  return v as number | bigint;
}

function cellOf(got: ReadValue, t: ColumnType, keyNames: string[] | undefined, reading: Reading): Cell {
  if (got.value === null) return { text: 'NA', title: NA_NOTE, mark: 'null' };
  if (t.kind !== 'vector') return itemCell(got.value, t, got.na, keyNames, reading);
  const v = got.value as VectorValue;
  const text = vectorPreview(v, t.item);
  return {
    text,
    title: text.length > 60 || got.na ? `${got.na ? `${NA_NOTE} (some items)\n` : ''}${vectorPreview(v, t.item, 64)}` : undefined,
    mark: got.na ? 'warn' : undefined,
  };
}

function slotCells(got: ReadValue, t: ColumnType & { kind: 'vector' }, first: number, last: number): Cell[] {
  const v = got.value as VectorValue | null;
  const out: Cell[] = [];
  if (v === null) {
    for (let s = first; s < last; s++) out.push({ text: 'NA', mark: 'null' });
    return out;
  }
  const fill = defaultValue(t.item);
  let k = v.indices ? lowerBound(v.indices, first) : first;
  for (let s = first; s < last; s++) {
    let x: Value;
    if (!v.indices) x = v.values[s] ?? fill;
    else if (v.indices[k] === s) x = v.values[k++]!;
    else x = fill;
    out.push(x === null ? { text: 'NA', mark: 'null' } : itemCell(x, t.item, false, undefined, 'modern'));
  }
  return out;
}

function lowerBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
