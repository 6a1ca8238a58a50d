import { FormatError, throwIfAborted } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { concatBytes } from '../../io/bytes.js';
import { yieldToEventLoop } from '../../io/scan.js';
import type { ByteSink, ConvertReport, Importer, OptionSpec, OptionValues, OutputTarget, TaskContext } from '../../model.js';
import { FstBuilder, type WriteVersion } from './builder.js';
import { type Entry, ExternalSorter } from './externalSort.js';
import { compareBytes, escapeKey, parseKey, parseU64 } from './keyText.js';
import { checkJsonDepth } from '../../jsonDepth.js';
import { choiceParam } from '../../tableSpec.js';

/**
 * Text → fst. Inputs:
 * - `.tsv`: `KEY<TAB>VALUE` lines, keys escaped as `binlens cat` writes them (so cat output
 *   converts back to the same file); a line without a tab is a key with value 0;
 * - `.csv`: `key,value` lines as `fst map` reads them (raw UTF-8 keys, RFC 4180 quoting);
 * - `.jsonl`: `{"key":"…","value":…}` (or `"keyHex"`), value a number or decimal string;
 * - `.txt`: one raw key per line, as `fst set` reads them.
 * Unsorted input goes through an external sort (memory-bounded, spilling to scratch files).
 */
export type TextInput = 'tsv' | 'csv' | 'jsonl' | 'lines';

const INPUT_BY_EXTENSION: Record<string, TextInput> = { '.tsv': 'tsv', '.csv': 'csv', '.jsonl': 'jsonl', '.txt': 'lines' };

export type Duplicates = 'error' | 'first' | 'last' | 'min' | 'max';

export interface ImportOptions {
  readonly kind: 'map' | 'set';
  readonly version: WriteVersion;
  readonly duplicates: Duplicates;
  /** Memory for sorting before spilling to scratch files (tests make it small). */
  readonly sortBudget?: number;
}

const OPTIONS: readonly OptionSpec[] = [
  choiceParam('kind', 'Kind', { auto: 'auto (map; set for .txt key lists)', map: 'map (keys → u64 values)', set: 'set (keys only)' }),
  {
    key: 'version',
    label: 'Format version',
    type: 'choice',
    default: '3',
    choices: [
      { value: '3', label: '3: fst 0.4 (with checksum)' },
      { value: '2', label: '2: fst 0.3' },
      { value: '1', label: '1: fst 0.2 and vellum' },
    ],
  },
  choiceParam('duplicates', 'Repeated keys (maps)', {
    error: 'error',
    first: 'keep the first value',
    last: 'keep the last value',
    min: 'keep the smallest value',
    max: 'keep the largest value',
  }),
];

const INPUT_LABELS: Record<TextInput, string> = {
  tsv: 'TSV (escaped KEY<TAB>VALUE, as binlens cat writes)',
  csv: 'CSV (key,value as fst map reads)',
  jsonl: 'JSON lines ({"key","value"})',
  lines: 'a key list (one key per line, as fst set reads)',
};

/** One importer per input kind, all with id `fst`: the input's extension picks which one runs. */
export const fstImporters: readonly Importer[] = (Object.entries(INPUT_BY_EXTENSION) as [string, TextInput][]).map(([ext, input]) => ({
  id: 'fst',
  label: `FST (map or set) from ${INPUT_LABELS[input]}`,
  extension: '.fst',
  output: 'file',
  accepts: [ext],
  options: OPTIONS,
  run: (src, target, ctx, options) => importText(src, input, resolveOptions(options, input), target, ctx),
}));

export function resolveOptions(options: OptionValues, input: TextInput): ImportOptions {
  const kind = options.kind === 'map' || options.kind === 'set' ? options.kind : input === 'lines' ? 'set' : 'map';
  const version = Number(options.version ?? 3);
  if (version !== 1 && version !== 2 && version !== 3)
    throw new FormatError('unsupported-version', `fst format version ${options.version}: write 1, 2 or 3`, { field: 'version' });
  const duplicates = (options.duplicates ?? 'error') as Duplicates;
  return { kind, version, duplicates };
}

