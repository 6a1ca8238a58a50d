/**
 * Rows matched by the value of a key column (`binlens diff --key COLUMN`), for the tabular
 * families (IDV, bindu), whose `cat` prints one JSON object per row.
 *
 * A first pass over both files learns whether each is sorted by the key and what holding its rows
 * would cost. Both sorted: a merge walk holds one row of each file. Otherwise a hash join holds
 * the smaller file's rows and the other file's keys (to catch a repeated key), and refuses before
 * printing a row when that would pass `HOLD_CAP_BYTES`. Each file is read twice either way:
 * the price of never holding a multi-GB file and of never retracting a printed line.
 *
 * A key that repeats within one file leaves "which row is which" open, so it is an error, not a
 * guess. Differences: `row-changed` (its differing cells), `row-removed` (only in A) and
 * `row-added` (only in B), the first `ROWS_SHOWN` of each listed, the rest counted.
 */
import { FormatError, throwIfAborted } from '../errors.js';
import type { Difference, TaskContext } from '../model.js';
import { DiffSideError, ROWS_SHOWN, show, type DiffSide, type Tally } from './diffKit.js';

/** What a hash join may hold: the smaller file's rows (as text) and the other file's keys. */
export const HOLD_CAP_BYTES = 256 * 2 ** 20;

/** Lines of `cat --format jsonl`, one side of the diff; called once per pass. */
export type RowLines = () => AsyncGenerator<string>;

/** A key value with its identity (equal keys, equal ids) and its place in the order keys are sorted by. */
interface Key {
  readonly id: string;
  /** null < numbers < text < anything else (booleans, vectors): one total order over every key. */
  readonly rank: 0 | 1 | 2 | 3;
  readonly num?: number | bigint;
  readonly text?: string;
}

interface Row {
  readonly key: Key;
  /** Row number from 0, as `cat --from` counts. */
  readonly row: number;
  readonly cells: Record<string, unknown>;
  /** The length of its JSON line. */
  readonly chars: number;
}

/** 64-bit integers travel as decimal strings (the JSON convention of every family); in canonical form they order as numbers. */
const INTEGER_TEXT = /^-?(0|[1-9]\d*)$/;

export function keyOf(value: unknown): Key {
  if (value === null || value === undefined) return { id: 'null', rank: 0 };
  if (typeof value === 'number') return { id: String(value), rank: 1, num: value };
  if (typeof value === 'string')
    return INTEGER_TEXT.test(value) ? { id: value, rank: 1, num: BigInt(value) } : { id: JSON.stringify(value), rank: 2, text: value };
  return { id: JSON.stringify(value), rank: 3 };
}

