import { FormatError, rethrowUnlessFormatError, throwIfAborted } from '../../errors.js';
import { BinReader, u32leAt } from '../../io/binReader.js';
import type { ByteSource } from '../../io/byteSource.js';
import { readField } from '../../io/byteSource.js';
import { crc32c } from '../../codecs/crc32c.js';
import { scanRange } from '../../io/scan.js';
import type { TaskContext } from '../../model.js';
import {
  FOOTER_FRAME_BYTES,
  FOOTER_MAGIC,
  FOOTER_PAYLOAD,
  FOOTER_PAYLOAD_BYTES,
  FOOTER_SECTION,
  FRAME_CRC_BYTES,
  FRAME_HEADER,
  FRAME_HEADER_BYTES,
  type Footer,
  type FrameHeader,
  FrameType,
  hasMagic,
  type Preamble,
  type SectionEntry,
  frameLength,
} from './model.js';

/** A walk lists at most this many frames; real files have one per column plus a few. */
const MAX_FRAMES = 1 << 20;

/**
 * Spec C.1: the 10-byte preamble (magic + u32 major), or the 8-byte variant (magic + u16) when
 * byte 10 is not a Header frame type but byte 8 is.
 */
export async function readPreamble(src: ByteSource): Promise<Preamble> {
  const head = await readField(src, 0, Math.min(src.size, 11), 'preamble');
  if (!hasMagic(head)) throw new FormatError('bad-magic', 'not an open-v1 container (no "BINDU\\0" magic)', { offset: 0, field: 'magic' });
  const r = new BinReader(head, 0);
  r.skip(6, 'magic');
  if (head.length > 10 && head[10] !== FrameType.Header && head[8] === FrameType.Header) return { size: 8, formatMajor: r.u16le('format version') };
  return { size: 10, formatMajor: r.u32le('format major') };
}

export async function readFrameHeader(src: ByteSource, offset: number): Promise<FrameHeader> {
  const { type, version, flags, payloadLength } = FRAME_HEADER.read(new BinReader(await readField(src, offset, FRAME_HEADER_BYTES, 'frame header'), offset));
  if (type === 0) throw new FormatError('corrupt', 'frame type 0x00 is invalid', FRAME_HEADER.at('type', offset));
  const end = offset + FRAME_HEADER_BYTES + payloadLength + FRAME_CRC_BYTES;
  if (end > src.size) {
    throw new FormatError(
      'truncated',
      `frame of ${payloadLength} payload bytes needs ${end - offset} bytes, ${src.size - offset} remain`,
      FRAME_HEADER.at('payloadLength', offset),
    );
  }
  const storedCrc = new BinReader(await src.read(end - FRAME_CRC_BYTES, 4), end - FRAME_CRC_BYTES).u32le('frame CRC');
  return { offset, type, version, flags, payloadLength, storedCrc };
}

export interface FrameWalk {
  readonly frames: readonly FrameHeader[];
  readonly stop?: FormatError;
}

/** Frames from the preamble to `end` (the footer, or EOF when there is none), by their lengths. */
export async function walkFrames(src: ByteSource, start: number, end: number, signal?: AbortSignal): Promise<FrameWalk> {
  const frames: FrameHeader[] = [];
  let offset = start;
  while (offset < end) {
    throwIfAborted(signal);
    if (frames.length >= MAX_FRAMES) return { frames, stop: new FormatError('limit', `more than ${MAX_FRAMES} frames`, { offset, field: 'frame' }) };
    try {
      const f = await readFrameHeader(src, offset);
      frames.push(f);
      offset += frameLength(f);
    } catch (e) {
      rethrowUnlessFormatError(e);
      return { frames, stop: e };
    }
  }
  if (offset > end)
    return { frames, stop: new FormatError('corrupt', `the last frame overlaps the footer by ${offset - end} bytes`, { offset: end, field: 'frame' }) };
  return { frames };
}

/** Recomputes a frame's CRC-32C over its header and payload (spec C.2). */
export async function frameCrc(src: ByteSource, f: FrameHeader, ctx: TaskContext = {}): Promise<number> {
  let crc = 0;
  await scanRange(src, f.offset, FRAME_HEADER_BYTES + f.payloadLength, ctx, (p) => (crc = crc32c(p, crc)), 'frame CRC');
  return crc;
}

