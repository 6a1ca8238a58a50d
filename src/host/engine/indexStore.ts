import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ByteSource } from '../../core/io/byteSource.js';

/** The ends of a file whose hash joins its path, size and mtime in an entry's identity. */
const END_BYTES = 64 * 1024;

/** Where a saved index is written and what identifies the file it belongs to. */
interface Identity {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** SHA-256 of the first and last 64 KiB. */
  readonly ends: string;
}

/**
 * Saved document indexes (BEN frame indexes, FST key checkpoints) in a folder of the extension's
 * global storage, one file per document path: a u32 length, the file's identity as JSON, then the
 * index bytes. An entry is used only when the file's path, size, mtime and the hash of its first
 * and last 64 KiB all match; a file edited in place fails one of them. The folder is kept under
 * `budgetBytes` by deleting the least recently used entries (use touches an entry's mtime).
 * Nothing here may break an open: every failure reads as "no saved index".
 */
export class IndexStore {
  constructor(
    private readonly dir: string,
    private readonly budgetBytes = 256 * 1024 * 1024,
  ) {}

  /** `slot` names another entry of the same file (a panel's cached results), checked the same way. */
  async load(path: string, src: ByteSource, slot = ''): Promise<Uint8Array | undefined> {
    try {
      const entry = this.entryPath(path, slot);
      const bytes = await readFile(entry);
      const headLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true);
      const saved = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headLength))) as Identity;
      const now = await identify(path, src);
      if (!now || saved.path !== now.path || saved.size !== now.size || saved.mtimeMs !== now.mtimeMs || saved.ends !== now.ends) return undefined;
      const t = new Date();
      await utimes(entry, t, t);
      return new Uint8Array(bytes.buffer, bytes.byteOffset + 4 + headLength, bytes.length - 4 - headLength);
    } catch {
      return undefined;
    }
  }

  async save(path: string, src: ByteSource, index: Uint8Array, slot = ''): Promise<void> {
    try {
      const id = await identify(path, src);
      if (!id || index.length > this.budgetBytes) return;
      const head = new TextEncoder().encode(JSON.stringify(id));
      const bytes = new Uint8Array(4 + head.length + index.length);
      new DataView(bytes.buffer).setUint32(0, head.length, true);
      bytes.set(head, 4);
      bytes.set(index, 4 + head.length);
      await mkdir(this.dir, { recursive: true });
      const entry = this.entryPath(path, slot);
      // Another window's engine may read the entry meanwhile: it sees the old file or the new one.
      const temp = `${entry}.${process.pid}-${Date.now()}.tmp`;
      await writeFile(temp, bytes);
      await rename(temp, entry);
      await this.evict();
    } catch {
      // A full disk or a read-only storage folder costs the next open a walk, nothing more.
    }
  }

  /** Deletes the least recently used entries until the folder fits the budget. */
  private async evict(): Promise<void> {
    const names = (await readdir(this.dir)).filter((n) => n.endsWith('.idx'));
    const entries = await Promise.all(names.map(async (n) => ({ path: join(this.dir, n), stat: await stat(join(this.dir, n)).catch(() => undefined) })));
    const present = entries.flatMap((e) => (e.stat ? [{ path: e.path, size: e.stat.size, used: e.stat.mtimeMs }] : []));
    let total = present.reduce((n, e) => n + e.size, 0);
    for (const e of present.sort((a, b) => a.used - b.used)) {
      if (total <= this.budgetBytes) break;
      await rm(e.path, { force: true });
      total -= e.size;
    }
  }

  private entryPath(path: string, slot: string): string {
    // The frame index keeps the bare path's name, so entries saved before slots existed still load.
    return join(
      this.dir,
      `${createHash('sha256')
        .update(slot === '' ? path : `${path}\0${slot}`)
        .digest('hex')}.idx`,
    );
  }
}

async function identify(path: string, src: ByteSource): Promise<Identity | undefined> {
  const s = await stat(path);
  if (s.size !== src.size) return undefined;
  const hash = createHash('sha256');
  hash.update(await src.read(0, Math.min(END_BYTES, src.size)));
  const tail = Math.max(0, src.size - END_BYTES);
  hash.update(await src.read(tail, src.size - tail));
  return { path, size: s.size, mtimeMs: s.mtimeMs, ends: hash.digest('hex') };
}
