/**
 * The parts of `binlens diff` that several families share: reading a document's decoded content
 * as lines pulled one at a time (so two files walk side by side in bounded memory), counting
 * differences, naming which file a failure came from, and the row diff of the tabular families
 * (IDV, bindu). Families import this module, never ops/diff.ts (which imports the registry).
 */
import { FormatError } from '../errors.js';
import { checkKeyColumn, diffRowsByKey } from './keyedRows.js';
import type { CatFormat, Difference, DiffOptions, DiffSpec, DiffSummary, FormatDocument, TaskContext } from '../model.js';

/** Which of the two files: A (the first argument) or B. */
export type DiffSide = 'A' | 'B';

/** A failure while reading one side of a diff: the CLI names that file with the located error. */
export class DiffSideError extends Error {
  override readonly name = 'DiffSideError';
  constructor(
    readonly side: DiffSide,
    readonly error: unknown,
  ) {
    super(error instanceof Error ? error.message : String(error));
  }
}

/** Runs `work` for one side, tagging what it throws with that side. */
export async function onSide<T>(side: DiffSide, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw e instanceof DiffSideError ? e : new DiffSideError(side, e);
  }
}

/** Counts differences by kind, listed or only counted alike. */
export class Tally {
  private readonly counts: Record<string, number> = {};
  private total = 0;

  add(kind: string, n = 1): void {
    if (n <= 0) return;
    this.counts[kind] = (this.counts[kind] ?? 0) + n;
    this.total += n;
  }

  /** Counts something that is not a difference (shared chunks, bytes in common). */
  note(kind: string, n: number): void {
    this.counts[kind] = (this.counts[kind] ?? 0) + n;
  }

  summary(): DiffSummary {
    return { differences: this.total, counts: { ...this.counts } };
  }
}

/**
 * Lines of text a producer writes, pulled one at a time: the producer waits at each write until
 * its chunk is taken, so a multi-GB output never piles up. Stopping early makes the producer's
 * next write throw 'cancelled', which ends it.
 */
export async function* pullLines(side: DiffSide, produce: (write: (chunk: Uint8Array | string) => Promise<void>) => Promise<void>): AsyncGenerator<string> {
  const queue: (Uint8Array | string)[] = [];
  let finished = false;
  let failure: { error: unknown } | undefined;
  let closed = false;
  let wake: (() => void) | undefined;
  let release: (() => void) | undefined;
  const write = (chunk: Uint8Array | string): Promise<void> => {
    if (closed) return Promise.reject(new FormatError('cancelled', 'the diff stopped reading'));
    queue.push(chunk);
    wake?.();
    return new Promise<void>((resolve) => (release = resolve));
  };
  const running = produce(write).then(
    () => {
      finished = true;
      wake?.();
    },
    (error: unknown) => {
      failure = { error };
      wake?.();
    },
  );
  const decoder = new TextDecoder();
  let rest = '';
  try {
    for (;;) {
      if (queue.length === 0 && !finished && !failure) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      const chunk = queue.shift();
      if (chunk !== undefined) {
        // Decoded before the producer is let go: it may reuse its buffer after the write returns.
        const text = rest + (typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
        const r = release;
        release = undefined;
        r?.();
        let start = 0;
        for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
          yield text.slice(start, nl);
          start = nl + 1;
        }
        rest = text.slice(start);
        continue;
      }
      if (failure) throw new DiffSideError(side, failure.error);
      if (finished) {
        rest += decoder.decode();
        if (rest !== '') yield rest;
        return;
      }
    }
  } finally {
    if (!finished && !failure) {
      closed = true;
      release?.();
      await running;
    }
  }
}

/**
 * A document's `cat` output as lines, read strictly: damaged data throws (DamagedDataError, tagged
 * with its side), so a diff never compares damaged values.
 */
