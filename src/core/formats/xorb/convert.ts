import { FormatError, throwIfAborted } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { concatBytes } from '../../io/bytes.js';
import { yieldToEventLoop } from '../../io/scan.js';
import type { ByteSink, CatSpec, Converter, ConvertReport, Importer, OutputTarget, TaskContext } from '../../model.js';
import { GearChunker } from './cdc.js';
import { checkedChunks, chunkRange, type CheckedChunk } from './integrity.js';
import { merkleTree } from './merkle.js';
import { hashToString } from './hash.js';
import type { XorbForm } from './model.js';
import { footerV1Bytes, XORB_LIMITS, type FooterEntry, XorbBuilder, type SchemePolicy, type XorbLimits } from './writer.js';
import type { XorbFile } from './xorbFile.js';
import { choiceParam } from '../../tableSpec.js';
import { fileConverter } from '../../converterSpec.js';

const NO_FILE_BOUNDARIES = 'a xorb does not record file boundaries: the output is its chunks back to back, which may be parts of several files';

/**
 * Hands chunks [from, from + count) that pass their checks to `write`, in order. A damaged chunk
 * (or chunk data the walk could not locate) stops the output after the intact chunks before it,
 * or, salvaging, is left out and listed: nothing is dropped silently (integrity.ts).
 */
async function eachChunk(
  x: XorbFile,
  ctx: TaskContext,
  write: (chunk: CheckedChunk) => Promise<void>,
  from = 0,
  count = Number.POSITIVE_INFINITY,
): Promise<number> {
  const end = Math.min(x.chunks.length, from + count);
  let bytes = 0;
  for await (const chunk of checkedChunks(x, ctx, from, count)) {
    const i = chunk.index;
    await write(chunk);
    bytes += chunk.bytes.length;
    ctx.progress?.({ done: i + 1 - from, total: end - from, message: `chunk ${i}` });
    if ((i & 63) === 63) await yieldToEventLoop();
  }
  return bytes;
}

/** `binlens cat --format raw`: the concatenated decompressed chunks; --from/--count pick chunks. */
export function xorbCat(x: XorbFile): CatSpec {
  return {
    formats: ['raw'],
    async run(_format, range, out, ctx) {
      await eachChunk(x, ctx, (c) => out.write(c.bytes), range.from, range.count);
    },
  };
}

const FORM_OPTION = choiceParam('form', 'Footer', { full: 'with footer (as the CAS stores it)', footerless: 'without footer (as clients upload it)' });

export function xorbConverters(x: XorbFile): Converter[] {
  return [
    fileConverter({ id: 'raw', label: 'Decompressed bytes (all chunks, concatenated)', extension: '.bin' }, async (sink, ctx) => {
      let written = 0;
      const bytes = await eachChunk(x, ctx, (c) => {
        written++;
        return sink.write(c.bytes);
      });
      return { summary: `${bytes} bytes from ${written} chunks`, warnings: [NO_FILE_BOUNDARIES] };
    }),
    {
      id: 'chunks',
      label: 'One file per chunk (decompressed)',
      extension: '',
      output: 'folder',
      async run(target, ctx) {
        const width = String(Math.max(0, x.chunks.length - 1)).length;
        let written = 0;
        const bytes = await eachChunk(x, ctx, async (c) => {
          written++;
          await (await target.file(`${String(c.index).padStart(width, '0')}-${hashToString(c.hash)}.bin`)).write(c.bytes);
        });
        return { summary: `${written} chunk files, ${bytes} bytes, named index-hash.bin` };
      },
    },
    {
      id: 'xorb',
      label: 'Xorb with or without footer (same chunks)',
      extension: '.xorb',
      output: 'file',
      options: [FORM_OPTION],
      async run(target, ctx, options) {
        const form = options.form === 'footerless' ? 'footerless' : 'full';
        // The xorb hash of no chunks is undefined, and the reference rejects chunk-less xorbs.
        if (x.chunks.length === 0) throw new FormatError('corrupt', 'a xorb without chunks cannot be written', { offset: 0, field: 'chunks' });
        // Every chunk is checked before a byte is written; salvaging, the xorb holds the intact ones.
        const intact: { index: number; hash: Uint8Array }[] = [];
        await eachChunk(x, ctx, async (c) => void intact.push({ index: c.index, hash: c.hash }));
        if (intact.length === 0)
          throw new FormatError('corrupt', 'no chunk is intact, and a xorb without chunks cannot be written', { offset: 0, field: 'chunks' });
        const sink = await target.file();
        const entries: FooterEntry[] = [];
        let end = 0;
        let unpacked = 0;
        for (const { index, hash } of intact) {
          const { offset, length } = chunkRange(x, index);
          for (let at = 0; at < length; at += 1 << 20) await sink.write(await x.src.read(offset + at, Math.min(1 << 20, length - at)));
          entries.push({ hash, end: (end += length), unpackedEnd: (unpacked += x.chunks[index]!.uncompressedLength) });
        }
        const root = (await merkleTree(intact.map((c) => ({ hash: c.hash, size: x.chunks[c.index]!.uncompressedLength })))).root.hash;
        if (form === 'full') {
          const nonce = x.footer ? new DataView(x.footer.reserved.buffer, x.footer.reserved.byteOffset).getUint32(0, true) : 0;
          await sink.write(footerV1Bytes(root, entries, nonce));
        }
        return { summary: `${form === 'full' ? 'full form with a V1 footer' : 'footerless form'}, xorb hash ${hashToString(root)}` };
      },
    },
  ];
}

