import { FormatError } from '../../errors.js';
import { MemorySource } from '../../io/byteSource.js';
import { concatBytes } from '../../io/bytes.js';
import { crc32 } from '../crc32.js';
import { encodeLeb128 } from '../leb128.js';
import { STREAM_FOOTER_BYTES, XZ_MAGIC, XZ_STREAM_HEADER, readXzLayout } from './container.js';

/**
 * One .xz stream put together from blocks compressed apart (xz-file-format §2: a stream is its
 * header, its blocks, an index of their sizes and a footer). Blocks are independent by the
 * format's design, so each may come from another thread; this writes the parts around them.
 */

/** A compressed block as it stands in a stream: header, data, padding and check. */
export interface XzBlockBytes {
  readonly bytes: Uint8Array;
  /** The index's sizes (xz-file-format §4.3): the block without its padding, and its data decompressed. */
  readonly unpaddedSize: number;
  readonly uncompressedSize: number;
}

const padTo4 = (n: number) => (n + 3) & ~3;

function u32le(v: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, v >>> 0, true);
  return out;
}

/** Stream flags (§2.1.1.2): a zero byte, then the check type. */
const flags = (checkId: number) => Uint8Array.of(0, checkId);

export function xzStreamHeader(checkId: number): Uint8Array {
  const out = new Uint8Array(XZ_STREAM_HEADER.size);
  XZ_STREAM_HEADER.write({ magic: XZ_MAGIC, flags: flags(checkId), crc: crc32(flags(checkId)) }, out);
  return out;
}

/** The index of `blocks` (§4: indicator, count, a record per block, zero padding, CRC32) and the stream footer (§2.1.2). */
export function xzIndexAndFooter(blocks: readonly Omit<XzBlockBytes, 'bytes'>[], checkId: number): Uint8Array {
  const records = blocks.flatMap((b) => [encodeLeb128(b.unpaddedSize), encodeLeb128(b.uncompressedSize)]);
  const body = concatBytes([Uint8Array.of(0), encodeLeb128(blocks.length), ...records]);
  const index = concatBytes([body, new Uint8Array(padTo4(body.length) - body.length)]);
  const backward = concatBytes([u32le((index.length + 4) / 4 - 1), flags(checkId)]);
  return concatBytes([index, u32le(crc32(index)), u32le(crc32(backward)), backward, Uint8Array.of(0x59, 0x5a)]);
}

/** The one block of a one-block stream (what an encoder on another thread returns), found through its index. */
export async function soleBlock(stream: Uint8Array): Promise<XzBlockBytes> {
  const { streams } = await readXzLayout(new MemorySource(stream));
  const block = streams.length === 1 && streams[0]!.blocks.length === 1 ? streams[0]!.blocks[0]! : undefined;
  if (!block || stream.length < STREAM_FOOTER_BYTES) throw new FormatError('corrupt', 'an xz block encoder returned other than one stream of one block');
  return {
    bytes: stream.subarray(block.offset, block.offset + padTo4(block.unpaddedSize)),
    unpaddedSize: block.unpaddedSize,
    uncompressedSize: Number(block.uncompressedSize),
  };
}