export function catLines(side: DiffSide, doc: FormatDocument, format: CatFormat, ctx: TaskContext): AsyncGenerator<string> {
  const cat = doc.cat;
  if (!cat) {
    // What opening found wrong says why, and where.
    const why = doc.warnings.find((w) => w.status === 'fail');
    const detail = `${doc.title}: its content cannot be decoded${why ? `: ${why.detail}` : ''}`;
    throw new DiffSideError(side, new FormatError('unsupported', detail, { offset: why?.offset, field: why?.name }));
  }
  return pullLines(side, (write) => cat.run(format, {}, { write }, { signal: ctx.signal }));
}

/** The next value of each generator, side by side, until both end. */
export async function* zip<T>(a: AsyncIterator<T>, b: AsyncIterator<T>): AsyncGenerator<[T | undefined, T | undefined]> {
  let doneA = false;
  let doneB = false;
  for (;;) {
    const ra: IteratorResult<T> | undefined = doneA ? undefined : await a.next();
    const rb: IteratorResult<T> | undefined = doneB ? undefined : await b.next();
    doneA ||= ra?.done === true;
    doneB ||= rb?.done === true;
    if (doneA && doneB) return;
    yield [doneA ? undefined : (ra!.value as T), doneB ? undefined : (rb!.value as T)];
  }
}

/** A column as a schema diff sees it: its name and a text that changes when its type does. */
export interface SchemaColumn {
  readonly name: string;
  readonly type: string;
}

/** Columns removed, added and retyped, matched by name. */
export function* diffSchema(a: readonly SchemaColumn[], b: readonly SchemaColumn[], tally: Tally): Generator<Difference> {
  const inB = new Map(b.map((c) => [c.name, c]));
  const inA = new Map(a.map((c) => [c.name, c]));
  for (const c of a) {
    const other = inB.get(c.name);
    if (!other) {
      tally.add('column-removed');
      yield { kind: 'column-removed', at: `column ${c.name}`, text: `removed (${c.type})`, data: { column: c.name, type: c.type } };
    } else if (other.type !== c.type) {
      tally.add('column-retyped');
      yield { kind: 'column-retyped', at: `column ${c.name}`, text: `${c.type} → ${other.type}`, data: { column: c.name, a: c.type, b: other.type } };
    }
  }
  for (const c of b) {
    if (inA.has(c.name)) continue;
    tally.add('column-added');
    yield { kind: 'column-added', at: `column ${c.name}`, text: `added (${c.type})`, data: { column: c.name, type: c.type } };
  }
}

/** How many differing rows are listed with their cells; the rest are counted. */
export const ROWS_SHOWN = 20;

/**
 * Rows that differ by position (row numbers from 0, as `cat --from` counts), given as one JSON
 * object per line: the first `shown` with their differing cells, the rest counted; then the rows
 * only one file has.
 */
export async function* diffRowLines(a: AsyncGenerator<string>, b: AsyncGenerator<string>, tally: Tally, shown = ROWS_SHOWN): AsyncGenerator<Difference> {
  let row = 0;
  let listed = 0;
  let onlyA = 0;
  let onlyB = 0;
  let firstOnly = -1;
  for await (const [la, lb] of zip(a, b)) {
    if (la === undefined || lb === undefined) {
      if (firstOnly < 0) firstOnly = row;
      if (la === undefined) onlyB++;
      else onlyA++;
    } else if (la !== lb) {
      tally.add('row-changed');
      if (listed < shown) {
        listed++;
        const cells = differingCells(JSON.parse(la) as Record<string, unknown>, JSON.parse(lb) as Record<string, unknown>);
        const text = Object.entries(cells)
          .map(([k, [va, vb]]) => `${k}: ${show(va)} → ${show(vb)}`)
          .join(', ');
        const data = Object.fromEntries(
          Object.entries(cells).map(([k, [va, vb]]) => [k, { ...(va === undefined ? {} : { a: va }), ...(vb === undefined ? {} : { b: vb }) }]),
        );
        yield { kind: 'row-changed', at: `row ${row}`, text, data: { row, cells: data } };
      }
    }
    row++;
  }
  const more = (tally.summary().counts['row-changed'] ?? 0) - listed;
  if (more > 0)
    yield { kind: 'not-shown', at: 'rows', text: `${more} more changed ${more === 1 ? 'row' : 'rows'} not listed`, data: { of: 'row-changed', count: more } };
  yield* rowsOnlyIn('A', firstOnly, onlyA, tally);
  yield* rowsOnlyIn('B', firstOnly, onlyB, tally);
}

