/**
 * How a family declares a table: its columns, the paging over a list it already holds (frames,
 * chunks, assets, schema columns), and the choices shown above it. Every family pages such lists
 * alike, so the paging lives here once and a family writes only the row of one item.
 */
import type { Column, ColumnType, OptionSpec, Row, Table } from './model.js';

/** A column; its title is its key unless another is given. */
export function column(key: string, type: ColumnType, title = key, description?: string): Column {
  return description === undefined ? { key, title, type } : { key, title, type, description };
}

/** A table over a list held in memory: complete from the start, a page is the rows of its slice. */
export type ListTableSpec<T> = Omit<Table, 'rowCount' | 'page' | 'count' | 'countIndexes'> & {
  readonly items: readonly T[];
  /** The row of `items[index]`; a promise where showing it waits for a check (a CRC computed on view). */
  row(item: T, index: number, signal?: AbortSignal): Row | Promise<Row>;
};

export function listTable<T>({ items, row, ...table }: ListTableSpec<T>): Table {
  return {
    ...table,
    rowCount: () => ({ known: items.length, complete: true }),
    // Async, so a row that throws rejects the page as a row that waits would.
    page: async (from, count, signal) => Promise.all(items.slice(from, from + count).map((item, k) => row(item, from + k, signal))),
  };
}

/**
 * A choice input, its choices as value → label in the order shown, the first the default. Values
 * that look like array indices would be reordered by the object: list those as `choices` by hand.
 */
export function choiceParam(key: string, label: string, choices: Readonly<Record<string, string>>, description?: string): OptionSpec {
  const list = Object.entries(choices).map(([value, label]) => ({ value, label }));
  const param: OptionSpec = { key, label, type: 'choice', default: list[0]!.value, choices: list };
  return description === undefined ? param : { ...param, description };
}
