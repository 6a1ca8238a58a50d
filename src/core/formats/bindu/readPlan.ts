import { reportDamage, reportOmitted, damageFrom } from '../../integrity.js';
import { rethrowUnlessFormatError, throwIfAborted } from '../../errors.js';
import { yieldToEventLoop } from '../../io/scan.js';
import type { ByteRange, TaskContext } from '../../model.js';
import type { FrameChecks } from './checks.js';
import { ChunkReader, type ColumnView } from './columns.js';
import type { Container } from './container.js';
import { FLAG_SKIPPABLE, FOOTER_FRAME_BYTES, FRAME_HEADER_BYTES, FrameType, frameLength, frameTypeName, type ChunkEntry, type FrameHeader } from './model.js';
import { notUnderstood } from './verify.js';
import type { Value } from './values.js';

/**
 * What `cat` and the conversions may output, decided before any row leaves (issue 17). Every
 * frame's CRC-32C and Merkle leaf, the preamble's leaf and the file checksum are checked first;
 * each failure goes through `reportDamage`, which stops a strict read and, when salvaging, turns
 * the damaged column into nulls (the rows stay whole). A critical frame this reader does not
 * understand stops a strict decoder (spec C.2); salvage reports it and reads on. A column that
 * only describes itself is left out by design and named (`reportOmitted`), which is not damage.
 * Where the file ends early, the rows of its complete frames are written first and the
 * truncation is reported after them (`reportEnd`).
 */
export interface OutputColumn {
  /** Absent when the Column frame does not parse: the column is all null, named by its place. */
  readonly view?: ColumnView;
  /** Its place among the Column frames, which is its column_id (spec C.4). */
  readonly index: number;
  /** Its output name; a damaged frame's own name is not trusted (see `trustedName`). */
  readonly name: string;
  /** Why its values are not written (salvage): its frame or its dictionary failed a check. */
  readonly damaged?: string;
}

export interface ReadPlan {
  readonly columns: readonly OutputColumn[];
  readonly rows: number;
}

/** How the damage list names a frame: its index in file order and what it holds. */
export function frameUnit(c: Container, f: FrameHeader): string {
  const i = c.frames.indexOf(f);
  const col = c.columns.find((x) => x.frame === f);
  const dict = c.dictionaries.find((d) => d.offset === f.offset);
  // A Column frame that does not parse is named by its place, which is its column_id (spec C.4).
  const place = c.frames.filter((x) => x.type === FrameType.Column).indexOf(f);
  const unparsed = place >= 0 ? (c.schema?.leaves.find((l) => l.id === place)?.name ?? `#${place}`) : undefined;
  const what = col
    ? `column ${col.name || `#${col.id}`}`
    : unparsed !== undefined
      ? `column ${unparsed}`
      : dict
        ? `dictionary ${dict.id}`
        : frameTypeName(f.type);
  return `frame ${i} (${what})`;
}

const frameRange = (f: FrameHeader): ByteRange => ({ offset: f.offset, length: frameLength(f) });

/** Checks every frame in file order and reports the ones a read path cannot trust; their offsets. */
async function reportFrames(c: Container, checks: FrameChecks, headerRows: number | undefined, ctx: TaskContext): Promise<Set<number>> {
  const bad = new Set<number>();
  // One read of the file for every check below; they then read what it settled.
  const sum = await checks.checkInOnePass(ctx);
  for (const f of c.frames) {
    throwIfAborted(ctx.signal);
    const col = c.columns.find((x) => x.frame === f);
    const count = col ? col.rowCount : f.type === FrameType.Column ? headerRows : undefined;
    const rows = count === undefined ? undefined : { from: 0, count };
    const checkFailed = await checks.problem(f, ctx);
    const problem = c.problems.get(f.offset);
    if (checkFailed) {
      reportDamage(ctx, { unit: frameUnit(c, f), detail: checkFailed, range: frameRange(f), rows });
    } else if (notUnderstood(f) && !(f.flags & FLAG_SKIPPABLE)) {
      reportDamage(ctx, {
        unit: frameUnit(c, f),
        detail: `${frameTypeName(f.type)} frame is critical and not understood: a strict decoder stops here`,
        range: frameRange(f),
        offset: f.offset,
        code: 'corrupt',
      });
      continue;
    } else if (problem) {
      reportDamage(ctx, damageFrom(frameUnit(c, f), problem, { range: frameRange(f), rows }));
    } else {
      continue;
    }
    bad.add(f.offset);
  }
  const preamble = await checks.leafProblem(0, c.preamble.size, ctx);
  if (preamble) {
    reportDamage(ctx, { unit: 'preamble', detail: preamble, range: { offset: 0, length: c.preamble.size } });
    bad.add(0);
  }
  if (c.footer && bad.size === 0) {
    // Every frame passed, so no unit can be named: the whole file is reported.
    if (sum?.kind === 'computed' && !sum.ok) {
      const why = c.unread.length
        ? `bytes ${c.unread.map((u) => `${u.offset}–${u.offset + u.length}`).join(', ')} could not be read as frames`
        : 'although the CRC-32C of every frame holds';
      reportDamage(ctx, {
        unit: 'file',
        detail: `the ${sum.name} file checksum of bytes [0, ${c.footer.offset}) differs from the footer's; ${why}`,
        range: { offset: 0, length: c.footer.offset },
        offset: c.footer.offset + FRAME_HEADER_BYTES + 32,
      });
    }
  }
  return bad;
}

