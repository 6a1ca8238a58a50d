import { FormatError, rethrowUnlessFormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { readFooter, readFrameHeader, readPreamble, walkFrames, type FrameWalk } from './frames.js';
import {
  type BloomIndex,
  type ColumnFrame,
  type Dictionary,
  type Footer,
  type FrameHeader,
  FrameType,
  frameLength,
  type HeaderFrame,
  type MerkleTree,
  type MetaEntry,
  type Preamble,
  type Schema,
  type SortedIndex,
} from './model.js';
import { readBloom, readColumn, readDictionary, readHeader, readMerkle, readPayload, readSorted, readUserMeta } from './payloads.js';
import { parseSchema } from './schema.js';

/**
 * Everything a Bindu file declares, read once at open: the frame list (from the footer's end
 * when it is sound, else front to back) and every frame's payload except the column chunk
 * blobs, which pages and verify read on demand. A frame that does not parse is kept as a
 * problem at its offset; the rest of the file is still shown.
 */
export interface Container {
  readonly preamble: Preamble;
  /** The footer when its CRC, magic and self offset hold; `rawFooter` is whatever the last 512 bytes parsed to. */
  readonly footer?: Footer;
  readonly rawFooter?: Footer;
  /** Every frame in file order, the footer included when it is sound. */
  readonly frames: readonly FrameHeader[];
  readonly walkStop?: FormatError;
  /**
   * Byte ranges the frame walk could not read, each with the error that stopped it: the tail of
   * a cut-short file, or (with a sound footer) the stretch from a broken frame header to the
   * next section the footer lists, where the walk picks up again.
   */
  readonly unread: readonly Unread[];
  readonly header?: HeaderFrame;
  readonly schema?: Schema;
  readonly schemaBytes?: Uint8Array;
  readonly schemaFrame?: FrameHeader;
  readonly dictionaries: readonly Dictionary[];
  readonly columns: readonly ColumnFrame[];
  readonly blooms: readonly BloomIndex[];
  readonly sorted: readonly SortedIndex[];
  readonly merkle?: MerkleTree;
  readonly userMeta: readonly (MetaEntry & { readonly frame: number })[];
  /** Frames whose payload does not parse, by frame offset. */
  readonly problems: ReadonlyMap<number, FormatError>;
}

export interface Unread {
  readonly offset: number;
  readonly length: number;
  readonly error: FormatError;
}

/**
 * Walks the frames to `end`; where a frame header is broken and the footer is sound, goes on
 * from the next section start the footer lists (spec C.10: frames of one type are contiguous),
 * so one damaged length field loses one stretch of frames, not the rest of the file.
 */
async function walkAll(
  src: ByteSource,
  start: number,
  end: number,
  footer: Footer | undefined,
  signal?: AbortSignal,
): Promise<{ frames: FrameHeader[]; unread: Unread[] }> {
  const frames: FrameHeader[] = [];
  const unread: Unread[] = [];
  for (let at = start; ; ) {
    const walk: FrameWalk = await walkFrames(src, at, end, signal);
    frames.push(...walk.frames);
    if (!walk.stop) break;
    const last = walk.frames[walk.frames.length - 1];
    const from = last ? last.offset + frameLength(last) : at;
    const next =
      footer?.sections.filter((s) => s.count > 0 && s.firstOffset > from && s.firstOffset < end).reduce((n, s) => Math.min(n, s.firstOffset), end) ?? end;
    unread.push({ offset: from, length: Math.max(0, next - from), error: walk.stop });
    // The frame-count cap stops the walk for good; a length past 2^53 is one broken header.
    if (next >= end || (walk.stop.code === 'limit' && walk.stop.field === 'frame')) break;
    at = next;
  }
  return { frames, unread };
}

export async function readContainer(src: ByteSource, signal?: AbortSignal): Promise<Container> {
  const preamble = await readPreamble(src);
  const rawFooter = await readFooter(src);
  const footer = rawFooter && rawFooter.crcOk && rawFooter.footerOffset === rawFooter.offset ? rawFooter : undefined;
  const walk = await walkAll(src, preamble.size, footer ? footer.offset : src.size, footer, signal);
  const frames = footer ? [...walk.frames, await readFrameHeader(src, footer.offset)] : walk.frames;
  const problems = new Map<number, FormatError>();
  const dictionaries: Dictionary[] = [];
  const columns: ColumnFrame[] = [];
  const blooms: BloomIndex[] = [];
  const sorted: SortedIndex[] = [];
  const userMeta: (MetaEntry & { frame: number })[] = [];
  let header: HeaderFrame | undefined;
  let schema: Schema | undefined;
  let schemaBytes: Uint8Array | undefined;
  let schemaFrame: FrameHeader | undefined;
  let merkle: MerkleTree | undefined;
  for (const f of frames) {
    try {
      switch (f.type) {
        case FrameType.Header:
          header ??= await readHeader(src, f);
          break;
        case FrameType.Schema: {
          const p = await readPayload(src, f);
          schemaFrame = f;
          schemaBytes = p.bytes;
          schema = parseSchema(p.bytes, p.at);
          break;
        }
        case FrameType.Dictionary:
          dictionaries.push(await readDictionary(src, f));
          break;
        case FrameType.Column:
          columns.push(await readColumn(src, f));
          break;
        case FrameType.BloomIndex:
          blooms.push(await readBloom(src, f));
          break;
        case FrameType.SortedIndex:
          sorted.push(await readSorted(src, f));
          break;
        case FrameType.MerkleTree:
          merkle = await readMerkle(src, f);
          break;
        case FrameType.UserMeta:
          userMeta.push(...(await readUserMeta(src, f)).map((e) => ({ ...e, frame: f.offset })));
          break;
      }
    } catch (e) {
      rethrowUnlessFormatError(e);
      problems.set(f.offset, e);
    }
  }
  return {
    preamble,
    footer,
    rawFooter,
    frames,
    walkStop: walk.unread[0]?.error,
    unread: walk.unread,
    header,
    schema,
    schemaBytes,
    schemaFrame,
    dictionaries,
    columns,
    blooms,
    sorted,
    merkle,
    userMeta,
    problems,
  };
}
