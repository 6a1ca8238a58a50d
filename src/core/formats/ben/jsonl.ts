import { chunkFor } from '../../io/bufferedSink.js';
import type { ByteSink } from '../../model.js';
import type { Plan } from './plan.js';

const enc = new TextEncoder();
const HEAD = enc.encode('{"assignment":[');
const MID = enc.encode('],"sample":');
const FLUSH_AT = 1 << 20;

/** "v," for every u16 value (at v·6, `lengths[v]` bytes long): the bytes JSONL writing copies. */
interface DigitTable {
  readonly bytes: Uint8Array;
  /** 0 for a value not written yet: `width` fills its entry. */
  readonly lengths: Uint8Array;
}

/**
 * Allocated on first use, not when the module loads (every CLI run and engine start imports it),
 * and each entry filled when its value is first written: filling all 65 536 at once cost every
 * `cat` 20–55 ms (measured in the CLI), the loop running once, in the interpreter.
 */
let table: DigitTable | undefined;

function digits(): DigitTable {
  return (table ??= { bytes: new Uint8Array(65536 * 6), lengths: new Uint8Array(65536) });
}

/** Bytes of "v,", its entry filled first if need be. */
function width(t: DigitTable, v: number): number {
  const w = t.lengths[v]!;
  return w === 0 ? fill(t, v) : w;
}

function fill({ bytes, lengths }: DigitTable, v: number): number {
  const text = `${v},`;
  for (let i = 0; i < text.length; i++) bytes[v * 6 + i] = text.charCodeAt(i);
  lengths[v] = text.length;
  return text.length;
}

/** Room for a line's end after its last value: `],"sample":k}\n`, k of up to 16 digits. */
const TAIL = 32;

/** Bytes of a plan's line, at most (its sample number taken as the longest). */
function lineBytes(t: DigitTable, plan: Plan): number {
  let n = HEAD.length + TAIL;
  for (let i = 0; i < plan.runs; i++) n += width(t, plan.values[i]!) * plan.lengths[i]!;
  return n;
}

/**
 * Patterns of "v,v,v,…" for the values seen lately, each grown (doubling) to the longest run of
 * it so far: a run becomes one copy. Each was made whole at once before, 65535 repeats (up to
 * 393 KB) per value even where every run is short.
 */
const patterns = new Map<number, Uint8Array>();
const MAX_PATTERNS = 128;
const MIN_REPEATS = 64;

/** At least `repeats` (≤ 65535) copies of "v,". */
function pattern(v: number, repeats: number): Uint8Array {
  const t = digits();
  const w = width(t, v);
  let p = patterns.get(v);
  if (p && p.length >= repeats * w) return p;
  // Views of a pattern keep it alive: they go with it, so a value's shorter patterns are not kept.
  if (p || patterns.size >= MAX_PATTERNS) runViews.clear();
  if (!p && patterns.size >= MAX_PATTERNS) patterns.clear();
  p = new Uint8Array(w * Math.min(0xffff, Math.max(repeats, MIN_REPEATS, p ? (2 * p.length) / w : 0)));
  p.set(t.bytes.subarray(v * 6, v * 6 + w));
  for (let done = w; done < p.length; done *= 2) p.copyWithin(done, 0, Math.min(done, p.length - done));
  patterns.set(v, p);
  return p;
}

/**
 * "v,v,…" of n values, kept per (v, n) as a view of v's pattern: a view made per run was 217 MB of
 * young-generation garbage in a 280 MB cat (3 million runs), and peak RSS grew with the file.
 */
const runViews = new Map<number, Uint8Array>();
const MAX_RUN_VIEWS = 4096;

function run(v: number, n: number, w: number): Uint8Array {
  // An int32, a small integer to V8 where a key from 2^31 up would be a boxed number.
  const key = (v << 16) | n;
  let r = runViews.get(key);
  if (r === undefined) {
    if (runViews.size >= MAX_RUN_VIEWS) runViews.clear();
    r = pattern(v, n).subarray(0, n * w);
    runViews.set(key, r);
  }
  return r;
}

/**
 * Writes plans as the reference decoder's JSONL (`{"assignment":[...],"sample":k}`, compact,
 * one line per expanded sample) straight into a byte buffer. A run of n equal values is one
 * copy from a prepared "v,v,v,…" pattern, so the cost follows the runs, not the nodes.
 */