/** The `count` rows from `from` on that only one file has: removed when that is A, added when B. */
function* rowsOnlyIn(side: DiffSide, from: number, count: number, tally: Tally): Generator<Difference> {
  if (count <= 0) return;
  const change = side === 'A' ? 'removed' : 'added';
  tally.add(`row-${change}`, count);
  yield {
    kind: `rows-${change}`,
    at: `rows ${from}–${from + count - 1}`,
    text: `${count} ${count === 1 ? 'row' : 'rows'} only in ${side}`,
    data: { from, count },
  };
}

/** The cells of two rows that differ, by column name (a column only one row has is undefined on the other side). */
function differingCells(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const va = a[k];
    const vb = b[k];
    if (JSON.stringify(va) !== JSON.stringify(vb)) out[k] = [va, vb];
  }
  return out;
}

/** A value for a text line, cut short: a vector cell can be long. */
export function show(v: unknown): string {
  const s = v === undefined ? 'absent' : JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
}

/** One side of a tabular diff: the document (its `cat` prints JSON lines) and its columns. */
export interface TableSide {
  readonly doc: FormatDocument;
  readonly schema: readonly SchemaColumn[];
}

/**
 * The tabular families' diff (IDV, bindu): schema changes first, then what the family adds
 * (`more`: bindu's metadata), then rows by position, or matched by the `key` column's value
 * (keyedRows.ts).
 */
export async function* diffTables(
  a: TableSide,
  b: TableSide,
  ctx: TaskContext,
  more?: (tally: Tally) => AsyncIterable<Difference>,
  options: DiffOptions = {},
): AsyncGenerator<Difference, DiffSummary> {
  const tally = new Tally();
  const { key } = options;
  if (key !== undefined) {
    checkKeyColumn(
      'A',
      a.schema.map((c) => c.name),
      key,
    );
    checkKeyColumn(
      'B',
      b.schema.map((c) => c.name),
      key,
    );
  }
  yield* diffSchema(a.schema, b.schema, tally);
  if (more) yield* more(tally);
  if (key === undefined) yield* diffRowLines(catLines('A', a.doc, 'jsonl', ctx), catLines('B', b.doc, 'jsonl', ctx), tally);
  else
    yield* diffRowsByKey(
      () => catLines('A', a.doc, 'jsonl', ctx),
      () => catLines('B', b.doc, 'jsonl', ctx),
      key,
      tally,
      ctx,
    );
  return tally.summary();
}

/** What a family adds between the schema and the rows (bindu: its metadata), given the other document. */
export type TableExtras = (other: FormatDocument, tally: Tally, ctx: TaskContext) => AsyncIterable<Difference>;

/**
 * The tabular families' DiffSpec: a document compares only with another of its family (`family`
 * names it in the refusal, "an IDV file"), by `diffTables`.
 */
export class TableDiff implements DiffSpec {
  readonly keyed = true;

  constructor(
    private readonly family: string,
    private readonly doc: FormatDocument,
    private readonly schema: readonly SchemaColumn[],
    private readonly extras?: TableExtras,
  ) {}

  run(other: FormatDocument, ctx: TaskContext, options?: DiffOptions): AsyncGenerator<Difference, DiffSummary> {
    const theirs = other.diff;
    if (!(theirs instanceof TableDiff) || theirs.family !== this.family) throw new DiffSideError('B', new FormatError('unsupported', `not ${this.family}`));
    const extras = this.extras;
    return diffTables(
      { doc: this.doc, schema: this.schema },
      { doc: other, schema: theirs.schema },
      ctx,
      extras && ((tally) => extras(other, tally, ctx)),
      options,
    );
  }
}
