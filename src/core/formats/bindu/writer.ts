import { encodeLeb128 } from '../../codecs/leb128.js';
import { sha256Digester, sha256Stream } from '../../codecs/sha256.js';
import { throwIfAborted } from '../../errors.js';
import { concatBytes } from '../../io/bytes.js';
import { yieldToEventLoop } from '../../io/scan.js';
import type { ByteSink, TaskContext } from '../../model.js';
import { bloomPositions, bloomSize, setBits } from './bloom.js';
import { chainText, planChain, type ChainPlan } from './chain.js';
import { encodeChunk, encodeValues } from './chunkCodec.js';
import { leafHashOf, merkleRoot } from './merkle.js';
import { Codec, FileFlag, HEADER_PAYLOAD, FrameType, MAGIC, type LeafType, type MetaEntry, type SchemaField, type Stage } from './model.js';
import { footerPayload, frame } from './frames.js';
import { ringOf } from './ring.js';
import { schemaBytes, strBytes, typeDescBytes } from './schema.js';
import { canonicalBytes, compareCanonical, type Value } from './values.js';

/**
 * Writes Bindu open container v1 files (spec C.1–C.11) the way a v1 viewer can fully decode
 * them: the 10-byte preamble, Header, Schema, Dictionaries, one Column frame per leaf with a
 * codec chain chosen per column, optional Bloom and sorted indexes, an optional Merkle seal and
 * the 512-byte footer with a SHA-256 file checksum.
 */
export interface ColumnInput {
  /** Leaf name, dotted for nested fields. */
  readonly name: string;
  readonly type: LeafType;
  readonly nullable: boolean;
  /** One value per row; null only in nullable columns. */
  readonly values: readonly Value[];
  /** Min/max per chunk (off for byte streams, whose pieces are their own stats). */
  readonly stats?: boolean;
}

export interface WriteOptions {
  readonly chunkRows: number;
  readonly compressor: number;
  readonly seal: boolean;
  readonly bloom: readonly string[];
  readonly sorted?: string;
  /** The schema tree; flat leaves when absent. */
  readonly fields?: readonly SchemaField[];
  readonly config?: readonly MetaEntry[];
  readonly userMeta?: readonly MetaEntry[];
  /** A byte stream: the SHA-256 of the original input (flags BYTE_STREAM and SOURCE_DIGEST). */
  readonly sourceDigest?: Uint8Array;
  /** Extension frames (whole, from `frame`) written right after the Header; counted in frame_count, in no section (spec C.10). */
  readonly extraFrames?: readonly Uint8Array[];
}

export const WRITER_NAME = 'binlens';
export const WRITER_VERSION = [0, 1, 0] as const;

export interface WriteReport {
  readonly bytes: number;
  readonly rows: number;
  /** Per column: its chain as text. */
  readonly chains: readonly string[];
}

const utf8 = new TextEncoder();

function u32(v: number): number[] {
  return [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24];
}
function u64(v: number | bigint): number[] {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(v), true);
  return [...out];
}
function lbytes(b: Uint8Array): number[] {
  return [...encodeLeb128(b.length), ...b];
}

function metaBytes(entries: readonly MetaEntry[]): number[] {
  return [...encodeLeb128(entries.length), ...entries.flatMap((e) => [...strBytes(e.key), e.valueType, ...lbytes(e.value)])];
}

export function textEntry(key: string, value: string): MetaEntry {
  return { key, valueType: 1, value: utf8.encode(value) };
}

interface EncodedColumn {
  readonly stages: Stage[];
  readonly chunks: { rows: number; present: number; blob: Uint8Array; min?: Uint8Array; max?: Uint8Array }[];
  readonly dictionary?: Uint8Array[];
}

function stage(codec: number, params: Uint8Array | number[] = []): Stage {
  return { codec, params: Uint8Array.from(params), offset: 0 };
}

function chunked<T>(values: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out.length ? out : [[]];
}

/**
 * The chain for a column: DICT for low-cardinality text, the smallest of FOR→BITPACK,
 * DELTA→ZIGZAG→VARINT and RLE for integers (by serialized size), PLAIN otherwise; then the
 * compressor.
 */
