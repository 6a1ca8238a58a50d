import { hexString } from '../../describe.js';
import { throwIfAborted } from '../../errors.js';
import { yieldToEventLoop } from '../../io/scan.js';
import type { ByteSink, TaskContext } from '../../model.js';
import { toDecimal } from './node.js';
import type { FstReader } from './reader.js';
import { checkedKeyStream } from './checkedStream.js';
import { utf8Text } from '../../io/utf8.js';

/**
 * The fst's keys and values as text lines, written straight into byte buffers (no string per
 * line) so dumping millions of keys is bound by the walk, not by formatting:
 * - tsv: `KEY<TAB>VALUE`, key escaped as in keyText.ts (the `binlens cat` contract);
 * - jsonl: `{"key":"…","value":"…"}`; keys that are not valid UTF-8 are written as
 *   `{"keyHex":"…"}` instead, values as decimal strings (u64 does not fit a JSON number), and
 *   sets (`values: false`) omit the value.
 */
export type TextFormat = 'tsv' | 'jsonl';

const FLUSH = 1 << 16;
const ENC = new TextEncoder();
const ESC_BYTES: Uint8Array[] = Array.from({ length: 256 }, (_, b) =>
  b >= 0x21 && b <= 0x7e && b !== 0x5c ? Uint8Array.of(b) : ENC.encode(`\\x${b.toString(16).padStart(2, '0')}`),
);

export interface TextRange {
  readonly from?: number;
  readonly count?: number;
  /** jsonl: write values (maps) or only keys (sets). */
  readonly values?: boolean;
}

export async function writeKeysAsText(reader: FstReader, format: TextFormat, range: TextRange, out: ByteSink, ctx: TaskContext): Promise<number> {
  const from = range.from ?? 0;
  const end = range.count === undefined ? Infinity : from + range.count;
  const values = range.values ?? true;
  let buf = new Uint8Array(FLUSH + 4096);
  let n = 0;
  const room = (k: number) => {
    if (n + k > buf.length) {
      const bigger = new Uint8Array(Math.max(buf.length * 2, n + k));
      bigger.set(buf.subarray(0, n));
      buf = bigger;
    }
  };
  const ascii = (s: string) => {
    room(s.length);
    for (let i = 0; i < s.length; i++) buf[n++] = s.charCodeAt(i);
  };
  let row = 0;
  let written = 0;
  const stream = checkedKeyStream(reader, ctx, () => row);
  const total = Number(reader.keyCount);
  for (;;) {
    throwIfAborted(ctx.signal);
    const done = await stream.run((key, len, hi, lo) => {
      if (row++ < from) return true;
      if (row > end) return false;
      if (format === 'tsv') {
        for (let i = 0; i < len; i++) {
          const e = ESC_BYTES[key[i]!]!;
          room(e.length);
          if (e.length === 1) buf[n++] = e[0]!;
          else buf.set(e, (n += e.length) - e.length);
        }
        ascii('\t');
        ascii(toDecimal(hi, lo));
        ascii('\n');
      } else {
        jsonKey(key, len, ascii, (bytes) => {
          room(bytes.length);
          buf.set(bytes, n);
          n += bytes.length;
        });
        if (values) ascii(`,"value":"${toDecimal(hi, lo)}"}\n`);
        else ascii('}\n');
      }
      written++;
      return n < FLUSH;
    }, ctx.signal);
    if (n > 0) {
      await out.write(buf.slice(0, n));
      n = 0;
    }
    if (done || row > end) break;
    ctx.progress?.({ done: row, total, message: 'keys' });
    await yieldToEventLoop();
  }
  return written;
}

/** `{"key":"text"` for UTF-8 keys, `{"keyHex":"…"` for the rest. */
function jsonKey(key: Uint8Array, len: number, ascii: (s: string) => void, raw: (b: Uint8Array) => void): void {
  const text = utf8Text(key.subarray(0, len));
  if (text === undefined) {
    ascii(`{"keyHex":"${hexString(key.subarray(0, len))}"`);
    return;
  }
  ascii('{"key":');
  raw(ENC.encode(JSON.stringify(text)));
}