export async function importText(src: ByteSource, input: TextInput, opts: ImportOptions, target: OutputTarget, ctx: TaskContext): Promise<ConvertReport> {
  // A first pass only parses and checks the order, so sorted input (the usual case) streams
  // straight into the builder and unsorted input is sorted before any byte is written.
  let sorted = true;
  let last: Uint8Array | undefined;
  for await (const batch of records(src, input, ctx)) {
    for (const e of batch) {
      if (last !== undefined && compareBytes(e.key, last) < 0) sorted = false;
      last = e.key;
    }
    if (!sorted) break;
  }
  const sink = await target.file();
  if (sorted) return buildFrom(records(src, input, ctx), opts, sink, ctx);
  const sorter = new ExternalSorter(ctx, opts.sortBudget);
  for await (const batch of records(src, input, ctx)) for (const e of batch) await sorter.add(e.key, e.value);
  const report = await buildFrom(sorter.sorted(), opts, sink, ctx);
  const how = sorter.spilled ? `in ${sorter.spilled + 1} runs through temporary files` : 'in memory';
  return { ...report, warnings: [...(report.warnings ?? []), `the input was not sorted: sorted it ${how}`] };
}

/** Feeds sorted entries to the builder, merging repeated keys by the policy, writing bytes as they come. */
async function buildFrom(batches: AsyncIterable<readonly Entry[]>, opts: ImportOptions, sink: ByteSink, ctx: TaskContext): Promise<ConvertReport> {
  const builder = new FstBuilder(opts.version);
  let pending: Entry | undefined;
  let merged = 0;
  let read = 0;
  const put = (e: Entry) => (opts.kind === 'set' ? builder.add(e.key) : builder.insert(e.key, e.value));
  for await (const batch of batches) {
    throwIfAborted(ctx.signal);
    for (const e of batch) {
      read++;
      if (pending !== undefined) {
        const c = compareBytes(e.key, pending.key);
        if (c < 0)
          throw new FormatError('corrupt', `key ${escapeKey(e.key)} comes after ${escapeKey(pending.key)}: the input changed while it was read`, {
            field: 'key',
          });
        if (c === 0) {
          merged++;
          pending = { key: pending.key, value: mergeValue(pending, e, opts) };
          continue;
        }
        put(pending);
      }
      pending = e;
    }
    const bytes = builder.takeBytes();
    if (bytes.length) await sink.write(bytes);
    ctx.progress?.({ done: read, message: 'keys' });
    await yieldToEventLoop();
  }
  if (pending !== undefined) put(pending);
  await sink.write(builder.finish());
  const warnings = merged && opts.kind === 'map' ? [`${merged} repeated key${merged === 1 ? '' : 's'} merged (${opts.duplicates})`] : [];
  return { summary: `fst v${opts.version} ${opts.kind} with ${builder.count} keys`, warnings };
}

function mergeValue(a: Entry, b: Entry, opts: ImportOptions): bigint {
  if (opts.kind === 'set') return 0n;
  switch (opts.duplicates) {
    case 'first':
      return a.value;
    case 'last':
      return b.value;
    case 'min':
      return a.value < b.value ? a.value : b.value;
    case 'max':
      return a.value > b.value ? a.value : b.value;
    case 'error':
      throw new FormatError('corrupt', `key ${escapeKey(a.key)} appears more than once (choose how to merge repeated keys)`, { field: 'key' });
  }
}

// ---- input records ----

const CHUNK = 1 << 20;
const DECODER = new TextDecoder('utf-8', { fatal: false });

/** Lines of the source (without \n or \r\n), with their byte offsets, in batches. */
async function* lines(src: ByteSource, ctx: TaskContext): AsyncIterable<{ line: Uint8Array; offset: number }[]> {
  let carry = new Uint8Array(0);
  let carryAt = 0;
  for (let at = 0; at < src.size || carry.length; ) {
    throwIfAborted(ctx.signal);
    const piece = at < src.size ? await src.read(at, Math.min(CHUNK, src.size - at)) : new Uint8Array(0);
    const end = at + piece.length;
    const data = carry.length ? concatBytes([carry, piece]) : piece;
    const base = carry.length ? carryAt : at;
    const out: { line: Uint8Array; offset: number }[] = [];
    let start = 0;
    for (let i = 0; i < data.length; i++) {
      if (data[i] !== 0x0a) continue;
      out.push({ line: trimCr(data.subarray(start, i)), offset: base + start });
      start = i + 1;
    }
    if (end >= src.size) {
      if (start < data.length) out.push({ line: trimCr(data.subarray(start)), offset: base + start });
      carry = new Uint8Array(0);
      at = end;
      yield out;
      break;
    }
    carry = data.slice(start);
    carryAt = base + start;
    at = end;
    yield out;
  }
}