function chooseStages(
  c: ColumnInput,
  present: readonly Exclude<Value, null>[],
  chunkRows: number,
  compressor: number,
  dictId: number,
): { stages: Stage[]; dictionary?: Uint8Array[] } {
  const tail = [stage(compressor)];
  if (c.type.code === 'STRING' || c.type.code === 'ENUM' || c.type.code === 'BYTES') {
    const distinct = new Map<string, Uint8Array>();
    for (const v of present) {
      const b = canonicalBytes(c.type, v);
      distinct.set(keyOf(b), b);
      if (distinct.size > 65536) break;
    }
    const low = c.type.code !== 'BYTES' && present.length > 0 && (distinct.size <= 256 || distinct.size * 4 <= present.length) && distinct.size <= 65536;
    if (!low) return { stages: [stage(Codec.PLAIN), ...tail] };
    const dictionary = [...distinct.values()];
    const bits = Math.max(1, ringOf(32).bitLength(dictionary.length - 1));
    return { stages: [stage(Codec.DICT, encodeLeb128(dictId)), stage(Codec.BITPACK, [bits]), ...tail], dictionary };
  }
  if (c.type.code === 'FLOAT') return { stages: [stage(Codec.PLAIN), ...tail] };
  const width = c.type.code === 'TS' ? 64 : c.type.bits;
  const ring = ringOf(width);
  const toPattern = (v: Exclude<Value, null>) =>
    width === 64 ? BigInt.asUintN(64, BigInt(v as number | bigint)) : (v as number) < 0 ? (v as number) + 2 ** width : (v as number);
  const patterns = present.map(toPattern);
  let min = patterns[0] ?? (width === 64 ? 0n : 0);
  let max = min;
  // FOR's reference is the smallest signed value, so residuals of a signed column stay small.
  const signed = c.type.code === 'TS' || c.type.signed;
  const key = (p: number | bigint) => (signed ? signedOf(p, width) : BigInt(p));
  for (const p of patterns) {
    if (key(p) < key(min)) min = p;
    if (key(p) > key(max)) max = p;
  }
  const ref = new Uint8Array(width / 8);
  ring.writeLE(ref, 0, min);
  const span = ring.sub(max, min);
  const candidates: Stage[][] = [
    [stage(Codec.FOR, ref), stage(Codec.BITPACK, [ring.bitLength(span)])],
    [stage(Codec.DELTA, [1]), stage(Codec.ZIGZAG), stage(Codec.VARINT)],
    [stage(Codec.RLE)],
  ];
  let best = candidates[0]!;
  let bestSize = Infinity;
  for (const stages of candidates) {
    const plan = planChain(c.type, stages) as ChainPlan;
    const size = chunked(present, chunkRows).reduce((n, chunk) => n + encodeValues(c.type, plan, chunk).length, 0);
    if (size < bestSize) ((best = stages), (bestSize = size));
  }
  return { stages: [...best, ...tail] };
}

function signedOf(p: number | bigint, width: number): bigint {
  return BigInt.asIntN(width, BigInt(p));
}

