import { readStreamHeader, readXzLayout, relocateXzLayout, type XzLayout } from '../../codecs/xz/container.js';
import { FormatError, rethrowUnlessFormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { SliceSource } from '../../io/byteSource.js';
import type { ByteRange } from '../../model.js';

/**
 * liblzma verifies a block's check (CRC32, CRC64, SHA-256) only after it has handed out the
 * block's data. A BEN decoder that used those bytes at once would output samples whose check
 * then fails. This module hands decompressed bytes on only once the check of the block they came
 * from has passed, so no sample of a damaged block ever leaves as good.
 */

/** An xz block: its bytes in the file and where its data ends in the decompressed output. */
export interface XzBlockSpan {
  readonly index: number;
  readonly range: ByteRange;
  /** Decompressed bytes of this block and every block before it. */
  readonly end: number;
}

/** What the held-back decode needs to know about an .xz: whether blocks carry checks, and where they end. */
export interface XzChecks {
  /** True when some stream's blocks carry a check (not None): bytes are then held back. */
  readonly checked: boolean;
  /** Block ends from an index whose CRC32 matched; undefined when the index cannot be trusted. */
  readonly blocks: readonly XzBlockSpan[] | undefined;
}

/** Blocks in decompressed order across concatenated streams. */
export function blockSpans(layout: XzLayout): XzBlockSpan[] {
  const out: XzBlockSpan[] = [];
  let end = 0;
  for (const s of layout.streams) {
    for (const b of s.blocks) {
      end += Number(b.uncompressedSize);
      out.push({ index: out.length, range: { offset: b.offset, length: b.unpaddedSize }, end });
    }
  }
  return out;
}

/** The checks of the .xz data at `offset`: a damaged index gives no block ends (hold to the end). */
export async function xzChecks(src: ByteSource, offset: number, length: number): Promise<XzChecks> {
  let layout: XzLayout | undefined;
  try {
    layout = relocateXzLayout(await readXzLayout(new SliceSource(src, offset, length)), offset);
  } catch (e) {
    rethrowUnlessFormatError(e);
  }
  if (!layout) {
    // Without an index the stream header's check type still says whether blocks carry checks.
    const header = await readStreamHeader(src, offset).catch(() => ({ checkType: 1 }));
    return { checked: header.checkType !== 0, blocks: undefined };
  }
  const trusted = layout.streams.every((s) => s.indexCrcOk && s.footerCrcOk && s.headerCrcOk);
  return { checked: layout.streams.some((s) => s.checkType !== 0), blocks: trusted ? blockSpans(layout) : undefined };
}

/** A decode error met before a block's check passed: the block, whose bytes were held back. */
export class XzBlockError extends FormatError {
  constructor(
    cause: FormatError,
    /** The block whose data was held back, when the index locates it. */
    readonly block: XzBlockSpan | undefined,
  ) {
    const what = block ? `xz block ${block.index}` : 'xz data';
    super(cause.code, `${cause.detail}; its data was held back, unchecked`, { offset: cause.offset ?? block?.range.offset, field: what });
  }
}

/** Decompressed bytes held back while their block is unchecked; beyond this, the decode runs twice instead. */
export const HOLD_LIMIT = 32 << 20;

/**
 * The decompressed bytes of `open()`, each released only after the check of its block passed:
 * liblzma cannot produce a byte of block k + 1 before block k's check passed, and reaching the
 * end of the data means every check did. Without block ends (no trusted index) everything waits
 * for the end. Held bytes beyond `holdLimit` are dropped; once their block proves good the data
 * is decompressed again from the start up to there (two decodes, flat memory).
 */
export async function* checkedChunks(
  open: () => AsyncGenerator<Uint8Array>,
  blocks: readonly XzBlockSpan[] | undefined,
  holdLimit = HOLD_LIMIT,
): AsyncGenerator<Uint8Array> {
  let released = 0;
  let produced = 0;
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let dropped = false;
  let dec = open();
  /** The end of the last block whose check is known to have passed when `n` bytes came out. */
  const provenBefore = (n: number): number => {
    let end = 0;
    for (const b of blocks ?? []) {
      if (b.end < n) end = b.end;
      else break;
    }
    return end;
  };
  const blockOf = (at: number) => blocks?.find((b) => b.end > at);
  const next = async (): Promise<IteratorResult<Uint8Array>> => {
    try {
      return await dec.next();
    } catch (e) {
      rethrowUnlessFormatError(e, 'cancelled');
      throw new XzBlockError(e, blockOf(released));
    }
  };
  /** Hands out the held bytes up to decompressed position `to`. */
  function* release(to: number): Generator<Uint8Array> {
    while (released < to && held.length > 0) {
      const first = held[0]!;
      const n = Math.min(first.length, to - released);
      yield n === first.length ? first : first.subarray(0, n);
      if (n === first.length) held.shift();
      else held[0] = first.subarray(n);
      released += n;
      heldBytes -= n;
    }
  }
  try {
    for (;;) {
      const r = await next();
      if (!r.done) {
        produced += r.value.length;
        if (!dropped) (held.push(r.value), (heldBytes += r.value.length));
      }
      const proven = r.done ? produced : provenBefore(produced);
      if (proven > released) {
        if (dropped) {
          // Decode again from the start: skip what was released, hand out up to `proven`, hold the rest.
          await dec.return(undefined);
          dec = open();
          const skip = released;
          ((produced = 0), (held = []), (heldBytes = 0), (dropped = false));
          while (produced < proven) {
            const again = await next();
            if (again.done) break;
            const c = again.value;
            const from = Math.max(0, skip - produced);
            produced += c.length;
            if (from < c.length) (held.push(c.subarray(from)), (heldBytes += c.length - from));
          }
        }
        yield* release(proven);
      }
      if (r.done) return;
      if (heldBytes > holdLimit) ((held = []), (heldBytes = 0), (dropped = true));
    }
  } finally {
    await dec.return(undefined);
  }
}
