import { encodeLz4Frame } from '../../codecs/lz4Encode.js';
import { bg4Split } from './bg4.js';
import { chunkHasher } from './hash.js';
import { merkleTree } from './merkle.js';
import {
  CHUNK_HEADER,
  CHUNK_HEADER_BYTES,
  FOOTER_HEAD,
  FOOTER_RESERVED_BYTES,
  FOOTER_V1_TAIL,
  HASH_BYTES,
  SECTION_HEAD,
  footerParts,
  MAX_CHUNK_BYTES,
  MAX_XORB_BYTES,
  MAX_XORB_CHUNKS,
  Scheme,
  type XorbForm,
} from './model.js';

/**
 * Writes xorbs the way xet-core's serializer does (spec xorb.md §2–§4): chunk headers, payloads
 * that fall back to scheme 0 unless compression makes them strictly smaller, and the V1 footer.
 */
export type SchemePolicy = 'auto' | 'none' | 'lz4' | 'bg4-lz4';

export interface EncodedChunk {
  readonly scheme: Scheme;
  readonly payload: Uint8Array;
}

/** The payload of one chunk under a policy; 'auto' keeps the smaller of LZ4 and BG4. */
export function encodeChunk(data: Uint8Array, policy: SchemePolicy): EncodedChunk {
  let best: EncodedChunk = { scheme: Scheme.None, payload: data };
  const consider = (scheme: Scheme, payload: Uint8Array) => {
    if (payload.length < best.payload.length) best = { scheme, payload };
  };
  if (policy === 'lz4' || policy === 'auto') consider(Scheme.LZ4, encodeLz4Frame(data));
  if (policy === 'bg4-lz4' || policy === 'auto') consider(Scheme.ByteGrouping4LZ4, encodeLz4Frame(bg4Split(data)));
  return best;
}

export function chunkHeaderBytes(scheme: Scheme, compressedLength: number, uncompressedLength: number): Uint8Array {
  const b = new Uint8Array(CHUNK_HEADER_BYTES);
  CHUNK_HEADER.write({ version: 0, compressedLength, scheme, uncompressedLength }, b);
  return b;
}

export interface FooterEntry {
  /** Raw chunk hash. */
  readonly hash: Uint8Array;
  /** End of the chunk in the file, header included. */
  readonly end: number;
  /** End of the chunk in the concatenated decompressed bytes. */
  readonly unpackedEnd: number;
}

/** Footer size of a V1 footer for `n` chunks, without the trailing u32. */
export function footerV1Length(n: number): number {
  return footerParts(1, 0, n).end;
}

/** The V1 footer and its trailing u32 length (spec §4.1); `nonce` fills reserved bytes 0–3. */
export function footerV1Bytes(xorbHash: Uint8Array, entries: readonly FooterEntry[], nonce = 0): Uint8Array {
  const n = entries.length;
  const parts = footerParts(1, 0, n);
  const out = new Uint8Array(parts.end + 4);
  const view = new DataView(out.buffer);
  const encoder = new TextEncoder();
  FOOTER_HEAD.write({ ident: encoder.encode('XETBLOB'), version: 1, xorbHash }, out);
  SECTION_HEAD.write({ ident: encoder.encode('XBLBHSH'), version: 0, count: n }, out, parts.hashSection);
  entries.forEach((e, i) => out.set(e.hash, parts.hashes + HASH_BYTES * i));
  SECTION_HEAD.write({ ident: encoder.encode('XBLBBND'), version: 1, count: n }, out, parts.boundarySection);
  entries.forEach((e, i) => {
    view.setUint32(parts.boundaries + 4 * i, e.end, true);
    view.setUint32(parts.unpacked + 4 * i, e.unpackedEnd, true);
  });
  // Reserved bytes 0–3 hold the nonce; 4–15 stay zero.
  const reserved = new Uint8Array(FOOTER_RESERVED_BYTES);
  new DataView(reserved.buffer).setUint32(0, nonce, true);
  FOOTER_V1_TAIL.write(
    { chunkCount: n, hashesSectionOffsetFromEnd: parts.end - parts.hashSection, boundarySectionOffsetFromEnd: parts.end - parts.boundarySection, reserved },
    out,
    parts.tail,
  );
  view.setUint32(parts.end, parts.end, true);
  return out;
}

export interface BuiltXorb {
  /** The file, in pieces: header and payload of each chunk, then the footer when asked for. */
  readonly parts: readonly Uint8Array[];
  readonly size: number;
  readonly xorbHash: Uint8Array;
  readonly chunkHashes: readonly Uint8Array[];
  readonly schemes: readonly Scheme[];
}

/** How big a xorb may grow: serialized bytes (footer included) and chunks. */
export interface XorbLimits {
  readonly maxBytes: number;
  readonly maxChunks: number;
}

/** Xet's limits (spec §7): 64 MiB and 8192 chunks. */
export const XORB_LIMITS: XorbLimits = { maxBytes: MAX_XORB_BYTES, maxChunks: MAX_XORB_CHUNKS };

/**
 * Collects chunks into one xorb. `fits` says whether another chunk of a given size still keeps
 * the xorb within its limits (64 MiB serialized, footer included when there is one, and 8192
 * chunks unless told otherwise).
 */
export class XorbBuilder {
  private readonly parts: Uint8Array[] = [];
  private readonly entries: FooterEntry[] = [];
  private readonly leaves: { hash: Uint8Array; size: number }[] = [];
  private readonly schemes: Scheme[] = [];
  private bytes = 0;
  private unpacked = 0;

  private constructor(
    private readonly hash: (data: Uint8Array) => Uint8Array,
    private readonly policy: SchemePolicy,
    private readonly form: XorbForm,
    private readonly limits: XorbLimits,
  ) {}

  static async create(policy: SchemePolicy, form: XorbForm, limits = XORB_LIMITS): Promise<XorbBuilder> {
    return new XorbBuilder(await chunkHasher(), policy, form, limits);
  }

  get chunkCount(): number {
    return this.entries.length;
  }

  /** Whether a chunk whose payload is at most its raw size still fits; true for the first chunk. */
  fits(chunkLength: number): boolean {
    if (this.entries.length === 0) return true;
    if (this.entries.length >= this.limits.maxChunks) return false;
    const footer = this.form === 'full' ? footerV1Length(this.entries.length + 1) + 4 : 0;
    return this.bytes + CHUNK_HEADER_BYTES + chunkLength + footer <= this.limits.maxBytes;
  }

  add(data: Uint8Array): void {
    if (data.length === 0 || data.length > MAX_CHUNK_BYTES) throw new RangeError(`a chunk holds 1 to ${MAX_CHUNK_BYTES} bytes, not ${data.length}`);
    const { scheme, payload } = encodeChunk(data, this.policy);
    const hash = this.hash(data);
    this.parts.push(chunkHeaderBytes(scheme, payload.length, data.length), payload);
    this.bytes += CHUNK_HEADER_BYTES + payload.length;
    this.unpacked += data.length;
    this.entries.push({ hash, end: this.bytes, unpackedEnd: this.unpacked });
    this.leaves.push({ hash, size: data.length });
    this.schemes.push(scheme);
  }

  async finish(): Promise<BuiltXorb> {
    const { root } = await merkleTree(this.leaves);
    const parts = this.form === 'full' ? [...this.parts, footerV1Bytes(root.hash, this.entries)] : this.parts;
    return {
      parts,
      size: parts.reduce((s, p) => s + p.length, 0),
      xorbHash: root.hash,
      chunkHashes: this.leaves.map((l) => l.hash),
      schemes: this.schemes,
    };
  }
}
