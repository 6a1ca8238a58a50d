/**
 * JSON Lines, CSV and TSV → IDV. A first pass reads the whole file to infer each column's type
 * (or takes the types given) and count the rows; the second converts and writes blocks of
 * `rowsPerBlock` rows. Names follow the exporters: `name#index` restores a hidden column, CSV
 * headers `name[slot]` side by side make one vector column with those slot names.
 */
import { FormatError, throwIfAborted } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { ConvertReport, Importer, OptionSpec, OptionValues, OutputTarget, TaskContext } from '../../model.js';
import type { ColumnType } from './columnType.js';
import { typeText } from './columnType.js';
import { Inference, type Where, convertValue, parseSchema } from './infer.js';
import { delimitedRecords, jsonLines, type TextFormat } from './textRecords.js';
import type { Value } from './values.js';
import { IdvWriter, MAX_ROWS_PER_BLOCK, type WriterColumn, chooseRowsPerBlock } from './writer.js';

/** One column of the output and where its values come from in each record. */
interface Source {
  name: string;
  /** JSONL: the object key. */
  readonly key?: string;
  /** CSV/TSV: the field index, or the fields of a slot group. */
  readonly fields?: readonly number[];
  /** CSV/TSV slot group: the labels between the brackets. */
  readonly slotLabels?: readonly string[];
  readonly inference: Inference;
  type?: ColumnType;
}

const SLOT_HEADER = /^([^[]*)\[(.*)\]$/;

function sourcesFromHeader(header: readonly string[]): Source[] {
  const out: Source[] = [];
  for (let i = 0; i < header.length; ) {
    const m = SLOT_HEADER.exec(header[i]!);
    let j = i + 1;
    if (m) while (j < header.length && SLOT_HEADER.exec(header[j]!)?.[1] === m[1]) j++;
    const labels = m ? header.slice(i, j).map((h) => SLOT_HEADER.exec(h)![2]!) : [];
    // A lone `name[label]` is a vector only when its label is the slot index 0.
    if (m && (j - i > 1 || labels[0] === '0')) {
      out.push({ name: m[1]!, fields: range(i, j), slotLabels: labels, inference: new Inference() });
    } else {
      out.push({ name: header[i]!, fields: [i], inference: new Inference() });
      j = i + 1;
    }
    i = j;
  }
  return out;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, k) => from + k);
}

type RecordOf = { line: number; get(s: Source): unknown };

async function* recordsOf(
  src: ByteSource,
  format: TextFormat,
  sources: Source[],
  signal: AbortSignal | undefined,
  onHeader: (h: string[]) => void,
): AsyncGenerator<RecordOf> {
  if (format === 'jsonl') {
    for await (const { line, value } of jsonLines(src, signal)) {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new FormatError('corrupt', `line ${line} is not a JSON object`, { field: `line ${line}` });
      const o = value as Record<string, unknown>;
      for (const key of Object.keys(o)) if (!sources.some((s) => s.key === key)) sources.push({ name: key, key, inference: new Inference() });
      yield { line, get: (s) => (s.key === undefined ? undefined : o[s.key]) };
    }
    return;
  }
  let width = -1;
  for await (const { line, fields } of delimitedRecords(src, format === 'csv' ? ',' : '\t', signal)) {
    if (width < 0) {
      width = fields.length;
      onHeader(fields);
      continue;
    }
    if (fields.length > width)
      throw new FormatError('corrupt', `line ${line} has ${fields.length} fields but the header names ${width}`, { field: `line ${line}` });
    yield { line, get: (s) => (s.fields!.length === 1 && !s.slotLabels ? (fields[s.fields![0]!] ?? '') : s.fields!.map((f) => fields[f] ?? '')) };
  }
}

export interface ImportResult extends ConvertReport {
  readonly rows: number;
  readonly columns: readonly WriterColumn[];
}

