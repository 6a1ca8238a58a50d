import { crc32c } from '../../codecs/crc32c.js';
import { sha256Stream } from '../../codecs/sha256.js';
import { hex, hexString } from '../../describe.js';
import type { ByteSource } from '../../io/byteSource.js';
import { scanRange } from '../../io/scan.js';
import type { TaskContext } from '../../model.js';
import type { ColumnView } from './columns.js';
import type { Container } from './container.js';
import { frameCrc } from './frames.js';
import { leafHash } from './merkle.js';
import { FrameType, frameLength, type Footer, type FrameHeader } from './model.js';

/**
 * The checks a read path runs before a frame's data leaves it (issue 17): the frame's CRC-32C,
 * then, in a sealed file whose MerkleTree frame is itself intact, the frame's Merkle leaf (a
 * frame rewritten with a fresh CRC still breaks the seal). Results are kept per document, so a
 * table page, cat and verify each pay for a frame once.
 */
export class FrameChecks {
  private readonly crcs = new Map<number, Promise<number>>();
  private readonly verdicts = new Map<number, Promise<string | undefined>>();
  /**
   * What the checks run so far settled, by frame offset, for the structure tree and the frames
   * table: in a file too large to check at open, a frame is marked once a read has checked it.
   */
  private readonly settledCrcs = new Map<number, number>();
  private readonly settledProblems = new Map<number, string>();
  private storedLeaves?: Promise<ReadonlyMap<number, Uint8Array> | undefined>;

  constructor(
    private readonly src: ByteSource,
    private readonly c: Container,
    known: ReadonlyMap<number, number> = new Map(),
  ) {
    for (const [offset, crc] of known) {
      this.crcs.set(offset, Promise.resolve(crc));
      this.settledCrcs.set(offset, crc);
    }
  }

  crc(f: FrameHeader, ctx: TaskContext = {}): Promise<number> {
    let p = this.crcs.get(f.offset);
    if (!p) {
      p = frameCrc(this.src, f, ctx);
      p.then(
        (crc) => this.settledCrcs.set(f.offset, crc),
        () => this.crcs.delete(f.offset),
      );
      this.crcs.set(f.offset, p);
    }
    return p;
  }

  /** The frame's CRC-32C when a read has computed it, else undefined (nothing is computed here). */
  knownCrc(f: FrameHeader): number | undefined {
    return this.settledCrcs.get(f.offset);
  }

  /** Why the frame cannot be trusted, when a read has found it so (a CRC or Merkle leaf that failed). */
  knownProblem(f: FrameHeader): string | undefined {
    return this.settledProblems.get(f.offset);
  }

  /** Why the frame's bytes cannot be trusted, or undefined when its checks pass. */
  problem(f: FrameHeader, ctx: TaskContext = {}): Promise<string | undefined> {
    let p = this.verdicts.get(f.offset);
    if (!p) {
      p = (async () => {
        const crc = await this.crc(f, ctx);
        if (crc !== f.storedCrc) return `CRC-32C stored ${hex(f.storedCrc, 8)}, computed ${hex(crc, 8)}`;
        return this.leafProblem(f.offset, frameLength(f), ctx);
      })();
      p.then(
        (problem) => problem && this.settledProblems.set(f.offset, problem),
        () => this.verdicts.delete(f.offset),
      );
      this.verdicts.set(f.offset, p);
    }
    return p;
  }

  /** Why a column's values cannot be trusted: its own frame's checks, then those of the dictionary its codes point into. */
  async columnProblem(v: ColumnView, ctx: TaskContext = {}): Promise<string | undefined> {
    const own = await this.problem(v.column.frame, ctx);
    if (own) return own;
    const d = v.dictionary;
    const df = d && this.c.frames.find((f) => f.offset === d.offset);
    const theirs = df && (await this.problem(df, ctx));
    return theirs && `its Dictionary frame at ${df.offset} (dictionary ${d.id}) is damaged: ${theirs}`;
  }

  /** The seal's verdict on the bytes [offset, offset + length), when the file is sealed and the seal intact. */
  async leafProblem(offset: number, length: number, ctx: TaskContext = {}): Promise<string | undefined> {
    const stored = (await this.leaves(ctx))?.get(offset);
    if (!stored) return undefined;
    if (hexString(await leafHash(this.src, offset, length, ctx)) === hexString(stored)) return undefined;
    return 'its Merkle leaf differs from its bytes (the seal is broken here)';
  }

  /** Stored leaf hashes by offset, trusted only when the MerkleTree frame's own CRC holds. */
  private leaves(ctx: TaskContext): Promise<ReadonlyMap<number, Uint8Array> | undefined> {
    this.storedLeaves ??= (async () => {
      const m = this.c.merkle;
      const mf = this.c.frames.find((f) => f.type === FrameType.MerkleTree);
      if (!m || !mf || (await this.crc(mf, ctx)) !== mf.storedCrc) return undefined;
      return new Map(m.leaves.map((l) => [l.offset, l.hash]));
    })();
    return this.storedLeaves;
  }
}

export type FileChecksum =
  | { readonly kind: 'none' }
  | { readonly kind: 'unknown'; readonly algo: number }
  | { readonly kind: 'computed'; readonly name: 'SHA-256' | 'CRC-32C'; readonly stored: Uint8Array; readonly computed: Uint8Array; readonly ok: boolean };

/** The footer's file checksum over bytes [0, footer_offset) (spec C.10, Appendix D 7), recomputed. */
export async function fileChecksum(src: ByteSource, ft: Footer, ctx: TaskContext = {}): Promise<FileChecksum> {
  const algo = ft.checksumAlgo;
  if (algo === 0 || !(ft.flags & 2)) return { kind: 'none' };
  let computed: Uint8Array;
  if (algo === 1) {
    const h = await sha256Stream();
    await scanRange(src, 0, ft.offset, ctx, (piece) => h.update(piece), 'file checksum');
    computed = h.digest();
  } else if (algo === 2) {
    let crc = 0;
    await scanRange(src, 0, ft.offset, ctx, (piece) => (crc = crc32c(piece, crc)), 'file checksum');
    computed = Uint8Array.of(crc & 0xff, (crc >>> 8) & 0xff, (crc >>> 16) & 0xff, crc >>> 24);
  } else {
    return { kind: 'unknown', algo };
  }
  const stored = ft.checksum.subarray(0, computed.length);
  return { kind: 'computed', name: algo === 1 ? 'SHA-256' : 'CRC-32C', stored, computed, ok: hexString(stored) === hexString(computed) };
}
