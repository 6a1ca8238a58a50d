import type { CacheMemory } from '../model.js';
import { checkRange, type ByteSource } from './byteSource.js';

/**
 * Keeps recently read fixed-size pages of a slower source (a file handle, a remote file) so
 * that walks that read many small fields near each other cost one read per page. Memory is
 * bounded by `pageSize * maxPages` whatever the file size.
 */
export class PageCache implements ByteSource, CacheMemory {
  private readonly pages = new Map<number, Promise<Uint8Array>>();
  /** Straight to the inner source: a synchronous read costs less than a page copy. */
  readonly readSync?: (offset: number, length: number) => Uint8Array;
  /** Straight to the inner source: bulk reads do not go through pages. */
  readonly readInto?: (offset: number, target: Uint8Array) => Promise<void>;
  readonly readIntoSync?: (offset: number, target: Uint8Array) => void;

  constructor(
    private readonly inner: ByteSource,
    // 16 KiB pages suit both clustered field reads and headers scattered every ~64 KiB.
    private readonly pageSize = 16 * 1024,
    private readonly maxPages = 256,
  ) {
    this.readSync = inner.readSync?.bind(inner);
    this.readInto = inner.readInto?.bind(inner);
    this.readIntoSync = inner.readIntoSync?.bind(inner);
  }

  get size(): number {
    return this.inner.size;
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    checkRange(this.size, offset, length);
    if (length === 0) return new Uint8Array(0);
    const first = Math.floor(offset / this.pageSize);
    const last = Math.floor((offset + length - 1) / this.pageSize);
    // Reads much larger than the cache go straight through instead of evicting everything.
    if (last - first + 1 > this.maxPages / 2) return this.inner.read(offset, length);
    if (first === last) {
      const page = await this.page(first);
      const start = offset - first * this.pageSize;
      return page.subarray(start, start + length);
    }
    this.loadMissing(first, last);
    const out = new Uint8Array(length);
    for (let p = first; p <= last; p++) {
      const page = await this.page(p);
      const pageStart = p * this.pageSize;
      const from = Math.max(offset, pageStart);
      const to = Math.min(offset + length, pageStart + page.length);
      out.set(page.subarray(from - pageStart, to - pageStart), from - offset);
    }
    return out;
  }

  /**
   * Starts one inner read per run of consecutive pages of [first, last] that are not cached,
   * instead of one per page: an fst node window spans five pages, and every read is a trip
   * through Node's thread pool (the fst-stream bench waited on 375 of them, DESIGN.md,
   * Performance). Each page keeps its own copy, so evicting pages frees memory page by page.
   */
  private loadMissing(first: number, last: number): void {
    for (let p = first; p <= last; p++) {
      if (this.pages.has(p)) continue;
      let q = p;
      while (q < last && !this.pages.has(q + 1)) q++;
      if (q === p) continue; // page() reads a single page on its own
      const start = p * this.pageSize;
      const run = this.inner.read(start, Math.min((q - p + 1) * this.pageSize, this.size - start));
      for (let k = p; k <= q; k++) {
        const at = (k - p) * this.pageSize;
        const loading = run.then((bytes) => bytes.slice(at, at + this.pageSize));
        loading.catch(() => this.pages.delete(k));
        this.insert(k, loading);
      }
      p = q;
    }
  }

  private insert(index: number, loading: Promise<Uint8Array>): void {
    this.pages.set(index, loading);
    while (this.pages.size > this.maxPages) {
      const oldest = this.pages.keys().next().value as number;
      this.pages.delete(oldest);
    }
  }

  private page(index: number): Promise<Uint8Array> {
    const hit = this.pages.get(index);
    if (hit) {
      // Re-insert to mark as most recently used (Map keeps insertion order).
      this.pages.delete(index);
      this.pages.set(index, hit);
      return hit;
    }
    const start = index * this.pageSize;
    const length = Math.min(this.pageSize, this.size - start);
    const loading = this.inner.read(start, length);
    loading.catch(() => this.pages.delete(index));
    this.insert(index, loading);
    return loading;
  }

  /** Bytes of the pages kept (a page still loading counts as a whole one). */
  bytes(): number {
    return this.pages.size * this.pageSize;
  }

  /** Forgets every page: the memory budget took it back; later reads read the file again. */
  drop(): void {
    this.pages.clear();
  }

  close(): Promise<void> {
    this.pages.clear();
    return this.inner.close?.() ?? Promise.resolve();
  }
}
