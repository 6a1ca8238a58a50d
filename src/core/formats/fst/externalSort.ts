import { FormatError, throwIfAborted } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { ScratchSpace, TaskContext } from '../../model.js';
import { compareBytes } from './keyText.js';

/**
 * Sorts key/value entries of any number with bounded memory: entries are collected up to a
 * budget, sorted and spilled as a run to scratch space, and the runs are merged with a heap.
 * Stable: among equal keys, input order is kept (so "first value wins" means first in the
 * input). Without scratch space, input over the budget is refused with a clear error.
 */
export interface Entry {
  readonly key: Uint8Array;
  readonly value: bigint;
}

const DEFAULT_BUDGET = 64 << 20;
/** Bytes an entry costs in memory beyond its key (objects, array slot, bigint). */
const ENTRY_OVERHEAD = 96;
const READ_BLOCK = 256 << 10;

export class ExternalSorter {
  private entries: Entry[] = [];
  private bytes = 0;
  private readonly runs: ByteSource[] = [];

  constructor(
    private readonly ctx: TaskContext,
    private readonly budget = DEFAULT_BUDGET,
  ) {}

  /** Number of runs spilled so far (for reports and tests). */
  get spilled(): number {
    return this.runs.length;
  }

  async add(key: Uint8Array, value: bigint): Promise<void> {
    this.entries.push({ key, value });
    this.bytes += key.length + ENTRY_OVERHEAD;
    if (this.bytes >= this.budget) await this.spill();
  }

  private async spill(): Promise<void> {
    const scratch: ScratchSpace | undefined = this.ctx.scratch;
    if (!scratch) {
      throw new FormatError(
        'limit',
        `the input needs sorting and is larger than ${this.budget >> 20} MiB; sort it first (LC_ALL=C sort) or convert with the binlens CLI`,
        { field: 'input' },
      );
    }
    this.entries.sort((a, b) => compareBytes(a.key, b.key));
    const file = await scratch.create();
    let buf = new Uint8Array(1 << 20);
    let n = 0;
    const view = () => new DataView(buf.buffer);
    for (const e of this.entries) {
      throwIfAborted(this.ctx.signal);
      const need = 4 + e.key.length + 8;
      if (n + need > buf.length) {
        await file.write(buf.slice(0, n));
        n = 0;
        if (need > buf.length) buf = new Uint8Array(need);
      }
      view().setUint32(n, e.key.length, true);
      buf.set(e.key, n + 4);
      view().setBigUint64(n + 4 + e.key.length, e.value, true);
      n += need;
    }
    if (n) await file.write(buf.slice(0, n));
    this.runs.push(await file.finish());
    this.entries = [];
    this.bytes = 0;
  }

  /** All entries in key order, in batches. */
  async *sorted(): AsyncIterable<readonly Entry[]> {
    this.entries.sort((a, b) => compareBytes(a.key, b.key));
    if (this.runs.length === 0) {
      for (let i = 0; i < this.entries.length; i += 4096) yield this.entries.slice(i, i + 4096);
      return;
    }
    const readers = this.runs.map((src) => new RunReader(src));
    const mem = this.entries;
    let memAt = 0;
    // Heap of sources by (current key, source index); the in-memory run is the last (newest) source.
    const heads: (Entry | undefined)[] = [];
    for (const r of readers) heads.push(await r.next());
    heads.push(mem[memAt++]);
    const heap: number[] = [];
    const less = (a: number, b: number) => {
      const c = compareBytes(heads[a]!.key, heads[b]!.key);
      return c < 0 || (c === 0 && a < b);
    };
    const up = (i: number) => {
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!less(heap[i]!, heap[p]!)) break;
        [heap[i], heap[p]] = [heap[p]!, heap[i]!];
        i = p;
      }
    };
    const down = (i: number) => {
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
        if (m === i) return;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    };
    heads.forEach((h, i) => {
      if (h) {
        heap.push(i);
        up(heap.length - 1);
      }
    });
    let batch: Entry[] = [];
    while (heap.length) {
      const s = heap[0]!;
      batch.push(heads[s]!);
      heads[s] = s < readers.length ? await readers[s]!.next() : mem[memAt++];
      if (heads[s]) down(0);
      else {
        heap[0] = heap[heap.length - 1]!;
        heap.pop();
        if (heap.length) down(0);
      }
      if (batch.length === 4096) {
        throwIfAborted(this.ctx.signal);
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  }
}

/** Reads a spilled run back in blocks. */
class RunReader {
  private buf = new Uint8Array(0);
  private pos = 0;
  private offset = 0;

  constructor(private readonly src: ByteSource) {}

  private async fill(need: number): Promise<boolean> {
    if (this.buf.length - this.pos >= need) return true;
    const rest = this.buf.subarray(this.pos);
    const n = Math.min(Math.max(READ_BLOCK, need), this.src.size - this.offset);
    if (rest.length + n < need) return false;
    const more = await this.src.read(this.offset, n);
    this.offset += n;
    const joined = new Uint8Array(rest.length + more.length);
    joined.set(rest);
    joined.set(more, rest.length);
    this.buf = joined;
    this.pos = 0;
    return true;
  }

  async next(): Promise<Entry | undefined> {
    if (!(await this.fill(4))) return undefined;
    const view = new DataView(this.buf.buffer, this.buf.byteOffset);
    const len = view.getUint32(this.pos, true);
    if (!(await this.fill(4 + len + 8))) throw new FormatError('truncated', 'a sort run ended early', { field: 'scratch' });
    const v = new DataView(this.buf.buffer, this.buf.byteOffset);
    const key = this.buf.slice(this.pos + 4, this.pos + 4 + len);
    const value = v.getBigUint64(this.pos + 4 + len, true);
    this.pos += 4 + len + 8;
    return { key, value };
  }
}