/**
 * The footer is the last 512 bytes when they parse as a Footer frame with its magic and a
 * matching CRC (spec C.10); otherwise the file is read front to back.
 */
export async function readFooter(src: ByteSource): Promise<Footer | undefined> {
  if (src.size < FOOTER_FRAME_BYTES + 8) return undefined;
  const offset = src.size - FOOTER_FRAME_BYTES;
  const bytes = await src.read(offset, FOOTER_FRAME_BYTES);
  const r = new BinReader(bytes, offset);
  if (r.u8('frame type') !== FrameType.Footer) return undefined;
  r.skip(3, 'frame version and flags');
  if (r.u64le('payload length') !== BigInt(FOOTER_PAYLOAD_BYTES)) return undefined;
  const p = new BinReader(bytes.subarray(FRAME_HEADER_BYTES, FRAME_HEADER_BYTES + FOOTER_PAYLOAD_BYTES), offset + FRAME_HEADER_BYTES);
  const magic = FOOTER_PAYLOAD.range('magic', FRAME_HEADER_BYTES);
  if (new TextDecoder().decode(bytes.subarray(magic.offset, magic.offset + magic.length)) !== FOOTER_MAGIC) return undefined;
  const crcOk = crc32c(bytes.subarray(0, FRAME_HEADER_BYTES + FOOTER_PAYLOAD_BYTES)) === u32leAt(bytes, FOOTER_FRAME_BYTES - 4);
  // A damaged footer is a reason to scan front to back, never to refuse the file: a field
  // that does not parse (a u64 past 2^53) makes the last 512 bytes no footer.
  try {
    return parseFooterPayload(p, offset, crcOk);
  } catch (e) {
    rethrowUnlessFormatError(e);
    return undefined;
  }
}

function parseFooterPayload(p: BinReader, offset: number, crcOk: boolean): Footer {
  const tableAt = FOOTER_PAYLOAD.offset('sections', p.offset);
  const { sectionCount, sections: table, magic: _, ...fields } = FOOTER_PAYLOAD.read(p);
  const t = new BinReader(table, tableAt);
  const sections: SectionEntry[] = [];
  for (let i = 0; i < Math.min(sectionCount, 8); i++) sections.push(FOOTER_SECTION.read(t));
  return { offset, ...fields, sections, crcOk };
}

/** A whole frame: 12-byte header, payload, CRC-32C over both (spec C.2). */
export function frame(type: number, flags: number, payload: Uint8Array): Uint8Array {
  const end = FRAME_HEADER_BYTES + payload.length;
  const out = new Uint8Array(end + FRAME_CRC_BYTES);
  FRAME_HEADER.write({ type, version: 1, flags, payloadLength: payload.length }, out);
  out.set(payload, FRAME_HEADER_BYTES);
  new DataView(out.buffer).setUint32(end, crc32c(out.subarray(0, end)), true);
  return out;
}

/** Where each frame type's frames lie, for the footer's section table. */
type Sections = ReadonlyMap<number, { count: number; first: number; span: number }>;

/** The Footer frame's payload (spec C.10): counts, checksums and the section table of every core frame type. */
export function footerPayload(
  f: { footerOffset: number; frameCount: number; sealed: boolean; checksum: Uint8Array; fingerprint: Uint8Array; merkleRoot: Uint8Array },
  sections: Sections,
): Uint8Array {
  const types = [
    FrameType.Header,
    FrameType.Schema,
    FrameType.Dictionary,
    FrameType.Column,
    FrameType.BloomIndex,
    FrameType.SortedIndex,
    FrameType.MerkleTree,
    FrameType.UserMeta,
  ];
  const table = new Uint8Array(FOOTER_SECTION.size * types.length);
  types.forEach((type, i) => {
    const s = sections.get(type);
    FOOTER_SECTION.write({ type, count: s?.count ?? 0, firstOffset: s?.first ?? 0, span: s?.span ?? 0 }, table, FOOTER_SECTION.size * i);
  });
  const payload = new Uint8Array(FOOTER_PAYLOAD_BYTES);
  const { sealed, ...rest } = f;
  FOOTER_PAYLOAD.write(
    {
      ...rest,
      version: 1,
      flags: (sealed ? 1 : 0) | 2,
      checksumAlgo: 1,
      sectionCount: types.length,
      sections: table,
      magic: new TextEncoder().encode(FOOTER_MAGIC),
    },
    payload,
  );
  return payload;
}
