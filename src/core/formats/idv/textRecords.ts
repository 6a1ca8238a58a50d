/**
 * Records of a text file read in 1 MiB pieces: JSON Lines objects, or CSV/TSV rows (RFC 4180
 * quoting: a field that starts with `"` runs to the closing quote, `""` inside is a quote, and
 * may hold separators and line breaks). Written here because the CSV parsers on npm stream
 * through Node streams or browser File objects, and src/core reads a ByteSource in any host.
 */
import { FormatError, throwIfAborted } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { yieldToEventLoop } from '../../io/scan.js';
import { checkJsonDepth } from '../../jsonDepth.js';

const PIECE = 1 << 20;
/** One record (a line of JSON, a CSV row) may not exceed this many characters. */
const MAX_RECORD_CHARS = 256 << 20;

export type TextFormat = 'jsonl' | 'csv' | 'tsv';

/** Characters of the file in pieces, decoded as UTF-8 (a leading BOM is dropped). */
async function* pieces(src: ByteSource, signal?: AbortSignal): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for (let at = 0; at < src.size; at += PIECE) {
    throwIfAborted(signal);
    const text = decoder.decode(await src.read(at, Math.min(PIECE, src.size - at)), { stream: true });
    yield at === 0 && text.startsWith('\uFEFF') ? text.slice(1) : text;
    await yieldToEventLoop();
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** Lines without their terminators, with their 1-based numbers; blank lines are skipped. */
export async function* jsonLines(src: ByteSource, signal?: AbortSignal): AsyncGenerator<{ line: number; value: unknown }> {
  let carry = '';
  let line = 0;
  const parse = (text: string) => {
    line++;
    const trimmed = text.trim();
    if (trimmed === '') return undefined;
    checkJsonDepth(trimmed, { field: `line ${line}` });
    try {
      return { line, value: JSON.parse(trimmed) as unknown };
    } catch (e) {
      throw new FormatError('corrupt', `line ${line} is not JSON: ${(e as Error).message}`, { field: `line ${line}` });
    }
  };
  for await (const piece of pieces(src, signal)) {
    carry += piece;
    let start = 0;
    for (let nl = carry.indexOf('\n'); nl >= 0; nl = carry.indexOf('\n', start)) {
      const got = parse(carry.slice(start, nl));
      if (got) yield got;
      start = nl + 1;
    }
    carry = carry.slice(start);
    if (carry.length > MAX_RECORD_CHARS)
      throw new FormatError('limit', `line ${line + 1} is longer than ${MAX_RECORD_CHARS} characters`, { field: `line ${line + 1}` });
  }
  const got = parse(carry);
  if (got) yield got;
}

/** CSV or TSV records as arrays of field texts, with the line each starts on. */
export async function* delimitedRecords(src: ByteSource, sep: ',' | '\t', signal?: AbortSignal): AsyncGenerator<{ line: number; fields: string[] }> {
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  /** Inside a quoted field, a quote was seen: it closes the field unless another follows. */
  let quoteSeen = false;
  /** The field has started (a quote at its start makes it quoted; elsewhere a quote is text). */
  let started = false;
  let skipLf = false;
  let line = 1;
  let recordLine = 1;
  let size = 0;
  const out: { line: number; fields: string[] }[] = [];
  const endField = () => {
    fields.push(field);
    field = '';
    quoted = false;
    quoteSeen = false;
    started = false;
  };
  const endRecord = () => {
    // A blank line is no record; a line holding only `""` is one empty field.
    const blank = fields.length === 0 && field === '' && !started;
    endField();
    if (!blank) out.push({ line: recordLine, fields });
    fields = [];
    size = 0;
  };
  for await (const piece of pieces(src, signal)) {
    for (let i = 0; i < piece.length; i++) {
      const ch = piece[i]!;
      if (skipLf) {
        skipLf = false;
        if (ch === '\n') continue;
      }
      if (quoted && !quoteSeen) {
        if (ch === '"') quoteSeen = true;
        else {
          if (ch === '\n') line++;
          field += ch;
        }
        continue;
      }
      if (quoteSeen) {
        quoteSeen = false;
        if (ch === '"') {
          field += '"';
          continue;
        }
        quoted = false; // the field's closing quote: what follows is unquoted text
      }
      if (ch === sep) endField();
      else if (ch === '\n' || ch === '\r') {
        endRecord();
        line++;
        recordLine = line;
        skipLf = ch === '\r';
      } else if (ch === '"' && !started) {
        quoted = true;
        started = true;
      } else {
        field += ch;
        started = true;
      }
    }
    size += piece.length;
    if (size > MAX_RECORD_CHARS)
      throw new FormatError('limit', `the record starting on line ${recordLine} is longer than ${MAX_RECORD_CHARS} characters`, {
        field: `line ${recordLine}`,
      });
    yield* out.splice(0);
  }
  if (quoted && !quoteSeen) throw new FormatError('corrupt', `the quoted field on line ${recordLine} never closes`, { field: `line ${recordLine}` });
  if (field !== '' || fields.length > 0 || started) endRecord();
  yield* out.splice(0);
}