function trimCr(l: Uint8Array): Uint8Array {
  return l.length && l[l.length - 1] === 0x0d ? l.subarray(0, l.length - 1) : l;
}

export async function* records(src: ByteSource, input: TextInput, ctx: TaskContext): AsyncIterable<Entry[]> {
  for await (const batch of lines(src, ctx)) {
    const out: Entry[] = [];
    for (const { line, offset } of batch) {
      const e = parseRecord(line, input, offset);
      if (e) out.push(e);
    }
    yield out;
  }
}

export function parseRecord(line: Uint8Array, input: TextInput, offset: number): Entry | undefined {
  const where = { offset, field: 'line' };
  switch (input) {
    case 'lines':
      return { key: line.slice(), value: 0n };
    case 'tsv': {
      if (line.length === 0) return undefined;
      const tab = line.indexOf(0x09);
      const keyText = DECODER.decode(tab < 0 ? line : line.subarray(0, tab));
      const key = parseKey(keyText, where);
      return { key, value: tab < 0 ? 0n : parseU64(DECODER.decode(line.subarray(tab + 1)), where) };
    }
    case 'csv': {
      if (line.length === 0) return undefined;
      const fields = csvFields(line, where);
      if (fields.length > 2) throw new FormatError('corrupt', `expected key,value but found ${fields.length} fields`, where);
      return { key: fields[0]!, value: fields.length > 1 ? parseU64(DECODER.decode(fields[1]!).trim(), where) : 0n };
    }
    case 'jsonl': {
      const text = DECODER.decode(line).trim();
      if (text === '') return undefined;
      let obj: unknown;
      checkJsonDepth(text, where);
      try {
        obj = JSON.parse(text);
      } catch {
        throw new FormatError('corrupt', 'not a JSON object', where);
      }
      if (typeof obj !== 'object' || obj === null) throw new FormatError('corrupt', 'not a JSON object', where);
      const o = obj as Record<string, unknown>;
      let key: Uint8Array;
      if (typeof o.key === 'string') key = new TextEncoder().encode(o.key);
      else if (typeof o.keyHex === 'string' && /^([0-9a-fA-F]{2})*$/.test(o.keyHex)) key = Uint8Array.from(o.keyHex.match(/../g) ?? [], (h) => parseInt(h, 16));
      else throw new FormatError('corrupt', 'needs "key" (text) or "keyHex"', where);
      const v = o.value;
      // Numbers above 2^53 have lost digits in any JSON parser: only exact integers are accepted.
      const value =
        v === undefined
          ? 0n
          : typeof v === 'string'
            ? parseU64(v, where)
            : typeof v === 'number' && Number.isSafeInteger(v) && v >= 0
              ? BigInt(v)
              : badValue(v, where);
      return { key, value };
    }
  }
}

function badValue(v: unknown, where: { offset: number; field: string }): never {
  throw new FormatError('corrupt', `value ${JSON.stringify(v)} is not a u64 (write values above 2^53 as decimal strings)`, where);
}

/** The fields of one CSV line as bytes, with "…" quoting and "" for a quote. */
function csvFields(line: Uint8Array, where: { offset: number; field: string }): Uint8Array[] {
  const fields: Uint8Array[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === 0x22) {
      const out: number[] = [];
      i++;
      for (;;) {
        if (i >= line.length) throw new FormatError('corrupt', 'unterminated quoted field', where);
        if (line[i] === 0x22) {
          if (line[i + 1] === 0x22) {
            out.push(0x22);
            i += 2;
            continue;
          }
          i++;
          break;
        }
        out.push(line[i++]!);
      }
      fields.push(Uint8Array.from(out));
      if (i < line.length && line[i] !== 0x2c) throw new FormatError('corrupt', 'text after a closing quote', where);
    } else {
      let j = i;
      while (j < line.length && line[j] !== 0x2c) j++;
      fields.push(line.slice(i, j));
      i = j;
    }
    if (i >= line.length) return fields;
    i++; // comma
    if (i === line.length) {
      fields.push(new Uint8Array(0));
      return fields;
    }
  }
}