/** A damaged column's name from the schema when that is intact; its frame's own name may be the damaged byte. */
function trustedName(c: Container, index: number, bad: ReadonlySet<number>): string {
  const schemaOk = c.schema && c.schemaFrame && !bad.has(c.schemaFrame.offset);
  return (schemaOk ? c.schema!.leaves.find((l) => l.id === index)?.name : undefined) ?? `#${index}`;
}

/** The Header's row count, unless its frame fails a check. */
async function headerRowCount(c: Container, checks: FrameChecks, ctx: TaskContext): Promise<number | undefined> {
  const f = c.frames.find((x) => x.type === FrameType.Header);
  if (!c.header || !f || (await checks.problem(f, ctx)) || c.header.rowCount > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  return Number(c.header.rowCount);
}

export async function planRead(c: Container, views: readonly ColumnView[], checks: FrameChecks, ctx: TaskContext): Promise<ReadPlan> {
  const headerRows = await headerRowCount(c, checks, ctx);
  const bad = await reportFrames(c, checks, headerRows, ctx);
  const columns: OutputColumn[] = [];
  const trusted: number[] = [];
  for (const [i, f] of c.frames.filter((x) => x.type === FrameType.Column).entries()) {
    const v = views.find((x) => x.column.frame === f);
    if (!v) {
      // The frame does not parse (reported above): the rows stay whole with this column null.
      columns.push({ index: i, name: trustedName(c, i, bad), damaged: c.problems.get(f.offset)?.detail ?? 'the Column frame does not parse' });
      continue;
    }
    const col = v.column;
    const rows = { from: 0, count: col.rowCount };
    const damaged = await checks.columnProblem(v, ctx);
    if (damaged) {
      // The frame itself was reported above; a column whose dictionary is damaged is reported here.
      if (!bad.has(col.frame.offset)) reportDamage(ctx, { unit: `column ${col.name || `#${col.id}`}`, detail: damaged, range: frameRange(col.frame), rows });
      columns.push({ view: v, index: i, name: trustedName(c, i, bad), damaged });
      continue;
    }
    trusted.push(col.rowCount);
    if (v.byDesign) {
      reportOmitted(ctx, `column ${col.name || `#${col.id}`} (${v.byDesign}): not decodable`);
      continue;
    }
    if (v.undecodable) {
      reportDamage(ctx, {
        unit: `column ${col.name || `#${col.id}`}`,
        detail: v.undecodable,
        range: frameRange(col.frame),
        rows,
        offset: col.frame.offset,
        code: 'corrupt',
      });
      columns.push({ view: v, index: i, name: col.name || `#${col.id}`, damaged: v.undecodable });
      continue;
    }
    columns.push({ view: v, index: i, name: col.name || `#${col.id}` });
  }
  return { columns: uniqueNames(columns), rows: trusted.length ? Math.max(...trusted) : (headerRows ?? 0) };
}

/** A repeated name stays on the last column; earlier ones become `name#id` (as `outputNames`). */
function uniqueNames(columns: readonly OutputColumn[]): OutputColumn[] {
  return columns.map((col, i) =>
    columns.slice(i + 1).some((x) => x.name === col.name) ? { ...col, name: `${col.name}#${col.view?.column.id ?? col.index}` } : col,
  );
}

/**
 * After the rows: bytes the frame walk could not read (a file cut inside a frame, a broken frame
 * header), and a file that ends without its footer, lost whatever frames they held (spec C.12:
 * the incomplete frame is named with its offset, its declared length and the bytes present).
 */
export function reportEnd(c: Container, size: number, ctx: TaskContext): void {
  const h = c.header;
  const lost = h && h.columnCount > c.columns.length ? `; the Header declares ${h.columnCount} columns, ${c.columns.length} Column frames are complete` : '';
  for (const u of c.unread) {
    const e = u.error;
    const what = e.code === 'truncated' && u.offset + u.length === size ? `truncated at offset ${u.offset}` : `no frame can be read at offset ${u.offset}`;
    const unit = u.offset + u.length === size ? 'incomplete last frame' : 'unreadable frames';
    reportDamage(ctx, {
      unit,
      detail: `${what}: ${e.field ? `${e.field}: ` : ''}${e.detail}${lost}`,
      range: { offset: u.offset, length: u.length },
      offset: e.offset,
      code: e.code,
    });
  }
  if (c.unread.length === 0 && !c.rawFooter && !c.frames.some((f) => f.type === FrameType.Footer)) {
    reportDamage(ctx, {
      unit: 'footer',
      detail: `truncated at offset ${size}: the file ends after a complete frame, without its ${FOOTER_FRAME_BYTES}-byte footer${lost}`,
      offset: size,
      code: 'truncated',
    });
  }
}

const ROWS_PER_BATCH = 4096;

/**
 * Rows [from, from + count) of the plan in batches. A damaged column gives nulls; a chunk that
 * does not decode although its frame's checks pass is reported once and gives nulls too.
 */
export async function* planRows(plan: ReadPlan, reader: ChunkReader, from: number, count: number, ctx: TaskContext): AsyncIterable<Value[][]> {
  const end = Math.min(plan.rows, from + count);
  const reported = new Set<ChunkEntry>();
  for (let at = from; at < end; at += ROWS_PER_BATCH) {
    throwIfAborted(ctx.signal);
    const n = Math.min(ROWS_PER_BATCH, end - at);
    const columns = await Promise.all(
      plan.columns.map((col) => (col.damaged || !col.view ? [] : columnValues(col.view, col.name, reader, at, n, reported, ctx))),
    );
    yield Array.from({ length: n }, (_, i) => columns.map((c) => c[i] ?? null));
    ctx.progress?.({ done: at + n - from, total: end - from, message: 'rows' });
    await yieldToEventLoop();
  }
}

async function columnValues(
  view: ColumnView,
  name: string,
  reader: ChunkReader,
  from: number,
  count: number,
  reported: Set<ChunkEntry>,
  ctx: TaskContext,
): Promise<Value[]> {
  const out: Value[] = [];
  for (let row = from; row < from + count; ) {
    const chunk = ChunkReader.chunkAt(view.column, row);
    if (!chunk) break;
    const take = Math.min(from + count, chunk.firstRow + chunk.rows) - row;
    out.push(...((await chunkValues(name, chunk, () => reader.range(view, row, take), reported, ctx)) ?? Array<Value>(take).fill(null)));
    row += take;
  }
  return out;
}

/** A chunk's values, or undefined (salvage) when it does not decode: reported once, with its bytes and rows. */
export async function chunkValues<T>(
  column: string,
  chunk: ChunkEntry,
  read: () => Promise<T>,
  reported: Set<ChunkEntry>,
  ctx: TaskContext,
): Promise<T | undefined> {
  try {
    return await read();
  } catch (e) {
    rethrowUnlessFormatError(e, 'cancelled', 'limit', 'unsupported');
    if (!reported.has(chunk)) {
      reported.add(chunk);
      reportDamage(
        ctx,
        damageFrom(`chunk ${chunk.index} of column ${column}`, e, {
          range: { offset: chunk.blobOffset, length: chunk.byteLength },
          rows: { from: chunk.firstRow, count: chunk.rows },
        }),
      );
    }
    return undefined;
  }
}
