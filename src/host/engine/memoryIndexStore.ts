import type { ByteSource } from '../../core/io/byteSource.js';
import { equalBytes } from '../../core/io/bytes.js';

/** The ends of a file kept with an entry, as indexStore.ts hashes them. */
const END_BYTES = 64 * 1024;

interface Entry {
  readonly size: number;
  readonly mtime: number | undefined;
  readonly ends: Uint8Array;
  readonly bytes: Uint8Array;
}

/**
 * The web host's saved indexes and panel results (the Ensemble tab's distributions): IndexStore's
 * contract without a disk, for as long as the window lives. An entry is used only when the file's
 * size, modification time and first and last 64 KiB are what they were; the least recently used
 * entries go past `budgetBytes`. Nothing here may break an open: a failure reads as a miss.
 */
export class MemoryIndexStore {
  private readonly entries = new Map<string, Entry>();
  private total = 0;

  constructor(
    private readonly mtimeOf: (path: string) => Promise<number | undefined>,
    private readonly budgetBytes = 64 * 1024 * 1024,
  ) {}

  async load(path: string, src: ByteSource, slot = ''): Promise<Uint8Array | undefined> {
    const key = `${path}\0${slot}`;
    const e = this.entries.get(key);
    if (!e) return undefined;
    try {
      if (e.size !== src.size || e.mtime !== (await this.mtimeOf(path)) || !equalBytes(e.ends, await ends(src))) return undefined;
    } catch {
      return undefined;
    }
    // Used: the most recent again.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.bytes;
  }

  async save(path: string, src: ByteSource, bytes: Uint8Array, slot = ''): Promise<void> {
    if (bytes.length > this.budgetBytes) return;
    try {
      const e: Entry = { size: src.size, mtime: await this.mtimeOf(path), ends: await ends(src), bytes: bytes.slice() };
      const key = `${path}\0${slot}`;
      this.drop(key);
      this.entries.set(key, e);
      this.total += weight(e);
      for (const old of this.entries.keys()) {
        if (this.total <= this.budgetBytes) break;
        this.drop(old);
      }
    } catch {
      // A file that cannot be read now is saved nothing for.
    }
  }

  private drop(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.total -= weight(e);
  }
}

const weight = (e: Entry) => e.bytes.length + e.ends.length;

async function ends(src: ByteSource): Promise<Uint8Array> {
  const head = await src.read(0, Math.min(END_BYTES, src.size));
  const from = Math.max(head.length, src.size - END_BYTES);
  const tail = await src.read(from, src.size - from);
  const out = new Uint8Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}
