import { rethrowUnlessFormatError, throwIfAborted } from '../../errors.js';
import { yieldToEventLoop } from '../../io/scan.js';
import type { Column, Row, RowCount, SavedIndex, Table, TaskContext } from '../../model.js';
import { decodeKeysIndex, encodeKeysIndex } from './keysIndexBytes.js';
import { escapeKey, hexKey } from './keyText.js';
import { toBigInt } from './node.js';
import { lastKeys } from './lastKeys.js';
import type { FstReader } from './reader.js';
import { KeyStream } from './stream.js';

/**
 * The keys and values in order as a paged table. An fst cannot seek to "row N", so the table
 * remembers the key at every 1024th row it has passed (checkpoints) and serves a page by
 * seeking the stream to the nearest checkpoint at or before it and walking from there; the
 * stream that served the last page is kept, so scrolling forwards never re-walks. Pages nearer
 * the end than to any starting point walk backwards from the last key instead (`lastKeys.ts`),
 * where the count is exact. The row count is the footer's key count until a walk reaches the end
 * and knows the true count (vellum files built with duplicate keys over-count).
 */
const CHECKPOINT_EVERY = 1024;
/** A walk yields to the event loop after this many keys. */
const SLICE = 4096;

export const KEY_COLUMNS: readonly Column[] = [
  { key: 'key', title: 'key', type: 'text', description: 'bytes 0x21–0x7e except \\ as text, others as \\xHH' },
  { key: 'value', title: 'value', type: 'number', description: 'u64 output (0 for sets)' },
  { key: 'hex', title: 'key (hex)', type: 'hex' },
];

export function keyRow(key: Uint8Array, len: number, hi: number, lo: number, nodeStart: number, nodeAddr: number): Row {
  return {
    cells: [escapeKey(key, len), toBigInt(hi, lo), hexKey(key, len)],
    range: nodeAddr === 0 ? undefined : { offset: nodeStart, length: nodeAddr - nodeStart + 1 },
  };
}

export class KeysTable implements Table, SavedIndex {
  readonly id = 'keys';
  readonly title = 'Keys';
  readonly columns = KEY_COLUMNS;
  /** Counting walks every key and keeps a checkpoint every 1024: afterwards any page is near one. */
  readonly countIndexes = true;
  /** checkpoints[i] is the key at row i · CHECKPOINT_EVERY. */
  private checkpoints: Uint8Array[] = [];
  private cursor: { stream: KeyStream; row: number } | undefined;
  private exact: number | undefined;
  private busy: Promise<unknown> = Promise.resolve();

  constructor(private readonly reader: FstReader) {}

  rowCount(): RowCount {
    const footer = this.reader.keyCount > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(this.reader.keyCount);
    return { known: this.exact ?? footer, complete: true };
  }

  /** The true number of keys, once a walk has reached the end. */
  get walkedCount(): number | undefined {
    return this.exact;
  }

  /** Records the true key count found by another full walk (verify). */
  setWalkedCount(n: number): void {
    this.exact = n;
  }

  /** The checkpoints once a walk has passed more than the first. */
  save(): Uint8Array | undefined {
    return this.checkpoints.length < 2 ? undefined : encodeKeysIndex({ exact: this.exact, checkpoints: this.checkpoints });
  }

  /** Takes saved checkpoints that reach further than this table's own. */
  restore(bytes: Uint8Array): boolean {
    const footer = this.reader.keyCount > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(this.reader.keyCount);
    let saved;
    try {
      saved = decodeKeysIndex(bytes, footer);
    } catch (e) {
      rethrowUnlessFormatError(e);
      return false;
    }
    if (saved.checkpoints.length <= this.checkpoints.length) return false;
    this.checkpoints = [...saved.checkpoints];
    this.exact ??= saved.exact;
    this.cursor = undefined;
    return true;
  }

  page(from: number, count: number, signal?: AbortSignal): Promise<readonly Row[]> {
    // One walk at a time: pages share the cursor.
    const run = this.busy.then(() => this.pageNow(from, count, signal));
    this.busy = run.catch(() => undefined);
    return run;
  }

  /** The key count rows can be placed by from the end: walked, or a footer that counts exactly. */
  private exactCount(): number | undefined {
    if (this.exact !== undefined) return this.exact;
    // fst 0.3+ builders refuse repeated keys; version 1 may be vellum, which counts them.
    return this.reader.version >= 2 && this.reader.keyCount <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(this.reader.keyCount) : undefined;
  }

  private async pageNow(from: number, count: number, signal?: AbortSignal): Promise<readonly Row[]> {
    // Start from whichever is nearer below `from`: the last page's stream or a checkpoint.
    const cp = Math.min(Math.floor(from / CHECKPOINT_EVERY), this.checkpoints.length - 1);
    const cpRow = cp >= 0 ? cp * CHECKPOINT_EVERY : 0;
    const total = this.exactCount();
    if (total !== undefined && from < total) {
      const forwards = from - (this.cursor !== undefined && this.cursor.row <= from && this.cursor.row >= cpRow ? this.cursor.row : cpRow);
      const backwards = total - from;
      if (backwards < forwards) {
        const take = Math.min(count, total - from);
        const keys = await lastKeys(this.reader, total - from - take, take, signal);
        return keys.map((k) => keyRow(k.key, k.key.length, k.hi, k.lo, k.start, k.addr));
      }
    }
    let cur = this.cursor;
    if (cur === undefined || cur.row > from || cur.row < cpRow) {
      const seek = cp >= 0 ? { from: { key: this.checkpoints[cp]!, inclusive: true } } : {};
      cur = { stream: new KeyStream(this.reader, seek), row: cpRow };
    }
    this.cursor = cur;
    const rows: Row[] = [];
    const c = cur;
    while (rows.length < count) {
      throwIfAborted(signal);
      let slice = 0;
      const done = await c.stream.run((key, len, hi, lo, node) => {
        const row = c.row++;
        if (row % CHECKPOINT_EVERY === 0 && this.checkpoints.length === row / CHECKPOINT_EVERY) this.checkpoints.push(key.slice(0, len));
        if (row >= from) rows.push(keyRow(key, len, hi, lo, node.start, node.addr));
        return rows.length < count && ++slice < SLICE;
      }, signal);
      if (done) {
        this.exact = c.row;
        this.cursor = undefined;
        break;
      }
      if (rows.length < count) await yieldToEventLoop();
    }
    return rows;
  }

  /** Walks every key to learn the exact count and fill the checkpoints. */
  async count(ctx: TaskContext): Promise<number> {
    if (this.exact !== undefined && this.checkpoints.length * CHECKPOINT_EVERY >= this.exact) return this.exact;
    const stream = new KeyStream(this.reader);
    let row = 0;
    const total = Number(this.reader.keyCount);
    for (;;) {
      throwIfAborted(ctx.signal);
      let slice = 0;
      const done = await stream.run((key, len) => {
        if (row % CHECKPOINT_EVERY === 0 && this.checkpoints.length === row / CHECKPOINT_EVERY) this.checkpoints.push(key.slice(0, len));
        row++;
        return ++slice < 65536;
      }, ctx.signal);
      if (done) break;
      ctx.progress?.({ done: row, total, message: 'counting keys' });
      await yieldToEventLoop();
    }
    this.exact = row;
    return row;
  }
}
