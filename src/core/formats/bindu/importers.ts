import { lookup } from '../../lookup.js';
import { hexString } from '../../describe.js';
import { isInteger, parse as parseLossless } from 'lossless-json';
import { sha256Stream } from '../../codecs/sha256.js';
import { FormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { scanRange } from '../../io/scan.js';
import type { ConvertReport, Importer, OptionSpec, OptionValues, OutputTarget, TaskContext } from '../../model.js';
import { CsvReader } from './csv.js';
import { fieldsFromNames, inferCsvColumn, inferJsonColumn, type Inferred, type RawCell } from './infer.js';
import { Codec } from './model.js';
import { textEntry, writeBindu, type ColumnInput, type WriteOptions } from './writer.js';
import { checkJsonDepth } from '../../jsonDepth.js';
import { choiceParam } from '../../tableSpec.js';

/** CSV, JSONL and any file → Bindu. */

export const WRITE_OPTIONS: readonly OptionSpec[] = [
  {
    key: 'chunkRows',
    label: 'Rows per chunk',
    type: 'number',
    default: 65536,
    min: 1,
    max: 1 << 24,
    description: 'Each chunk is decoded on its own: smaller chunks make random access cheaper, larger ones compress better',
  },
  choiceParam('compressor', 'Compressor', { deflate: 'DEFLATE (default)', none: 'none', lz4: 'LZ4 frame' }),
  { key: 'seal', label: 'Seal (Merkle tree)', type: 'boolean', default: false },
  { key: 'bloom', label: 'Bloom filters on columns', type: 'string', default: '', description: 'Comma-separated column names' },
  { key: 'sorted', label: 'Sorted index on column', type: 'string', default: '', description: 'Chunk ranges for one column' },
];

const COMPRESSORS: Record<string, number> = { deflate: Codec.DEFLATE, none: Codec.NONE, lz4: Codec.LZ4 };

export function writeOptions(o: OptionValues): Omit<WriteOptions, 'fields'> {
  const chunkRows = Number(o.chunkRows ?? 65536);
  if (!Number.isSafeInteger(chunkRows) || chunkRows < 1)
    throw new FormatError('corrupt', `chunkRows ${o.chunkRows} is not a positive integer`, { field: 'chunkRows' });
  const list = (s: unknown) =>
    String(s ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  const compressor = lookup(COMPRESSORS, String(o.compressor ?? 'deflate'));
  if (compressor === undefined) throw new FormatError('unsupported', `compressor ${o.compressor}`, { field: 'compressor' });
  return { chunkRows, compressor, seal: o.seal === true, bloom: list(o.bloom), sorted: list(o.sorted)[0], config: [textEntry('pipeline', 'open-v1')] };
}

/** Streams the source as text in 1 MiB pieces, rejecting bytes that are not UTF-8. */
async function readText(src: ByteSource, ctx: TaskContext, onText: (text: string) => void): Promise<void> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  await scanRange(
    src,
    0,
    src.size,
    ctx,
    (piece, at) => {
      try {
        onText(decoder.decode(piece, { stream: true }));
      } catch (e) {
        if (e instanceof FormatError) throw e;
        throw new FormatError('corrupt', 'the text is not valid UTF-8', { offset: at, field: 'text' });
      }
    },
    'reading',
  );
  onText(decoder.decode());
}

async function writeTable(
  names: readonly string[],
  inferred: readonly Inferred[],
  options: OptionValues,
  target: OutputTarget,
  ctx: TaskContext,
  what: string,
): Promise<ConvertReport> {
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) throw new FormatError('corrupt', `column name "${dup}" appears twice`, { field: 'header' });
  const columns: ColumnInput[] = names.map((name, i) => ({
    name,
    type: inferred[i]!.type,
    nullable: inferred[i]!.values.includes(null),
    values: inferred[i]!.values,
  }));
  const sink = await target.file();
  const report = await writeBindu(columns, { ...writeOptions(options), fields: fieldsFromNames(columns) }, sink, ctx);
  return {
    summary: `${report.rows} rows × ${columns.length} columns from ${what}, ${report.bytes} bytes: ${columns.map((c, i) => `${c.name} ${report.chains[i]}`).join('; ')}`,
    warnings: inferred.flatMap((c, i) => (c.note ? [`${names[i]}: ${c.note}`] : [])),
  };
}

