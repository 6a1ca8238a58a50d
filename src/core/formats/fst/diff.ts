/**
 * FST diff: keys removed and added, values changed, by a merge walk over both files' keys (each
 * stream is in byte order). Keys are pulled in batches into flat buffers, so the walk allocates
 * nothing per key (DESIGN: allocation per key cost 3–5×) and memory stays at two batches.
 */
import { FormatError } from '../../errors.js';
import type { Difference, DiffSpec, DiffSummary, FormatDocument, TaskContext } from '../../model.js';
import { DiffSideError, onSide, Tally, type DiffSide } from '../../ops/diffKit.js';
import type { FstChecksum } from './checksum.js';
import { escapeKey } from './keyText.js';
import { toDecimal } from './node.js';
import type { FstReader } from './reader.js';
import { KeyStream } from './stream.js';

const BATCH_KEYS = 4096;
const BATCH_BYTES = 1 << 16;

export class FstDiff implements DiffSpec {
  constructor(
    private readonly reader: FstReader,
    private readonly checksum: FstChecksum,
  ) {}

  async *run(other: FormatDocument, ctx: TaskContext): AsyncGenerator<Difference, DiffSummary> {
    const theirs = other.diff;
    if (!(theirs instanceof FstDiff)) throw new DiffSideError('B', new FormatError('unsupported', 'not an fst'));
    const strict: TaskContext = { signal: ctx.signal };
    // The CRC covers every key: checked before any is compared, as cat does before any is written.
    await onSide('A', () => this.checksum.require(strict));
    await onSide('B', () => theirs.checksum.require(strict));
    return yield* mergeKeys(new KeyBatch('A', this.reader, ctx.signal), new KeyBatch('B', theirs.reader, ctx.signal));
  }
}

/** A batch of keys in byte order, refilled from its stream when used up. */
class KeyBatch {
  private readonly stream: KeyStream;
  private bytes = new Uint8Array(BATCH_BYTES);
  private readonly ends = new Int32Array(BATCH_KEYS);
  private readonly his = new Uint32Array(BATCH_KEYS);
  private readonly los = new Uint32Array(BATCH_KEYS);
  private count = 0;
  private used = 0;
  private finished = false;
  /** The current key: index into the batch. */
  at = 0;

  constructor(
    private readonly side: DiffSide,
    reader: FstReader,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.stream = new KeyStream(reader);
  }

  /** True when a current key exists (refilling when the batch is used up). */
  async ready(): Promise<boolean> {
    if (this.at < this.count) return true;
    if (this.finished) return false;
    this.count = 0;
    this.used = 0;
    this.at = 0;
    this.finished = await onSide(this.side, () => this.stream.run((key, len, hi, lo) => this.take(key, len, hi, lo), this.signal));
    if (this.signal?.aborted) throw new FormatError('cancelled', 'diff cancelled');
    return this.count > 0;
  }

  /** Keeps one key (the stream has handed it over for good); false when the batch is full. */
  private take(key: Uint8Array, len: number, hi: number, lo: number): boolean {
    if (this.used + len > this.bytes.length) {
      const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.used + len));
      bigger.set(this.bytes.subarray(0, this.used));
      this.bytes = bigger;
    }
    for (let i = 0; i < len; i++) this.bytes[this.used + i] = key[i]!;
    this.used += len;
    const n = this.count++;
    this.ends[n] = this.used;
    this.his[n] = hi;
    this.los[n] = lo;
    return this.count < BATCH_KEYS && this.used < BATCH_BYTES;
  }

  private start(i: number): number {
    return i === 0 ? 0 : this.ends[i - 1]!;
  }

  /** Byte order of the current keys of `this` and `other`: negative, 0 or positive. */
  compare(other: KeyBatch): number {
    const a = this.bytes;
    const b = other.bytes;
    let i = this.start(this.at);
    const ie = this.ends[this.at]!;
    let j = other.start(other.at);
    const je = other.ends[other.at]!;
    for (; i < ie && j < je; i++, j++) if (a[i] !== b[j]) return a[i]! - b[j]!;
    return ie - i - (je - j);
  }

  sameValue(other: KeyBatch): boolean {
    return this.his[this.at] === other.his[other.at] && this.los[this.at] === other.los[other.at];
  }

  keyText(): string {
    const s = this.start(this.at);
    return escapeKey(this.bytes.subarray(s, this.ends[this.at]!));
  }

  /** Where, for a text line: the empty key would otherwise print as nothing. */
  where(): string {
    const key = this.keyText();
    return key === '' ? 'key (empty)' : `key ${key}`;
  }

  value(): string {
    return toDecimal(this.his[this.at]!, this.los[this.at]!);
  }
}

async function* mergeKeys(a: KeyBatch, b: KeyBatch): AsyncGenerator<Difference, DiffSummary> {
  const tally = new Tally();
  let shared = 0;
  let hasA = await a.ready();
  let hasB = await b.ready();
  while (hasA || hasB) {
    const c = !hasA ? 1 : !hasB ? -1 : a.compare(b);
    if (c < 0) {
      tally.add('key-removed');
      const key = a.keyText();
      yield { kind: 'key-removed', at: a.where(), text: `removed (value ${a.value()})`, data: { key, value: a.value() } };
      a.at++;
      hasA = await a.ready();
    } else if (c > 0) {
      tally.add('key-added');
      const key = b.keyText();
      yield { kind: 'key-added', at: b.where(), text: `added (value ${b.value()})`, data: { key, value: b.value() } };
      b.at++;
      hasB = await b.ready();
    } else {
      if (!a.sameValue(b)) {
        tally.add('value-changed');
        const key = a.keyText();
        yield { kind: 'value-changed', at: a.where(), text: `${a.value()} → ${b.value()}`, data: { key, a: a.value(), b: b.value() } };
      } else shared++;
      a.at++;
      b.at++;
      hasA = await a.ready();
      hasB = await b.ready();
    }
  }
  tally.note('keys-same', shared);
  return tally.summary();
}
