import type { ByteRange, Mark } from '../../core/model.js';
import { MAX_FINDINGS, type CheckDTO } from '../../protocol/protocol.js';

/** A node's mark and note as the tree shows them. */
export interface Marked {
  readonly mark?: Mark;
  readonly note?: string;
}

/**
 * The failed checks a verify of the same file found in another document (an editor's Verify runs
 * on a job thread, so its family state never reaches the editor's document): a node whose byte
 * range holds a failure's offset is marked 'error' with what failed as its note; the root, the
 * whole file, with every failure, those without an offset too. A node the family already marks
 * as an error keeps its own mark and note, which say more.
 */
export class Findings {
  /** The failures with an offset, by offset, for a binary search per node shown. */
  private readonly placed: readonly (CheckDTO & { readonly offset: number })[];
  private readonly all: readonly CheckDTO[];

  constructor(checks: readonly CheckDTO[]) {
    this.all = checks.filter((c) => c.status === 'fail').slice(0, MAX_FINDINGS);
    this.placed = this.all.filter((c): c is CheckDTO & { offset: number } => Number.isFinite(c.offset)).sort((a, b) => a.offset - b.offset);
  }

  /** What the node shows: its own mark and note, or the first failure inside it (the root: the first of all) and how many there are. */
  mark(own: Marked, range: ByteRange | undefined, root: boolean): Marked {
    if (own.mark === 'error') return own;
    const inside = root ? this.all : range ? this.within(range) : [];
    if (inside.length === 0) return own;
    const first = inside[0]!;
    const more = inside.length > 1 ? ` (${inside.length} failed checks)` : '';
    return { mark: 'error', note: `${first.name}: ${first.detail}${more}` };
  }

  /** The failures at offsets inside `range`; a zero-length range (where reading stopped) holds its own offset. */
  private within(range: ByteRange): readonly CheckDTO[] {
    return this.placed.slice(this.firstFrom(range.offset), this.firstFrom(range.offset + Math.max(1, range.length)));
  }

  /** The index of the first failure at `offset` or past it. */
  private firstFrom(offset: number): number {
    let lo = 0;
    let hi = this.placed.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.placed[mid]!.offset < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