export const csvImporter: Importer = {
  id: 'bindu',
  label: 'Bindu open container v1 (schema inferred from the CSV)',
  extension: '.bindu',
  output: 'file',
  accepts: ['.csv'],
  options: WRITE_OPTIONS,
  async run(src, target, ctx, options) {
    let header: string[] | undefined;
    let cells: (string | null)[][] = [];
    const reader = new CsvReader((row, line) => {
      if (!header) {
        header = row.map((c) => c ?? '');
        cells = header.map(() => []);
        return;
      }
      if (row.length !== header.length)
        throw new FormatError('corrupt', `${row.length} fields where the header has ${header.length}`, { field: `CSV line ${line}` });
      row.forEach((c, i) => cells[i]!.push(c));
    });
    await readText(src, ctx, (t) => reader.push(t));
    reader.end();
    if (!header) throw new FormatError('corrupt', 'the CSV has no header row', { offset: 0, field: 'header' });
    return writeTable(header, cells.map(inferCsvColumn), options, target, ctx, 'CSV');
  },
};

/**
 * JSON.parse, or a lossless parse when a line holds a number too long for a double to keep. Only
 * integers a double cannot hold become bigints: the other numbers on such a line must read as
 * JSON.parse reads them, or a small integer column turns into INT64 (printed back as strings)
 * whenever another field of the line has 16 digits.
 */
function parseLine(line: string): unknown {
  return /\d{16}/.test(line) ? parseLossless(line, null, exactNumber) : JSON.parse(line);
}

function exactNumber(text: string): number | bigint {
  const n = Number(text);
  return isInteger(text) && !Number.isSafeInteger(n) ? BigInt(text) : n;
}

export const jsonlImporter: Importer = {
  id: 'bindu',
  label: 'Bindu open container v1 (schema inferred from the JSON lines)',
  extension: '.bindu',
  output: 'file',
  accepts: ['.jsonl', '.ndjson'],
  options: WRITE_OPTIONS,
  async run(src, target, ctx, options) {
    const keys = new Map<string, RawCell[]>();
    let rows = 0;
    let carry = '';
    let lineNo = 0;
    const take = (line: string) => {
      lineNo++;
      if (line.trim() === '') return;
      let obj: unknown;
      checkJsonDepth(line, { field: `line ${lineNo}` });
      try {
        obj = parseLine(line);
      } catch (e) {
        throw new FormatError('corrupt', `not JSON: ${(e as Error).message}`, { field: `line ${lineNo}` });
      }
      if (obj === null || typeof obj !== 'object' || Array.isArray(obj))
        throw new FormatError('corrupt', 'each line must be a JSON object', { field: `line ${lineNo}` });
      for (const [k, v] of Object.entries(obj)) {
        let col = keys.get(k);
        if (!col) keys.set(k, (col = new Array<RawCell>(rows).fill(null)));
        col[rows] = v as RawCell;
      }
      rows++;
      for (const col of keys.values()) if (col.length < rows) col.push(null);
    };
    await readText(src, ctx, (text) => {
      const lines = (carry + text).split('\n');
      carry = lines.pop()!;
      lines.forEach((l) => take(l.endsWith('\r') ? l.slice(0, -1) : l));
    });
    take(carry);
    return writeTable([...keys.keys()], [...keys.values()].map(inferJsonColumn), options, target, ctx, 'JSON lines');
  },
};

const PIECE = 64 << 10;

/** Any file as a BYTE_STREAM: one BYTES column of 64 KiB pieces, 16 pieces per chunk, and the input's SHA-256 in the Header. */
export const bytesImporter: Importer = {
  id: 'bindu-bytes',
  label: 'Bindu byte stream (any file, restored bit-identical)',
  extension: '.bindu',
  output: 'file',
  accepts: ['*'],
  options: WRITE_OPTIONS.filter((o) => o.key === 'compressor' || o.key === 'seal'),
  async run(src, target, ctx, options) {
    const digest = await sha256Stream();
    const pieces: Uint8Array[] = [];
    await scanRange(
      src,
      0,
      src.size,
      ctx,
      (piece) => {
        digest.update(piece);
        for (let i = 0; i < piece.length; i += PIECE) pieces.push(piece.slice(i, i + PIECE));
      },
      'reading',
    );
    const sourceDigest = digest.digest();
    const sink = await target.file();
    const report = await writeBindu(
      [{ name: 'bytes', type: { code: 'BYTES' }, nullable: false, values: pieces, stats: false }],
      { ...writeOptions({ ...options, chunkRows: 16 }), bloom: [], sorted: undefined, sourceDigest },
      sink,
      ctx,
    );
    return {
      summary: `${src.size} bytes as a byte stream of ${pieces.length} pieces, ${report.bytes} bytes (${report.chains[0]}); source SHA-256 ${hexString(sourceDigest)}`,
    };
  },
};