function keyOf(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

async function encodeColumn(c: ColumnInput, opts: WriteOptions, dictId: number, ctx: TaskContext): Promise<EncodedColumn> {
  const present = c.values.filter((v): v is Exclude<Value, null> => v !== null);
  const { stages, dictionary } = chooseStages(c, present, opts.chunkRows, opts.compressor, dictId);
  const plan = planChain(c.type, stages) as ChainPlan;
  const codeOf = dictionary ? new Map(dictionary.map((b, i) => [keyOf(b), i])) : undefined;
  const codes = codeOf ? (v: Exclude<Value, null>) => codeOf.get(keyOf(canonicalBytes(c.type, v)))! : undefined;
  const chunks: EncodedColumn['chunks'] = [];
  for (const values of chunked(c.values, opts.chunkRows)) {
    throwIfAborted(ctx.signal);
    const blob = encodeChunk(c.type, c.nullable, plan, values, codes);
    let min: Uint8Array | undefined;
    let max: Uint8Array | undefined;
    if (c.stats !== false) {
      for (const v of values) {
        if (v === null) continue;
        const b = canonicalBytes(c.type, v);
        if (!min || compareCanonical(c.type, b, min) < 0) min = b;
        if (!max || compareCanonical(c.type, b, max) > 0) max = b;
      }
      min ??= new Uint8Array(0);
      max ??= new Uint8Array(0);
    }
    chunks.push({ rows: values.length, present: values.filter((v) => v !== null).length, blob, min, max });
    await yieldToEventLoop();
  }
  return { stages, chunks, dictionary };
}

function columnPayload(id: number, c: ColumnInput, e: EncodedColumn): Uint8Array {
  const stats = c.stats !== false;
  const index = e.chunks.flatMap((k) => [...encodeLeb128(k.rows), ...encodeLeb128(k.blob.length), ...(stats ? [...lbytes(k.min!), ...lbytes(k.max!)] : [])]);
  return concatBytes([
    encodeLeb128(id),
    strBytes(c.name),
    typeDescBytes(c.type),
    [(c.nullable ? 1 : 0) | (stats ? 2 : 0), e.stages.length, ...e.stages.flatMap((s) => [s.codec, ...lbytes(s.params)])],
    encodeLeb128(c.values.length),
    encodeLeb128(e.chunks.length),
    index,
    ...e.chunks.map((k) => k.blob),
  ]);
}

async function bloomPayload(id: number, c: ColumnInput): Promise<Uint8Array> {
  const distinct = new Map<string, Uint8Array>();
  for (const v of c.values) if (v !== null) distinct.set(keyOf(canonicalBytes(c.type, v)), canonicalBytes(c.type, v));
  const { k, mBits } = bloomSize(distinct.size);
  const positions = await bloomPositions(k, mBits);
  const filter = new Uint8Array(mBits / 8);
  for (const b of distinct.values()) setBits(filter, positions(b));
  return concatBytes([encodeLeb128(id), [1, k], encodeLeb128(mBits), [0], encodeLeb128(1), encodeLeb128(distinct.size), filter]);
}

function sortedPayload(id: number, c: ColumnInput, e: EncodedColumn): Uint8Array {
  // An all-null chunk has no range; a chunk of empty strings has an empty one.
  const ranges = e.chunks.flatMap((k, chunk) => (k.present ? [{ chunk, min: k.min!, max: k.max! }] : []));
  ranges.sort((a, b) => compareCanonical(c.type, a.min, b.min) || a.chunk - b.chunk);
  return concatBytes([
    encodeLeb128(id),
    [1],
    encodeLeb128(ranges.length),
    ranges.flatMap((r) => [...encodeLeb128(r.chunk), ...lbytes(r.min), ...lbytes(r.max)]),
  ]);
}

/** Leaves as top-level fields, unless the caller gave the schema tree. */
function flatFields(columns: readonly ColumnInput[]): SchemaField[] {
  return columns.map((c) => ({ name: c.name, nullable: c.nullable, type: c.type }));
}

/** The MerkleTree frame sealing the preamble and every frame before it: a leaf hash and offset each, then the root. */
async function merkleFrame(preamble: Uint8Array, frames: readonly Uint8Array[]): Promise<{ root: Uint8Array; frame: Uint8Array }> {
  const leaves = [await leafHashOf(preamble)];
  for (const f of frames) leaves.push(await leafHashOf(f));
  const root = await merkleRoot(leaves);
  const offsets = [0];
  for (let at = preamble.length, i = 0; i < frames.length; at += frames[i]!.length, i++) offsets.push(at);
  return {
    root,
    frame: frame(FrameType.MerkleTree, 0, concatBytes([[1, 1], encodeLeb128(leaves.length), offsets.flatMap((o, i) => [...u64(o), ...leaves[i]!]), root])),
  };
}

export async function writeBindu(columns: readonly ColumnInput[], opts: WriteOptions, sink: ByteSink, ctx: TaskContext = {}): Promise<WriteReport> {
  const rows = columns[0]?.values.length ?? 0;
  if (columns.some((c) => c.values.length !== rows)) throw new RangeError('every column needs the same number of rows');
  const csb = schemaBytes(opts.fields ?? flatFields(columns));
  const fingerprint = (await sha256Digester())(csb).subarray(0, 16);
  const encoded: EncodedColumn[] = [];
  let nextDict = 1;
  for (const [i, c] of columns.entries()) {
    ctx.progress?.({ done: i, total: columns.length, message: `encoding ${c.name}` });
    const e = await encodeColumn(c, opts, nextDict, ctx);
    if (e.dictionary) nextDict++;
    encoded.push(e);
  }
  const indexed = (name: string) => {
    const id = columns.findIndex((c) => c.name === name);
    if (id < 0) throw new RangeError(`no column "${name}" to index (columns: ${columns.map((c) => c.name).join(', ')})`);
    return id;
  };
  const blooms = opts.bloom.map(indexed);
  const sorted = opts.sorted ? [indexed(opts.sorted)] : [];
  let flags = FileFlag.SchemaEmbedded;
  if (opts.seal) flags |= FileFlag.Sealed;
  if (blooms.length || sorted.length) flags |= FileFlag.HasIndexes;
  if (opts.sourceDigest) flags |= FileFlag.ByteStream | FileFlag.SourceDigest;

  const fixed = new Uint8Array(HEADER_PAYLOAD.size);
  const [writerMajor, writerMinor, writerPatch] = WRITER_VERSION;
  HEADER_PAYLOAD.write(
    { fingerprint, fileFlags: BigInt(flags), rowCount: BigInt(rows), columnCount: columns.length, writerMajor, writerMinor, writerPatch },
    fixed,
  );
  const frames: Uint8Array[] = [
    frame(FrameType.Header, 0, concatBytes([fixed, strBytes(WRITER_NAME), metaBytes(opts.config ?? []), [0], opts.sourceDigest ?? []])),
  ];
  frames.push(...(opts.extraFrames ?? []));
  if (opts.userMeta?.length) frames.push(frame(FrameType.UserMeta, 1, Uint8Array.from(metaBytes(opts.userMeta))));
  frames.push(frame(FrameType.Schema, 0, csb));
  let dictId = 1;
  for (const e of encoded) {
    if (!e.dictionary) continue;
    frames.push(frame(FrameType.Dictionary, 0, concatBytes([encodeLeb128(dictId++), [1, 0], encodeLeb128(e.dictionary.length), e.dictionary.flatMap(lbytes)])));
  }
  for (const [i, c] of columns.entries()) frames.push(frame(FrameType.Column, 0, columnPayload(i, c, encoded[i]!)));
  for (const id of blooms) frames.push(frame(FrameType.BloomIndex, 0, await bloomPayload(id, columns[id]!)));
  for (const id of sorted) frames.push(frame(FrameType.SortedIndex, 0, sortedPayload(id, columns[id]!, encoded[id]!)));

  const preamble = Uint8Array.from([...MAGIC, ...u32(1)]);
  let root: Uint8Array = new Uint8Array(32);
  if (opts.seal) {
    const seal = await merkleFrame(preamble, frames);
    root = seal.root;
    frames.push(seal.frame);
  }

  const file = await sha256Stream();
  let written = 0;
  const put = async (b: Uint8Array) => {
    file.update(b);
    written += b.length;
    await sink.write(b);
  };
  await put(preamble);
  const sections = new Map<number, { count: number; first: number; span: number }>();
  for (const f of frames) {
    const s = sections.get(f[0]!) ?? { count: 0, first: written, span: 0 };
    s.count++;
    s.span += f.length;
    sections.set(f[0]!, s);
    await put(f);
  }
  const payload = footerPayload(
    { footerOffset: written, frameCount: frames.length, sealed: !!opts.seal, checksum: file.digest(), fingerprint, merkleRoot: root },
    sections,
  );
  // The file checksum covers [0, footer_offset): the footer itself is written outside it.
  const footer = frame(FrameType.Footer, 0, payload);
  await sink.write(footer);
  written += footer.length;
  return { bytes: written, rows, chains: encoded.map((e) => chainText(e.stages)) };
}
