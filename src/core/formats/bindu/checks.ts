import { crc32c } from '../../codecs/crc32c.js';
import { type Sha256, sha256Stream } from '../../codecs/sha256.js';
import { hex, hexString } from '../../describe.js';
import type { ByteSource } from '../../io/byteSource.js';
import { scanRange } from '../../io/scan.js';
import type { TaskContext } from '../../model.js';
import type { ColumnView } from './columns.js';
import type { Container } from './container.js';
import { frameCrc } from './frames.js';
import { leafHash, leafStream } from './merkle.js';
import { FRAME_HEADER_BYTES, FrameType, frameLength, type Footer, type FrameHeader } from './model.js';

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
  /** Merkle leaf hashes by "offset:length", computed by `leafProblem` or the one pass. */
  private readonly leafHashes = new Map<string, Promise<Uint8Array>>();
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
    const key = `${offset}:${length}`;
    let hash = this.leafHashes.get(key);
    if (!hash) {
      hash = leafHash(this.src, offset, length, ctx);
      hash.catch(() => this.leafHashes.delete(key));
      this.leafHashes.set(key, hash);
    }
    if (hexString(await hash) === hexString(stored)) return undefined;
    return 'its Merkle leaf differs from its bytes (the seal is broken here)';
  }

  /**
   * Everything a read path checks before its first row, from one read of the file: each frame's
   * CRC-32C, each Merkle leaf (sealed files) and the footer's file checksum, fed from the same
   * pieces; each check alone read the bytes again (three passes; RESULTS.md, Bindu). What is
   * known already is not computed again. The file checksum's result; undefined without a footer.
   */
  async checkInOnePass(ctx: TaskContext = {}): Promise<FileChecksum | undefined> {
    const spans: Span[] = [];
    for (const f of this.c.frames) {
      if (this.crcs.has(f.offset)) continue;
      let crc = 0;
      spans.push({
        offset: f.offset,
        end: f.offset + FRAME_HEADER_BYTES + f.payloadLength,
        update: (piece) => (crc = crc32c(piece, crc)),
        finish: () => {
          this.crcs.set(f.offset, Promise.resolve(crc));
          this.settledCrcs.set(f.offset, crc);
        },
      });
    }
    const stored = new Set(this.c.merkle?.leaves.map((l) => l.offset));
    const leafUnits = [{ offset: 0, length: this.c.preamble.size }, ...this.c.frames.map((f) => ({ offset: f.offset, length: frameLength(f) }))];
    for (const { offset, length } of leafUnits) {
      const key = `${offset}:${length}`;
      if (!stored.has(offset) || this.leafHashes.has(key)) continue;
      let h: Sha256 | undefined;
      spans.push({
        offset,
        end: offset + length,
        start: async () => void (h = await leafStream()),
        update: (piece) => h!.update(piece),
        finish: () => this.leafHashes.set(key, Promise.resolve(h!.digest())),
      });
    }
    const sum = this.c.footer && fileChecksumCheck(this.c.footer);
    if (sum?.span) spans.push(sum.span);
    await scanOnce(this.src, spans, ctx, 'integrity checks');
    return sum?.result();
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
  const check = fileChecksumCheck(ft);
  if (check.span) await scanOnce(src, [check.span], ctx, 'file checksum');
  return check.result();
}

/** The file checksum as a span of a pass over the file, and its verdict once fed; 'none' and 'unknown' read nothing. */
function fileChecksumCheck(ft: Footer): { readonly span?: Span; result(): FileChecksum } {
  const algo = ft.checksumAlgo;
  if (algo === 0 || !(ft.flags & 2)) return { result: () => ({ kind: 'none' }) };
  if (algo !== 1 && algo !== 2) return { result: () => ({ kind: 'unknown', algo }) };
  let sha: Sha256 | undefined;
  let crc = 0;
  let computed: Uint8Array = new Uint8Array(0);
  const span: Span = {
    offset: 0,
    end: ft.offset,
    start: async () => void (sha = algo === 1 ? await sha256Stream() : undefined),
    update: (piece) => (sha ? sha.update(piece) : (crc = crc32c(piece, crc))),
    finish: () => (computed = sha ? sha.digest() : Uint8Array.of(crc & 0xff, (crc >>> 8) & 0xff, (crc >>> 16) & 0xff, crc >>> 24)),
  };
  return {
    span,
    result: () => {
      const stored = ft.checksum.subarray(0, computed.length);
      return { kind: 'computed', name: algo === 1 ? 'SHA-256' : 'CRC-32C', stored, computed, ok: hexString(stored) === hexString(computed) };
    },
  };
}

/** One check's byte range [offset, end) in a single pass over the file (`scanOnce`): started, fed in order, finished. */
interface Span {
  readonly offset: number;
  readonly end: number;
  start?(): Promise<void>;
  update(piece: Uint8Array): void;
  finish(): void;
}

/**
 * Feeds every span its bytes from one front-to-back read of the range they cover. Spans are
 * started when the read reaches them and finished as it passes their end, so spans that do not
 * overlap (the frames, their leaves) hold one hasher at a time. An empty span is fed nothing.
 */
async function scanOnce(src: ByteSource, spans: readonly Span[], ctx: TaskContext, label: string): Promise<void> {
  const sorted = [...spans].sort((a, b) => a.offset - b.offset);
  const from = sorted[0]?.offset ?? 0;
  const to = sorted.reduce((end, s) => Math.max(end, s.end), from);
  const started = new Set<Span>();
  const begin = async (s: Span) => {
    if (started.has(s)) return;
    started.add(s);
    await s.start?.();
  };
  let next = 0;
  let active: Span[] = [];
  await scanRange(
    src,
    from,
    to - from,
    ctx,
    async (piece, at) => {
      const end = at + piece.length;
      while (next < sorted.length && sorted[next]!.offset < end) active.push(sorted[next++]!);
      for (const s of active) {
        await begin(s);
        const a = Math.max(s.offset, at);
        const b = Math.min(s.end, end);
        if (b > a) s.update(piece.subarray(a - at, b - at));
        if (s.end <= end) s.finish();
      }
      active = active.filter((s) => s.end > end);
    },
    label,
  );
  // Spans the read never reached are empty ones: their checks are over no bytes.
  for (const s of sorted.slice(next)) {
    await begin(s);
    s.finish();
  }
}
