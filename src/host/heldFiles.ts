/** What a file's identity is taken from: a changed size or mtime means other bytes. */
export interface FileStamp {
  readonly size: number;
  readonly mtime: number;
}

/**
 * Whole-file reads shared while any document still holds the bytes. The web build reads each file
 * into memory (no file handles there), so an editor's Verify, which opens the file again on a job
 * engine, would hold a second copy of a file already open in an editor; the same unchanged file
 * gets the same bytes instead. Held weakly: the bytes go when no document has them.
 */
export class HeldFiles {
  private readonly held = new Map<string, { stamp: FileStamp; bytes: WeakRef<Uint8Array> }>();
  private readonly gone = new FinalizationRegistry<string>((key) => {
    if (this.held.get(key)?.bytes.deref() === undefined) this.held.delete(key);
  });

  constructor(
    private readonly stat: (location: string) => Promise<FileStamp>,
    private readonly read: (location: string) => Promise<Uint8Array>,
  ) {}

  async bytes(location: string): Promise<Uint8Array> {
    const stamp = await this.stat(location);
    const h = this.held.get(location);
    const same = h && h.stamp.size === stamp.size && h.stamp.mtime === stamp.mtime ? h.bytes.deref() : undefined;
    if (same) return same;
    const bytes = await this.read(location);
    this.held.set(location, { stamp, bytes: new WeakRef(bytes) });
    this.gone.register(bytes, location);
    return bytes;
  }
}