/** Bytes read from the input at once while chunking. */
const READ_PIECE = 1 << 20;

/** The input cut by xet's content-defined chunker, one chunk at a time. */
async function* cdcChunks(src: ByteSource, ctx: TaskContext): AsyncIterable<Uint8Array> {
  const chunker = new GearChunker();
  let pending: Uint8Array[] = [];
  const take = (last: Uint8Array): Uint8Array => {
    pending.push(last);
    const out = pending.length === 1 ? pending[0]! : concatBytes(pending);
    pending = [];
    return out;
  };
  for (let at = 0; at < src.size; at += READ_PIECE) {
    throwIfAborted(ctx.signal);
    const piece = await src.read(at, Math.min(READ_PIECE, src.size - at));
    let start = 0;
    for (const end of chunker.push(piece)) {
      yield take(piece.subarray(start, end));
      start = end;
    }
    if (start < piece.length) pending.push(piece.subarray(start));
    ctx.progress?.({ done: Math.min(src.size, at + READ_PIECE), total: src.size, message: 'chunking and compressing' });
    await yieldToEventLoop();
  }
  if (chunker.finish()) yield concatBytes(pending);
}

const SCHEME_OPTION = choiceParam(
  'scheme',
  'Compression',
  { auto: 'auto: the smaller of LZ4 and BG4-LZ4', lz4: 'LZ4', 'bg4-lz4': 'BG4-LZ4 (byte grouping, for float weights)', none: 'none' },
  'per chunk; a chunk that does not shrink is stored (scheme 0), as xet does',
);

interface Packed {
  readonly chunks: number;
  readonly bytes: number;
  /** Xorb hashes in xet's string form, in order. */
  readonly names: readonly string[];
}

export interface PackOptions {
  readonly policy: SchemePolicy;
  readonly form: XorbForm;
  readonly limits?: XorbLimits;
}

/**
 * Raw bytes → xorbs: content-defined chunks, collected in order into xorbs that stay within
 * the limits (64 MiB and 8192 chunks). `place` receives each finished xorb and says where it goes.
 */
export async function packXorbs(
  src: ByteSource,
  ctx: TaskContext,
  opts: PackOptions,
  place: (xorbHash: string, index: number) => Promise<ByteSink>,
): Promise<Packed> {
  const { policy, form, limits = XORB_LIMITS } = opts;
  let builder = await XorbBuilder.create(policy, form, limits);
  const names: string[] = [];
  let chunks = 0;
  let bytes = 0;
  const flush = async () => {
    const built = await builder.finish();
    const name = hashToString(built.xorbHash);
    const sink = await place(name, names.length);
    for (const p of built.parts) await sink.write(p);
    names.push(name);
    bytes += built.size;
  };
  for await (const chunk of cdcChunks(src, ctx)) {
    if (!builder.fits(chunk.length)) {
      await flush();
      builder = await XorbBuilder.create(policy, form, limits);
    }
    builder.add(chunk);
    chunks++;
  }
  // The reference refuses chunk-less xorbs, so an empty input has no xorb to become.
  if (chunks === 0) throw new FormatError('corrupt', 'the input is empty: a xorb holds at least one chunk', { offset: 0, field: 'input' });
  if (builder.chunkCount > 0) await flush();
  return { chunks, bytes, names };
}

function packOptions(options: Readonly<Record<string, unknown>>): PackOptions {
  const p = options.scheme;
  return { policy: p === 'none' || p === 'lz4' || p === 'bg4-lz4' ? p : 'auto', form: options.form === 'footerless' ? 'footerless' : 'full' };
}

function report(p: Packed, src: ByteSource): ConvertReport {
  return {
    summary: `${src.size} bytes → ${p.chunks} chunks in ${p.names.length} xorb${p.names.length === 1 ? '' : 's'} (${p.bytes} bytes): ${p.names.join(', ')}`,
  };
}

/** The raw → xorb importers; `limits` only differ from Xet's in tests. */
export function xorbImportersWith(limits: XorbLimits): readonly Importer[] {
  return [
    {
      id: 'xorb',
      label: 'Xorb (content-defined chunks, as the Xet client cuts them)',
      extension: '.xorb',
      output: 'file',
      accepts: ['*'],
      options: [SCHEME_OPTION, FORM_OPTION],
      async run(src, target: OutputTarget, ctx, options) {
        const packed = await packXorbs(src, ctx, { ...packOptions(options), limits }, async (_name, index) => {
          if (index > 0) {
            throw new FormatError(
              'limit',
              `the input needs more than one xorb (each holds at most ${limits.maxBytes} bytes and ${limits.maxChunks} chunks): convert to a folder of xorbs (--to xorbs)`,
              { offset: 0, field: 'input size' },
            );
          }
          return target.file();
        });
        return report(packed, src);
      },
    },
    {
      id: 'xorbs',
      label: 'Xorbs in a folder, named by hash (a new one every 64 MiB / 8192 chunks)',
      extension: '',
      output: 'folder',
      accepts: ['*'],
      options: [SCHEME_OPTION, FORM_OPTION],
      async run(src, target, ctx, options) {
        return report(await packXorbs(src, ctx, { ...packOptions(options), limits }, (name) => target.file(`${name}.xorb`)), src);
      },
    },
  ];
}

export const xorbImporters = xorbImportersWith(XORB_LIMITS);