export async function importText(src: ByteSource, format: TextFormat, target: OutputTarget, ctx: TaskContext, options: OptionValues): Promise<ImportResult> {
  const given = typeof options.schema === 'string' && options.schema.trim() ? parseSchema(options.schema) : new Map<string, ColumnType>();
  const fromText = format !== 'jsonl';
  const sources: Source[] = [];
  let rows = 0;
  // Pass 1: columns, types, row count.
  let known = 0;
  for await (const rec of recordsOf(src, format, sources, ctx.signal, (h) => sources.push(...sourcesFromHeader(h)))) {
    // JSONL keys first seen on this line were missing on the lines before.
    for (; known < sources.length; known++) sources[known]!.inference.addMissing(rows);
    for (const s of sources) {
      const v = rec.get(s);
      if (s.slotLabels) for (const cell of v as string[]) s.inference.addSlotText(cell);
      else if (fromText) s.inference.addText(v as string);
      else s.inference.addJson(v);
    }
    rows++;
    if (rows % 4096 === 0) ctx.progress?.({ done: rows, message: 'reading types' });
  }
  for (const [name] of given) if (!sources.some((s) => s.name === name)) sources.push({ name, inference: new Inference() });
  restoreHiddenNames(sources);
  if (sources.length === 0) throw new FormatError('corrupt', 'no columns: the file has no header or no rows, and no schema was given', { field: 'schema' });
  const columns: WriterColumn[] = sources.map((s) => {
    s.type = given.get(s.name) ?? (s.slotLabels ? s.inference.slotsResult(s.slotLabels.length) : s.inference.result());
    const names = s.slotLabels && s.slotLabels.some((l, k) => l !== String(k)) ? s.slotLabels : undefined;
    return {
      name: s.name,
      type: s.type,
      metadata: names
        ? [
            {
              kind: 'SlotNames',
              type: { kind: 'vector', item: { kind: 'scalar', scalar: 'text' }, dims: [names.length], size: names.length },
              value: { length: names.length, values: [...names] },
            },
          ]
        : undefined,
    };
  });
  const requested = Math.floor(Number(options.rowsPerBlock ?? 0));
  const rowsPerBlock = requested > 0 ? Math.min(requested, MAX_ROWS_PER_BLOCK) : chooseRowsPerBlock(columns, rows);
  const writer = new IdvWriter(columns, { rowsPerBlock, compression: options.compression === 'none' ? 0 : 1 });

  // Pass 2: convert and write block by block.
  let block: Value[][] = columns.map(() => []);
  let written = 0;
  for await (const rec of recordsOf(src, format, [...sources], ctx.signal, () => undefined)) {
    throwIfAborted(ctx.signal);
    sources.forEach((s, k) => {
      const where: Where = { line: rec.line, column: s.name };
      const v = s.key === undefined && s.fields === undefined ? undefined : rec.get(s);
      block[k]!.push(s.slotLabels ? slotVector(v as string[], s.type!, where) : convertValue(v, s.type!, where, fromText));
    });
    if (block[0]!.length === rowsPerBlock) {
      writer.addBlock(block);
      written += rowsPerBlock;
      block = columns.map(() => []);
      ctx.progress?.({ done: written, total: rows, message: 'rows written' });
    }
  }
  writer.addBlock(block);
  const sink = await target.file();
  const { bytes, rows: total } = await writer.finish((b) => sink.write(b));
  const warnings: string[] = [];
  if (writer.losses.defaulted > 0)
    warnings.push(
      `${writer.losses.defaulted} missing values were stored as their type's default (false, 0, "", 0 ticks): IDV 1.1.1.6 has no missing value for those types`,
    );
  return {
    summary: `${total} rows × ${columns.length} columns written as an ML.NET dataview (1.1.1.6, ${bytes} bytes): ${columns.map((c) => `${c.name}:${typeText(c.type)}`).join(', ')}`,
    warnings,
    rows: total,
    columns,
  };
}

/** `name#3` from an exported hidden column becomes `name` again when a later column is `name`. */
function restoreHiddenNames(sources: Source[]): void {
  const names = new Set(sources.map((s) => s.name));
  for (const s of sources) {
    const m = /^(.*)#\d+$/.exec(s.name);
    if (m && names.has(m[1]!)) s.name = m[1]!;
  }
}

function slotVector(cells: readonly string[], t: ColumnType, where: Where): Value {
  if (t.kind !== 'vector') throw new FormatError('corrupt', `slot columns need a vector type, not ${typeText(t)}`, { field: `column ${where.column}` });
  if (cells.every((c) => c === '')) return null;
  return { length: cells.length, values: cells.map((c, k) => convertValue(c, t.item, { ...where, column: `${where.column}[${k}]` }, true)) };
}

const OPTIONS: OptionSpec[] = [
  {
    key: 'schema',
    label: 'Column types',
    type: 'string',
    default: '',
    description: 'name:Type pairs separated by ";" (e.g. "Label:Boolean; Features:Vector<Single, 3>"); other columns are inferred',
  },
  {
    key: 'rowsPerBlock',
    label: 'Rows per block',
    type: 'number',
    default: 0,
    min: 0,
    max: MAX_ROWS_PER_BLOCK,
    description: '0 chooses as ML.NET does (up to 8192)',
  },
  {
    key: 'compression',
    label: 'Block compression',
    type: 'choice',
    default: 'deflate',
    choices: [
      { value: 'deflate', label: 'DEFLATE (ML.NET default)' },
      { value: 'none', label: 'none' },
    ],
  },
];

export const importers: Importer[] = (['jsonl', 'csv', 'tsv'] as const).map((format) => ({
  id: `idv-from-${format}`,
  label: `ML.NET binary dataview (.idv) from ${format.toUpperCase()}`,
  extension: '.idv',
  output: 'file',
  accepts: [`.${format}`],
  options: OPTIONS,
  run: (src: ByteSource, target: OutputTarget, ctx: TaskContext, options: OptionValues) => importText(src, format, target, ctx, options),
}));
