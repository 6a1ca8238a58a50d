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
  readonly lengths: Uint8Array;
}

let digitTable: DigitTable | undefined;

/** Built on first use, not when the module loads: every CLI run and engine start imports it. */
function digits(): DigitTable {
  if (digitTable) return digitTable;
  const bytes = new Uint8Array(65536 * 6);
  const lengths = new Uint8Array(65536);
  for (let v = 0; v < 65536; v++) {
    const len = v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : v < 10000 ? 4 : 5;
    for (let i = len - 1, x = v; i >= 0; i--, x = Math.floor(x / 10)) bytes[v * 6 + i] = 0x30 + (x % 10);
    bytes[v * 6 + len] = 0x2c;
    lengths[v] = len + 1;
  }
  return (digitTable = { bytes, lengths });
}

/** Patterns of "v,v,v,…" (65535 repeats) for the values seen lately: a run becomes one copy. */
const patterns = new Map<number, Uint8Array>();
const MAX_PATTERNS = 128;

function pattern(v: number): Uint8Array {
  let p = patterns.get(v);
  if (p) return p;
  if (patterns.size >= MAX_PATTERNS) patterns.clear();
  const { bytes, lengths } = digits();
  const w = lengths[v]!;
  p = new Uint8Array(w * 0xffff);
  p.set(bytes.subarray(v * 6, v * 6 + w));
  for (let done = w; done < p.length; done *= 2) p.copyWithin(done, 0, Math.min(done, p.length - done));
  patterns.set(v, p);
  return p;
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
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.at + n));
    next.set(this.buf.subarray(0, this.at));
    this.buf = next;
  }

  private put(bytes: Uint8Array): void {
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
  }

  /** One line per sample in [first, first + count). */
  async write(plan: Plan, first: number, count = 1): Promise<void> {
    if (HEAD.length + plan.nodes * 6 + 40 > FLUSH_AT) {
      // A line longer than a flush is written in pieces as it is made: a plan of millions of
      // nodes, repeated thousands of times, is gigabytes, and is never whole in memory.
      for (let k = 0; k < count; k++) await this.longLine(plan, first + k);
      return;
    }
    const start = this.at;
    this.room(HEAD.length + plan.nodes * 6 + 40);
    this.put(HEAD);
    const b = this.buf;
    const { bytes: DIGITS, lengths: DIGIT_LENGTHS } = digits();
    let at = this.at;
    for (let i = 0; i < plan.runs; i++) {
      const v = plan.values[i]!;
      const n = plan.lengths[i]!;
      const total = DIGIT_LENGTHS[v]! * n;
      if (total <= 48) {
        // Short runs: a byte loop beats the call into a typed-array copy.
        const d = v * 6;
        const w = DIGIT_LENGTHS[v]!;
        for (let k = 0; k < n; k++) for (let j = 0; j < w; j++) b[at++] = DIGITS[d + j]!;
      } else {
        b.set(pattern(v).subarray(0, total), at);
        at += total;
      }
    }
    this.at = at;
    if (plan.nodes > 0) this.at--; // the last comma
    this.put(MID);
    const head = count > 1 ? this.keepHead(start) : undefined;
    this.put(enc.encode(`${first}}\n`));
    for (let k = 1; k < count; k++) {
      if (this.at >= FLUSH_AT) await this.flush();
      this.room(head!.length + 24);
      this.put(head!);
      this.put(enc.encode(`${first + k}}\n`));
    }
    if (this.at >= FLUSH_AT) await this.flush();
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
    const { lengths: DIGIT_LENGTHS } = digits();
    for (let i = 0; i < plan.runs; i++) {
      const v = plan.values[i]!;
      const w = DIGIT_LENGTHS[v]!;
      for (let left = plan.lengths[i]!; left > 0; ) {
        const n = Math.min(left, Math.max(1, Math.floor((FLUSH_AT - this.at) / w)));
        this.put(pattern(v).subarray(0, n * w));
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
