import { FormatError, throwIfAborted } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { yieldToEventLoop } from '../../io/scan.js';
import { ByteCursor } from './cursor.js';
import { MAX_NODES, RunBuffer } from './plan.js';
import { checkJsonDepth } from '../../jsonDepth.js';

const KEY = new TextEncoder().encode('{"assignment":[');
const text = new TextDecoder();
/** A line longer than this is not a plan (65535 · MAX_NODES digits would be); refuse before buffering it. */
const MAX_LINE = 512 << 20;

export interface JsonlSample {
  readonly plan: RunBuffer;
  /** 1-based line number. */
  readonly line: number;
  /** Where the line starts in the file. */
  readonly offset: number;
}

/**
 * Reads JSONL plans (spec §1: only `assignment` matters) one line at a time. Lines in the
 * reference form `{"assignment":[…` are parsed from bytes straight into runs; any other key
 * order goes through JSON.parse. Every value must be an integer 0..65535. The yielded plan is
 * reused for the next line.
 */
export async function* readJsonl(src: ByteSource, signal?: AbortSignal): AsyncGenerator<JsonlSample> {
  const c = ByteCursor.over(src, 0, src.size);
  const plan = new RunBuffer();
  let line = 0;
  for (;;) {
    if (line % 64 === 63) {
      throwIfAborted(signal);
      await yieldToEventLoop();
    }
    let end = c.bytes.indexOf(10, c.pos);
    while (end < 0) {
      const had = c.available;
      if (had > MAX_LINE) throw new FormatError('limit', `line ${line + 1} is longer than ${MAX_LINE} bytes`, { offset: c.offset, field: `line ${line + 1}` });
      if ((await c.need(had + 1)) === had) break;
      end = c.bytes.indexOf(10, c.pos);
    }
    const stop = end < 0 ? c.bytes.length : end;
    if (stop === c.pos && end < 0) return;
    line++;
    const offset = c.offset;
    const bytes = c.bytes.subarray(c.pos, stop);
    c.pos = end < 0 ? stop : end + 1;
    if (isBlank(bytes)) continue;
    parseLine(bytes, plan, offset, line);
    yield { plan, line, offset };
  }
}

function isBlank(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) if (b[i] !== 32 && b[i] !== 9 && b[i] !== 13) return false;
  return true;
}

function fail(detail: string, offset: number, line: number): never {
  throw new FormatError('corrupt', detail, { offset, field: `line ${line}` });
}

function parseLine(b: Uint8Array, plan: RunBuffer, offset: number, line: number): void {
  if (b.length > KEY.length && KEY.every((k, i) => b[i] === k) && fastParse(b, plan, offset, line)) return;
  let obj: unknown;
  const json = text.decode(b);
  checkJsonDepth(json, { offset, field: `line ${line}` });
  try {
    obj = JSON.parse(json);
  } catch {
    fail('not valid JSON', offset, line);
  }
  const a = (obj as { assignment?: unknown } | null)?.assignment;
  if (!Array.isArray(a)) fail('no "assignment" array', offset, line);
  if (a.length > MAX_NODES) throw new FormatError('limit', `${a.length} nodes`, { offset, field: `line ${line}` });
  for (const v of a) if (!Number.isInteger(v) || v < 0 || v > 0xffff) fail(`district ${JSON.stringify(v)} is not an integer 0..65535`, offset, line);
  plan.fromAssignment(a as number[]);
}

/** Digits, commas and spaces up to `]`; false (use JSON.parse) on anything else. */
function fastParse(b: Uint8Array, plan: RunBuffer, offset: number, line: number): boolean {
  plan.clear();
  const end = b.length;
  let i = KEY.length;
  while (i < end && b[i] === 32) i++;
  if (b[i] === 93) return true; // []
  let cur = -1;
  let len = 0;
  for (;;) {
    let ch = b[i]!;
    if (ch < 48 || ch > 57) return false;
    let v = ch - 48;
    ch = b[++i]!;
    if (v === 0 && ch >= 48 && ch <= 57) return false; // a leading zero: JSON.parse judges it
    while (ch >= 48 && ch <= 57) {
      v = v * 10 + ch - 48;
      ch = b[++i]!;
    }
    if (v > 0xffff) fail(`district ${v} is larger than 65535`, offset, line);
    if (v === cur) len++;
    else {
      if (cur >= 0) plan.push(cur, len);
      cur = v;
      len = 1;
    }
    while (ch === 32) ch = b[++i]!;
    if (ch === 44) {
      i++;
      while (b[i] === 32) i++;
      continue;
    }
    if (ch !== 93 || i >= end) return false;
    break;
  }
  plan.push(cur, len);
  if (plan.nodes > MAX_NODES) throw new FormatError('limit', `${plan.nodes} nodes`, { offset, field: `line ${line}` });
  return true;
}