export function compareKeys(a: Key, b: Key): number {
  if (a.rank !== b.rank) return a.rank - b.rank;
  if (a.rank === 1) return a.num! < b.num! ? -1 : a.num! > b.num! ? 1 : 0;
  // Text by its UTF-16 code units, as JavaScript sorts; not by the JSON ids, whose closing quote
  // would put "a!" before "a".
  const [x, y] = a.rank === 2 ? [a.text!, b.text!] : [a.id, b.id];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** How a key reads in a difference's `at`: the value as JSON, a 64-bit integer without its quotes. */
function keyText(k: Key): string {
  return k.rank === 1 ? k.id : show(JSON.parse(k.id));
}

async function* rows(lines: RowLines, column: string): AsyncGenerator<Row> {
  let row = 0;
  for await (const line of lines()) {
    const cells = JSON.parse(line) as Record<string, unknown>;
    yield { key: keyOf(cells[column]), row: row++, cells, chars: line.length };
  }
}

function repeated(side: DiffSide, column: string, key: Key, first: number | undefined, again: number): DiffSideError {
  const where = first === undefined ? `row ${again}` : `rows ${first} and ${again}`;
  return new DiffSideError(
    side,
    new FormatError('bad-input', `the key ${keyText(key)} is in ${where}: a key column must name each row once`, { field: `column ${column}` }),
  );
}

/** What the first pass learns about one file. */
interface Survey {
  /** The first row out of order, undefined when the file is sorted by the key. */
  readonly unsorted?: { row: number; key: Key; after: Key };
  readonly rows: number;
  /** What holding every row would take (UTF-16 text and per-entry overhead), and holding only the keys. */
  readonly rowBytes: number;
  readonly keyBytes: number;
}

const ENTRY_BYTES = 96;

async function survey(side: DiffSide, lines: RowLines, column: string, signal: AbortSignal | undefined): Promise<Survey> {
  let prev: Row | undefined;
  let unsorted: Survey['unsorted'];
  let count = 0;
  let rowBytes = 0;
  let keyBytes = 0;
  for await (const r of rows(lines, column)) {
    throwIfAborted(signal);
    count++;
    rowBytes += 2 * (r.chars + r.key.id.length) + ENTRY_BYTES;
    keyBytes += 2 * r.key.id.length + ENTRY_BYTES;
    if (prev && !unsorted) {
      const c = compareKeys(prev.key, r.key);
      if (c === 0) throw repeated(side, column, r.key, prev.row, r.row);
      if (c > 0) unsorted = { row: r.row, key: r.key, after: prev.key };
    }
    prev = r;
  }
  return { unsorted, rows: count, rowBytes, keyBytes };
}

/** Lists the first ROWS_SHOWN differences of each kind and counts every one. */
class Lister {
  private readonly listed: Record<string, number> = {};
  constructor(private readonly tally: Tally) {}

  *emit(kind: 'row-changed' | 'row-removed' | 'row-added', make: () => Difference): Generator<Difference> {
    this.tally.add(kind);
    const n = (this.listed[kind] = (this.listed[kind] ?? 0) + 1);
    if (n <= ROWS_SHOWN) yield make();
  }

  *notShown(): Generator<Difference> {
    for (const kind of ['row-changed', 'row-removed', 'row-added']) {
      const more = (this.listed[kind] ?? 0) - ROWS_SHOWN;
      if (more > 0)
        yield {
          kind: 'not-shown',
          at: 'rows',
          text: `${more} more ${kind.replace('row-', '')} ${more === 1 ? 'row' : 'rows'} not listed`,
          data: { of: kind, count: more },
        };
    }
  }
}

function* compare(a: Row, b: Row, list: Lister): Generator<Difference> {
  const cells: Record<string, { a?: unknown; b?: unknown }> = {};
  const parts: string[] = [];
  for (const k of new Set([...Object.keys(a.cells), ...Object.keys(b.cells)])) {
    const va = a.cells[k];
    const vb = b.cells[k];
    if (JSON.stringify(va) === JSON.stringify(vb)) continue;
    cells[k] = { ...(va === undefined ? {} : { a: va }), ...(vb === undefined ? {} : { b: vb }) };
    parts.push(`${k}: ${show(va)} → ${show(vb)}`);
  }
  if (parts.length === 0) return;
  yield* list.emit('row-changed', () => ({
    kind: 'row-changed',
    at: `key ${keyText(a.key)}`,
    text: `${parts.join(', ')} (rows ${a.row} → ${b.row})`,
    data: { key: keyValue(a.key), rowA: a.row, rowB: b.row, cells },
  }));
}

function keyValue(k: Key): unknown {
  // 64-bit integers stay decimal strings in JSON, as `cat` prints them; numbers stay numbers.
  if (k.rank === 1) return typeof k.num === 'bigint' ? k.id : k.num;
  return JSON.parse(k.id);
}

function* only(side: DiffSide, r: Row, list: Lister): Generator<Difference> {
  const kind = side === 'A' ? 'row-removed' : 'row-added';
  yield* list.emit(kind, () => ({ kind, at: `key ${keyText(r.key)}`, text: `only in ${side} (row ${r.row})`, data: { key: keyValue(r.key), row: r.row } }));
}

async function* mergeWalk(a: RowLines, b: RowLines, column: string, list: Lister): AsyncGenerator<Difference> {
  const ia = rows(a, column);
  const ib = rows(b, column);
  let ra = await ia.next();
  let rb = await ib.next();
  while (!ra.done || !rb.done) {
    const c = ra.done ? 1 : rb.done ? -1 : compareKeys(ra.value.key, rb.value.key);
    if (c < 0) {
      yield* only('A', ra.value as Row, list);
      ra = await ia.next();
    } else if (c > 0) {
      yield* only('B', rb.value as Row, list);
      rb = await ib.next();
    } else {
      yield* compare(ra.value as Row, rb.value as Row, list);
      ra = await ia.next();
      rb = await ib.next();
    }
  }
}

/** Holds `held`'s rows, streams `streamed`'s: differences in the streamed file's order, then the held file's unmatched rows. */
async function* hashJoin(
  held: { side: DiffSide; lines: RowLines },
  streamed: { side: DiffSide; lines: RowLines },
  column: string,
  list: Lister,
): AsyncGenerator<Difference> {
  const table = new Map<string, Row>();
  for await (const r of rows(held.lines, column)) {
    const before = table.get(r.key.id);
    if (before) throw repeated(held.side, column, r.key, before.row, r.row);
    table.set(r.key.id, r);
  }
  const seen = new Map<string, number>();
  for await (const r of rows(streamed.lines, column)) {
    const before = seen.get(r.key.id);
    if (before !== undefined) throw repeated(streamed.side, column, r.key, before, r.row);
    seen.set(r.key.id, r.row);
    const match = table.get(r.key.id);
    if (!match) {
      yield* only(streamed.side, r, list);
      continue;
    }
    table.delete(r.key.id);
    yield* streamed.side === 'A' ? compare(r, match, list) : compare(match, r, list);
  }
  for (const r of table.values()) yield* only(held.side, r, list);
}

function describeOrder(side: DiffSide, s: Survey): string {
  return s.unsorted ? `${side} is not (row ${s.unsorted.row}: ${keyText(s.unsorted.key)} after ${keyText(s.unsorted.after)})` : `${side} is`;
}

/** A key column one file lacks: an error (exit 2) naming the columns it has, before anything is compared. */
export function checkKeyColumn(side: DiffSide, columns: readonly string[], column: string): void {
  if (!columns.includes(column))
    throw new DiffSideError(side, new FormatError('bad-input', `no column "${column}" to match rows by (columns: ${columns.join(', ')})`, { field: '--key' }));
}

/** The keyed row diff of two files whose columns checkKeyColumn has checked. */
export async function* diffRowsByKey(
  a: RowLines,
  b: RowLines,
  column: string,
  tally: Tally,
  ctx: TaskContext,
  cap = HOLD_CAP_BYTES,
): AsyncGenerator<Difference> {
  const sa = await survey('A', a, column, ctx.signal);
  const sb = await survey('B', b, column, ctx.signal);
  const list = new Lister(tally);
  if (!sa.unsorted && !sb.unsorted) yield* mergeWalk(a, b, column, list);
  else {
    const holdA = sa.rowBytes + sb.keyBytes <= sb.rowBytes + sa.keyBytes;
    const need = holdA ? sa.rowBytes + sb.keyBytes : sb.rowBytes + sa.keyBytes;
    if (need > cap) {
      const mib = (n: number) => `${Math.ceil(n / 2 ** 20)} MiB`;
      throw new FormatError(
        'limit',
        `rows by key: ${describeOrder('A', sa)} sorted by "${column}", ${describeOrder('B', sb)}; matching unsorted rows would hold about ${mib(need)} (the ${holdA ? 'A' : 'B'} file's ${holdA ? sa.rows : sb.rows} rows), over the ${mib(cap)} cap: sort both files by "${column}" for a streaming merge, or compare by position`,
        { field: '--key' },
      );
    }
    yield* holdA
      ? hashJoin({ side: 'A', lines: a }, { side: 'B', lines: b }, column, list)
      : hashJoin({ side: 'B', lines: b }, { side: 'A', lines: a }, column, list);
  }
  yield* list.notShown();
}
