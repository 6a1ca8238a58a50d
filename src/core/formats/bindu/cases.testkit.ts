import { crc32c } from '../../codecs/crc32c.js';
import { sha256Digester } from '../../codecs/sha256.js';
import { MemorySource } from '../../io/byteSource.js';
import { concatBytes } from '../../io/bytes.js';
import { readContainer } from './container.js';
import { Codec, FOOTER_FRAME_BYTES, FRAME_CRC_BYTES, FRAME_HEADER_BYTES, frameLength } from './model.js';
import { frame } from './frames.js';
import { writeBindu, type ColumnInput, type WriteOptions } from './writer.js';

/**
 * Test files for the integrity cases of issue 17, built with our writer (unsealed, SHA-256 file
 * checksum) and, where the writer cannot make the case, edited in place and re-signed: the edited
 * frame's CRC-32C, the file checksum and the footer's CRC are recomputed, so the file is intact
 * in every check and only the case itself differs (spec C.2, C.10).
 */
export const CASE_COLUMNS: readonly ColumnInput[] = [
  { name: 'id', type: { code: 'INT', bits: 32, signed: false }, nullable: false, values: [1, 2, 3, 4, 5, 6] },
  { name: 'price', type: { code: 'FLOAT', bits: 64 }, nullable: true, values: [1.5, null, 2.25, -0, 1e300, 0.1] },
  { name: 'city', type: { code: 'STRING' }, nullable: false, values: ['Zürich', 'Bern', '', 'Chur', 'Bern', 'Sion'] },
];

/** The case columns written in chunks of 4 rows (two chunks per column), with frames added after the Header. */
export async function caseFile(extraFrames: readonly Uint8Array[] = []): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const opts: WriteOptions = { chunkRows: 4, compressor: Codec.DEFLATE, seal: false, bloom: [], extraFrames };
  await writeBindu(CASE_COLUMNS, opts, { write: async (b) => void parts.push(b.slice()) });
  return concatBytes(parts);
}

/** A critical frame of a type this reader does not know (0x09, SKIPPABLE clear), to put after the Header. */
export const CRITICAL_FRAME = frame(0x09, 0, Uint8Array.of(1, 2, 3));

/** Recomputes the CRC of the frame at `frameOffset`, then the file checksum and the footer's CRC. */
export async function resigned(bytes: Uint8Array, frameOffset: number): Promise<Uint8Array> {
  const out = bytes.slice();
  const view = new DataView(out.buffer, out.byteOffset);
  const end = frameOffset + FRAME_HEADER_BYTES + Number(view.getBigUint64(frameOffset + 4, true));
  view.setUint32(end, crc32c(out.subarray(frameOffset, end)), true);
  const footer = out.length - FOOTER_FRAME_BYTES;
  out.set((await sha256Digester())(out.subarray(0, footer)), footer + FRAME_HEADER_BYTES + 32);
  view.setUint32(out.length - FRAME_CRC_BYTES, crc32c(out.subarray(footer, out.length - FRAME_CRC_BYTES)), true);
  return out;
}

/** The file with one stage of column `name` replaced by a codec id that only describes itself (LINDELTA, 0x43), re-signed. */
export async function withDescribeOnlyColumn(bytes: Uint8Array, name: string, codec = 0x43): Promise<Uint8Array> {
  const c = await readContainer(new MemorySource(bytes));
  const col = c.columns.find((x) => x.name === name)!;
  const out = bytes.slice();
  out[col.stages[0]!.offset] = codec;
  return resigned(out, col.frame.offset);
}

/** Where each frame ends: a cut there leaves every frame before it complete. */
export async function frameEnds(bytes: Uint8Array): Promise<number[]> {
  const c = await readContainer(new MemorySource(bytes));
  return c.frames.map((f) => f.offset + frameLength(f));
}
