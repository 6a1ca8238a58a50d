import { crc32c } from '../../codecs/crc32c.js';
import { xzCompress } from '../../codecs/xz/encode.js';
import { FormatError } from '../../errors.js';
import { concatBytes } from '../../io/bytes.js';
import type { ByteSink } from '../../model.js';
import {
  ASSET_FLAG_CHECKSUM,
  ASSET_FLAG_JSON,
  ASSET_FLAG_XZ,
  BENDL_ENTRY,
  BENDL_HEADER,
  BENDL_MAGIC,
  BENDL_TAIL,
  CUSTOM_ASSET,
  ENTRY_HEADER_BYTES,
  HEADER_BYTES,
  MAX_ASSETS,
  STANDARD_ASSETS,
  TAIL_BYTES,
} from './bendl.js';
import { TallySink } from './tallySink.js';

/** An asset to store: its bytes as they should be read back, or its on-disk form copied from another bundle. */
export type AssetInput =
  | { readonly name: string; readonly type: number; readonly json: boolean; readonly bytes: Uint8Array; readonly compress?: boolean }
  | { readonly name: string; readonly type: number; readonly flags: number; readonly stored: Uint8Array };

/** Asset types for the standard names, custom (4) for anything else. */
export function assetType(name: string): number {
  const t = Object.entries(STANDARD_ASSETS).find(([, n]) => n === name);
  return t ? Number(t[0]) : CUSTOM_ASSET;
}

/** A directory entry to write: where the stored payload is and its CRC32C. */
export interface Placed {
  readonly name: string;
  readonly type: number;
  readonly flags: number;
  readonly offset: number;
  readonly length: number;
  readonly crc: number;
}

export interface BundleHeaderFields {
  readonly finalized: boolean;
  readonly format: 'ben' | 'xben';
  readonly flags: number;
  readonly streamChecksum: number;
  readonly directoryOffset: number;
  readonly directoryLength: number;
  readonly streamOffset: number;
  readonly streamLength: number;
  readonly sampleCount: bigint;
}

/** The 64-byte header and its 8-byte tail (CRC32C of the header, then zeros): the newest layout. */
export function bundleHeader(h: BundleHeaderFields): Uint8Array {
  const out = new Uint8Array(HEADER_BYTES + TAIL_BYTES);
  const { finalized, format, ...rest } = h;
  BENDL_HEADER.write({ ...rest, magic: BENDL_MAGIC, major: 1, minor: 0, finalized: finalized ? 1 : 0, assignmentFormat: format === 'ben' ? 1 : 2 }, out);
  BENDL_TAIL.write({ crc: crc32c(out.subarray(0, HEADER_BYTES)), zero: 0 }, out, HEADER_BYTES);
  return out;
}

/** The directory (spec §6): entry count, then each entry with its name and 4-byte CRC32C. */
export function directoryBytes(assets: readonly Placed[]): Uint8Array {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  const count = new Uint8Array(4);
  new DataView(count.buffer).setUint32(0, assets.length, true);
  parts.push(count);
  for (const a of assets) {
    const name = enc.encode(a.name);
    const e = new Uint8Array(ENTRY_HEADER_BYTES + name.length + 4);
    BENDL_ENTRY.write({ assetType: a.type, flags: a.flags, nameLength: name.length, payloadOffset: a.offset, payloadLength: a.length, checksumLength: 4 }, e);
    e.set(name, ENTRY_HEADER_BYTES);
    new DataView(e.buffer).setUint32(ENTRY_HEADER_BYTES + name.length, a.crc, true);
    parts.push(e);
  }
  return concatBytes(parts);
}

/** How an asset is stored (spec §6): graph.json and anything ≥ 1 KiB are xz'd (preset 6, CRC64) when that is smaller. */
async function storedForm(a: AssetInput): Promise<{ flags: number; stored: Uint8Array }> {
  if ('stored' in a) return { flags: a.flags, stored: a.stored };
  const flags = ASSET_FLAG_CHECKSUM | (a.json ? ASSET_FLAG_JSON : 0);
  const compress = a.compress ?? (a.type === 2 || a.bytes.length >= 1024);
  if (compress) {
    const xz = await xzCompress(a.bytes, { preset: 6, check: 'crc64' });
    if (xz.length < a.bytes.length) return { flags: flags | ASSET_FLAG_XZ, stored: xz };
  }
  return { flags, stored: a.bytes };
}

export interface BundleReport {
  readonly streamBytes: number;
  readonly samples: number;
  readonly assets: number;
  readonly bytes: number;
}

/**
 * Writes a finalized bundle in the newest layout, in the reference writer's order: a
 * provisional header, the assets from offset 72, the stream, the directory right after it, then
 * the final header (counts, checksums, tail) patched over the provisional one.
 */
export async function writeBundle(
  sink: ByteSink,
  format: 'ben' | 'xben',
  assets: readonly AssetInput[],
  writeStream: (out: ByteSink) => Promise<{ samples: number }>,
): Promise<BundleReport> {
  if (!sink.patch) throw new FormatError('unsupported', 'a bundle needs an output that can be rewritten at its start (a file)');
  if (assets.length > MAX_ASSETS) throw new FormatError('limit', `${assets.length} assets (at most ${MAX_ASSETS})`);
  const names = new Set<string>();
  for (const a of assets) {
    if (names.has(a.name)) throw new FormatError('corrupt', `two assets named ${a.name}`, { field: 'assets' });
    names.add(a.name);
    const standard = STANDARD_ASSETS[a.type];
    if (standard !== undefined ? standard !== a.name : Object.values(STANDARD_ASSETS).includes(a.name)) {
      throw new FormatError('corrupt', `asset ${a.name} cannot have type ${a.type}`, { field: 'assets' });
    }
  }
  const provisional = { finalized: false, format, flags: 0, streamChecksum: 0, directoryOffset: 0, directoryLength: 0, streamLength: 0, sampleCount: -1n };
  await sink.write(bundleHeader({ ...provisional, streamOffset: HEADER_BYTES + TAIL_BYTES }));
  let at = HEADER_BYTES + TAIL_BYTES;
  const placed: Placed[] = [];
  for (const a of assets) {
    const { flags, stored } = await storedForm(a);
    await sink.write(stored);
    placed.push({ name: a.name, type: a.type, flags, offset: at, length: stored.length, crc: crc32c(stored) });
    at += stored.length;
  }
  const streamOffset = at;
  // The header names the stream's start before the stream is written, as the reference does.
  await sink.patch(0, bundleHeader({ ...provisional, streamOffset }));
  const stream = new TallySink(sink, true);
  const { samples } = await writeStream(stream);
  const dir = directoryBytes(placed);
  await sink.write(dir);
  const header = bundleHeader({
    finalized: true,
    format,
    flags: 1,
    streamChecksum: stream.crc,
    directoryOffset: streamOffset + stream.bytes,
    directoryLength: dir.length,
    streamOffset,
    streamLength: stream.bytes,
    sampleCount: BigInt(samples),
  });
  await sink.patch(0, header);
  return { streamBytes: stream.bytes, samples, assets: placed.length, bytes: streamOffset + stream.bytes + dir.length };
}
