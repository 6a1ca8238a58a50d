import type { ByteSink } from '../../model.js';
import type { Plan } from './plan.js';

const enc = new TextEncoder();
const HEAD = enc.encode('{"assignment":[');
const MID = enc.encode('],"sample":');
const FLUSH_AT = 1 << 20;

/** "v," for every u16 value: the bytes JSONL writing copies, built once. */
const DIGITS = new Uint8Array(65536 * 6);
const DIGIT_LENGTHS = new Uint8Array(65536);
for (let v = 0; v < 65536; v++) {
  const s = enc.encode(`${v},`);
  DIGITS.set(s, v * 6);
  DIGIT_LENGTHS[v] = s.length;
}

/**
 * Writes plans as the reference decoder's JSONL (`{"assignment":[...],"sample":k}`, compact,
 * one line per expanded sample) straight into a byte buffer. A run of n equal values is one
 * "v," copied and then doubled with copyWithin, so the cost follows the runs, not the nodes.
 */
export class JsonlWriter {
  private buf = new Uint8Array(4 << 20);
  private at = 0;
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
    const start = this.at;
    this.room(HEAD.length + plan.nodes * 6 + 40);
    this.put(HEAD);
    const b = this.buf;
    for (let i = 0; i < plan.runs; i++) {
      const v = plan.values[i]!;
      const w = DIGIT_LENGTHS[v]!;
      const total = w * plan.lengths[i]!;
      b.set(DIGITS.subarray(v * 6, v * 6 + w), this.at);
      for (let done = w; done < total; done *= 2) b.copyWithin(this.at + done, this.at, this.at + Math.min(done, total - done));
      this.at += total;
    }
    if (plan.nodes > 0) this.at--; // the last comma
    this.put(MID);
    const head = count > 1 ? this.buf.slice(start, this.at) : undefined;
    this.put(enc.encode(`${first}}\n`));
    for (let k = 1; k < count; k++) {
      if (this.at >= FLUSH_AT) await this.flush();
      this.room(head!.length + 24);
      this.put(head!);
      this.put(enc.encode(`${first + k}}\n`));
    }
    if (this.at >= FLUSH_AT) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.at === 0) return;
    await this.sink.write(this.buf.slice(0, this.at));
    this.bytes += this.at;
    this.at = 0;
  }
}