export class JsonlWriter {
  // Small to start: most writers (a page, a small file) never need more; room() grows it.
  private buf = new Uint8Array(1 << 16);
  private at = 0;
  private head = new Uint8Array(0);
  bytes = 0;

  constructor(private readonly sink: ByteSink) {}

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(FLUSH_AT, this.at + n));
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
  }

  private put(bytes: Uint8Array): void {
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
  }

  /** One line per sample in [first, first + count). */
  async write(plan: Plan, first: number, count = 1): Promise<void> {
    const t = digits();
    const line = lineBytes(t, plan);
    if (line > FLUSH_AT) {
      // A line longer than a flush is written in pieces as it is made: a plan of millions of
      // nodes, repeated thousands of times, is gigabytes, and is never whole in memory.
      for (let k = 0; k < count; k++) await this.longLine(plan, first + k);
      return;
    }
    // The lines so far go out before the buffer would grow past a flush: it stays at FLUSH_AT.
    // Grown to fit a line's bound (6 bytes a node) it reached 3.2 MB, and the sizes it left behind
    // raised peak RSS (malloc keeps what it freed).
    if (this.at + line > FLUSH_AT) await this.flush();
    const start = this.at;
    this.room(line);
    this.put(HEAD);
    const b = this.buf;
    const DIGITS = t.bytes;
    let at = this.at;
    for (let i = 0; i < plan.runs; i++) {
      const v = plan.values[i]!;
      const n = plan.lengths[i]!;
      const w = width(t, v);
      const total = w * n;
      if (total <= 48) {
        // Short runs: a byte loop beats the call into a typed-array copy.
        const d = v * 6;
        for (let k = 0; k < n; k++) for (let j = 0; j < w; j++) b[at++] = DIGITS[d + j]!;
      } else {
        b.set(run(v, n, w), at);
        at += total;
      }
    }
    this.at = at;
    if (plan.nodes > 0) this.at--; // the last comma
    this.put(MID);
    const head = count > 1 ? this.keepHead(start) : undefined;
    this.put(enc.encode(`${first}}\n`));
    for (let k = 1; k < count; k++) {
      if (this.at + head!.length + TAIL > FLUSH_AT) await this.flush();
      this.room(head!.length + TAIL);
      this.put(head!);
      this.put(enc.encode(`${first + k}}\n`));
    }
  }

  /**
   * buf[start, at) copied aside for the repeats of a line (a flush may move it): into one buffer
   * kept for the purpose, not a fresh copy per frame (each up to a megabyte, all garbage).
   */
  private keepHead(start: number): Uint8Array {
    const n = this.at - start;
    if (this.head.length < n) this.head = new Uint8Array(Math.max(n, this.head.length * 2));
    this.head.set(this.buf.subarray(start, this.at));
    return this.head.subarray(0, n);
  }

  /** One line of a plan too long to hold, in pieces of about FLUSH_AT bytes. */
  private async longLine(plan: Plan, sample: number): Promise<void> {
    // Room for a full piece, plus the digits of the value that crosses FLUSH_AT, plus the tail.
    this.room(FLUSH_AT + 6 * 0xffff + MID.length + 24);
    this.put(HEAD);
    const t = digits();
    for (let i = 0; i < plan.runs; i++) {
      const v = plan.values[i]!;
      const w = width(t, v);
      for (let left = plan.lengths[i]!; left > 0; ) {
        const n = Math.min(left, Math.max(1, Math.floor((FLUSH_AT - this.at) / w)));
        this.put(pattern(v, n).subarray(0, n * w));
        left -= n;
        // The last byte stays: it may be the line's last comma, which MID replaces.
        if (this.at >= FLUSH_AT) await this.flush(1);
      }
    }
    if (plan.nodes > 0) this.at--; // the last comma
    this.put(MID);
    this.put(enc.encode(`${sample}}\n`));
    if (this.at >= FLUSH_AT) await this.flush();
  }

  /** Writes what is buffered, but for the last `keep` bytes, which move to the front. */
  async flush(keep = 0): Promise<void> {
    const n = this.at - keep;
    if (n <= 0) return;
    await this.sink.write(chunkFor(this.sink, this.buf, n));
    this.bytes += n;
    this.buf.copyWithin(0, n, this.at);
    this.at = keep;
  }
}
