import { checkedNode, fail, failFrom, hex, hexBytes, leaf, pass, plural, range } from '../../describe.js';
import { rethrowUnlessFormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { ByteRange, Check, StructNode } from '../../model.js';
import {
  FILTER_NAMES,
  STREAM_FOOTER_BYTES,
  STREAM_HEADER_BYTES,
  type XzBlock,
  type XzFilter,
  type XzLayout,
  checkName,
  readBlockHeader,
} from '../../codecs/xz/container.js';

/** LZMA2's one property byte encodes the dictionary size (xz-file-format §5.3.1). */
export function lzma2DictionarySize(prop: number): number | undefined {
  if (prop > 40) return undefined;
  if (prop === 40) return 0xffffffff;
  return (2 | (prop & 1)) * 2 ** (Math.floor(prop / 2) + 11);
}

function describeFilter(f: XzFilter): string {
  const name = FILTER_NAMES[String(f.id)] ?? `filter ${hex(f.id)}`;
  if (f.id === 0x21n && f.properties.length === 1) {
    const dict = lzma2DictionarySize(f.properties[0]!);
    return `${name}, dictionary ${dict === undefined ? 'invalid' : `${dict / 1048576} MiB`}`;
  }
  return f.properties.length ? `${name} (${hexBytes(f.properties)})` : name;
}

async function blockNode(src: ByteSource, block: XzBlock, i: number): Promise<StructNode> {
  const total = block.unpaddedSize;
  const label = `block ${i}`;
  try {
    const h = await readBlockHeader(src, block.offset);
    const crcOk = h.storedCrc === h.computedCrc;
    return {
      label,
      value: `${total} bytes → ${block.uncompressedSize} bytes`,
      range: range(block.offset, total),
      mark: crcOk ? undefined : 'error',
      note: crcOk ? undefined : 'block header CRC32 mismatch',
      children: [
        {
          label: 'block header',
          range: range(block.offset, h.headerSize),
          children: [
            leaf('header size', h.headerSize, range(block.offset, 1)),
            leaf('compressed size', h.compressedSize === undefined ? 'not stored' : String(h.compressedSize)),
            leaf('uncompressed size', h.uncompressedSize === undefined ? 'not stored' : String(h.uncompressedSize)),
            ...h.filters.map((f, k) => leaf(`filter ${k}`, describeFilter(f))),
            leaf('CRC32', hex(h.storedCrc, 8), range(block.offset + h.headerSize - 4, 4), {
              mark: crcOk ? undefined : 'error',
              note: crcOk ? undefined : `computed ${hex(h.computedCrc, 8)}`,
            }),
          ],
        },
        leaf('compressed data and check', `${total - h.headerSize} bytes`, range(block.offset + h.headerSize, total - h.headerSize)),
      ],
    };
  } catch (e) {
    rethrowUnlessFormatError(e);
    return { label, range: range(block.offset, total), mark: 'error', note: e.message };
  }
}

/** A failed xz check a decode met (a count or verify), as the tree shows it: the note and where in the file. */
export interface KnownXzFailure {
  readonly note: string;
  /** Where liblzma's input stood: just after the byte it failed on, so a failed check ends its block's unpadded size. */
  readonly offset: number | undefined;
}

/**
 * The .xz container as a tree: streams, blocks (headers read when expanded), index, footer.
 * `failure` is read each time a node is shown (a count or verify may have met one since): the
 * stream, its blocks list and the block whose bytes hold its offset are marked, else the root.
 */
export function xzStructure(
  src: ByteSource,
  layout: XzLayout,
  label = 'xz container',
  failure: () => KnownXzFailure | undefined = () => undefined,
): StructNode {
  // The failure's offset lies just after the failed byte, so a range holds it in (start, end].
  const inside = (r: ByteRange | undefined, offset: number | undefined) =>
    r !== undefined && offset !== undefined && offset > r.offset && offset <= r.offset + r.length;
  const holding = (r: ByteRange) => () => {
    const f = failure();
    return f && inside(r, f.offset) ? f.note : undefined;
  };
  const streams = layout.streams.map((s, si): StructNode => {
    const end = s.footerOffset + STREAM_FOOTER_BYTES;
    const blocks = range(s.offset + STREAM_HEADER_BYTES, s.indexOffset - s.offset - STREAM_HEADER_BYTES);
    const node: StructNode = {
      label: `stream ${si}`,
      value: `check ${checkName(s.checkType)}, ${plural(s.blocks.length, 'block')}`,
      range: range(s.offset, end - s.offset),
      children: [
        leaf('stream header', `check ${checkName(s.checkType)}`, range(s.offset, STREAM_HEADER_BYTES), {
          mark: s.headerCrcOk ? undefined : 'error',
          note: s.headerCrcOk ? undefined : 'CRC32 mismatch',
        }),
        checkedNode(
          {
            label: 'blocks',
            value: plural(s.blocks.length, 'block'),
            range: blocks,
            children: {
              lazy: true,
              count: () => s.blocks.length,
              load: (from, count) =>
                Promise.all(
                  s.blocks
                    .slice(from, from + count)
                    .map(async (b, k) => checkedNode(await blockNode(src, b, from + k), holding(range(b.offset, b.unpaddedSize)))),
                ),
            },
          },
          holding(blocks),
        ),
        leaf('index', plural(s.blocks.length, 'record'), range(s.indexOffset, s.indexSize), {
          mark: s.indexCrcOk ? undefined : 'error',
          note: s.indexCrcOk ? undefined : 'CRC32 mismatch',
        }),
        leaf('stream footer', `backward size ${s.indexSize}`, range(s.footerOffset, STREAM_FOOTER_BYTES), {
          mark: s.footerCrcOk ? undefined : 'error',
          note: s.footerCrcOk ? undefined : 'CRC32 mismatch',
        }),
        ...(s.paddingAfter ? [leaf('stream padding', `${s.paddingAfter} bytes`, range(end, s.paddingAfter))] : []),
      ],
    };
    return checkedNode(node, holding(node.range!));
  });
  const first = layout.streams[0]!;
  const last = layout.streams[layout.streams.length - 1]!;
  const root: StructNode = {
    label,
    value: `${plural(layout.streams.length, 'stream')}, ${layout.uncompressedSize} bytes uncompressed`,
    range: range(first.offset, last.footerOffset + STREAM_FOOTER_BYTES + last.paddingAfter - first.offset),
    children: streams,
  };
  // A failure no stream holds (its offset unknown, or in no stream's bytes) marks the container itself.
  return checkedNode(root, () => {
    const f = failure();
    return f && !streams.some((n) => inside(n.range, f.offset)) ? f.note : undefined;
  });
}

/** Container-level checks: every CRC32 the container itself carries (the data is checked by decoding). */
export async function* verifyXz(src: ByteSource, layout: XzLayout): AsyncIterable<Check> {
  let bad = false;
  for (const [si, s] of layout.streams.entries()) {
    if (!s.headerCrcOk) ((bad = true), yield fail('xz stream header', `stream ${si}: stream flags CRC32 mismatch`, s.offset + 8));
    if (!s.indexCrcOk) ((bad = true), yield fail('xz index', `stream ${si}: index CRC32 mismatch`, s.indexOffset));
    if (!s.footerCrcOk) ((bad = true), yield fail('xz stream footer', `stream ${si}: footer CRC32 mismatch`, s.footerOffset));
    for (const [bi, b] of s.blocks.entries()) {
      try {
        const h = await readBlockHeader(src, b.offset);
        if (h.storedCrc !== h.computedCrc)
          ((bad = true), yield fail('xz block header', `stream ${si} block ${bi}: header CRC32 mismatch`, b.offset + h.headerSize - 4));
      } catch (e) {
        bad = true;
        yield failFrom('xz block header', e);
      }
    }
  }
  if (!bad) {
    const blocks = layout.streams.reduce((n, s) => n + s.blocks.length, 0);
    yield pass('xz container', `${plural(layout.streams.length, 'stream')}, ${plural(blocks, 'block')}: headers, index and footer CRC32s match`);
  }
}
