import { checkedNode, errorNode, hex, layoutLeaves, leaf, plural, range } from '../../describe.js';
import type { ByteRange, StructNode } from '../../model.js';
import { BENDL_HEADER as H, HEADER_BYTES, STANDARD_ASSETS, TAIL_BYTES } from './bendl.js';
import { ASSET_TYPES, type Bundle, assetFlags, crcFailure } from './bendlParts.js';
import { xzStructure } from './xzView.js';

/** A bundle's structure tree: header (from its declared layout), tail, assets, stream, directory, gaps, in file order. */
export function bundleStructure(b: Bundle): StructNode {
  const children: StructNode[] = [headerNode(b)];
  if (b.layout !== 'older') {
    children.push(
      leaf(
        'header tail',
        b.tail.state === 'valid' ? `CRC32C ${hex(b.tail.crc, 8)} ok` : b.tailDetail(),
        range(HEADER_BYTES, TAIL_BYTES),
        b.layout === 'corrupt' ? { mark: 'error' } : {},
      ),
    );
  }
  for (const e of b.directory?.entries ?? []) {
    const node = leaf(
      `asset ${e.name}`,
      `${ASSET_TYPES[e.assetType] ?? 'unknown type'}, flags ${assetFlags(e.flags)}, ${e.payloadLength} bytes`,
      range(e.payloadOffset, e.payloadLength),
    );
    children.push(checkedNode(node, () => crcFailure(e.checksum, b.knownAssetCrc(e.name))));
  }
  const stream = streamNode(b);
  if (stream) children.push(stream);
  const directory = directoryNode(b);
  if (directory) children.push(directory);
  for (const gap of unreferenced(b)) {
    children.push(
      leaf(
        'unreferenced bytes',
        `${gap.length} bytes no header or directory entry points to (an older directory or payload left by an append, or a crashed write)`,
        gap,
        { mark: 'warn' },
      ),
    );
  }
  children.sort((x, y) => (x.range?.offset ?? 0) - (y.range?.offset ?? 0));
  return { label: b.title, range: range(0, b.src.size), children };
}

/** The header's fields, each a problem opening found marked on the field it names. */
function headerNode(b: Bundle): StructNode {
  const h = b.header;
  const problem = (field: string) => b.problems.find((p) => p.field === field);
  const mark = (field: string) => (problem(field) ? { mark: 'error' as const, note: problem(field)!.detail } : {});
  return {
    label: 'header',
    range: range(0, HEADER_BYTES),
    children: layoutLeaves(H, 0, {
      magic: 'BENDL\\0\\0\\x01',
      major: h.major,
      minor: h.minor,
      finalized: [h.finalized, mark('finalized')],
      assignmentFormat: [
        `${h.assignmentFormat} (${h.assignmentFormat === 1 ? 'BEN' : h.assignmentFormat === 2 ? 'XBEN' : 'unknown'})`,
        mark('assignment format'),
      ],
      padding: '',
      flags: `${h.flags}${h.flags & 1 ? ' (stream checksum valid)' : ''}${h.flags & ~1 ? `, reserved bits ${hex(h.flags & ~1)}` : ''}`,
      streamChecksum: hex(h.streamChecksum, 8),
      directoryOffset: [h.directoryOffset, mark('directory offset')],
      directoryLength: h.directoryLength,
      streamOffset: [h.streamOffset, mark('stream offset')],
      streamLength: [h.streamLength, mark('stream length')],
      sampleCount: [h.sampleCount, mark('sample count')],
    }),
  };
}

/** The BEN or XBEN stream with its checks, or why it could not be read. */
function streamNode(b: Bundle): StructNode | undefined {
  const h = b.header;
  const s = b.stream;
  // The header's stream CRC32C counts only in a finalized bundle with flag bit 0 (as streamDamage).
  const streamFailure = () => (h.finalized === 1 && h.flags & 1 ? crcFailure(h.streamChecksum, b.knownStreamCrc()) : undefined);
  if (b.benStream) return checkedNode(b.benStream.structure(), streamFailure, `stream (BEN ${b.benStream.variantName})`);
  // An XBEN's block checks are met only by a decode (a count or verify): the stream shows that too.
  // (A BEN stream that breaks already has its 'stream breaks' child.)
  if (b.xzStream)
    return checkedNode(
      xzStructure(b.src, b.xzStream, 'stream (XBEN)', () => b.plans?.knownFailure),
      () => streamFailure() ?? b.plans?.knownErrorNote,
    );
  if (b.streamError) return { ...errorNode(b.streamError, 'stream'), range: range(s.offset, s.length) };
  return undefined;
}

function directoryNode(b: Bundle): StructNode | undefined {
  if (!b.directory) return b.directoryError ? errorNode(b.directoryError, 'directory') : undefined;
  return {
    label: 'directory',
    value: plural(b.directory.entries.length, 'entry', 'entries'),
    range: range(b.directory.offset, b.directory.length),
    children: [
      leaf('entry count', b.directory.entries.length, range(b.directory.offset, 4)),
      ...b.directory.entries.map((e, i) =>
        leaf(
          `entry ${i}`,
          `${e.name}: type ${e.assetType} (${STANDARD_ASSETS[e.assetType] ?? 'custom'}), flags ${assetFlags(e.flags)}, payload ${e.payloadLength} bytes at ${e.payloadOffset}${e.checksum === undefined ? '' : `, CRC32C ${hex(e.checksum, 8)}`}`,
          range(e.entryOffset, e.entryLength),
        ),
      ),
    ],
  };
}

/**
 * Byte ranges nothing in force refers to (spec §6: an append leaves the old directory behind,
 * mid-file). Only for finalized bundles, whose every range is known.
 */
export function unreferenced(b: Bundle): ByteRange[] {
  if (b.header.finalized !== 1 || !b.directory) return [];
  const used: [number, number][] = [[0, b.layout === 'older' ? HEADER_BYTES : HEADER_BYTES + TAIL_BYTES]];
  used.push([b.stream.offset, b.stream.offset + b.stream.length], [b.directory.offset, b.directory.offset + b.directory.length]);
  for (const e of b.directory.entries) used.push([e.payloadOffset, e.payloadOffset + e.payloadLength]);
  used.sort((a, b) => a[0] - b[0]);
  const gaps: ByteRange[] = [];
  let at = 0;
  for (const [from, to] of used) {
    if (from > at) gaps.push(range(at, from - at));
    at = Math.max(at, to);
  }
  if (at < b.src.size) gaps.push(range(at, b.src.size - at));
  return gaps;
}
