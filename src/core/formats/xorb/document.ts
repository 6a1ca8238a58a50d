import { errorNode, fail, field, failFrom, hex, hexBytes, leaf, pass, plural, range, warn } from '../../describe.js';
import { FormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { Check, Field, FormatDocument, OpenContext, Row, StructNode, Table, TaskContext } from '../../model.js';
import { headerProblem, walkChunks, type ChunkWalk } from './chunks.js';
import { locateFooter, readFooter } from './footer.js';
import { hashToString } from './hash.js';
import { CHUNK_HEADER_BYTES, type ChunkHeader, MAX_XORB_BYTES, MAX_XORB_CHUNKS, SCHEME_NAMES, type XorbFooter, type XorbForm } from './model.js';

export async function openXorb(src: ByteSource, ctx: OpenContext): Promise<FormatDocument> {
  const location = await locateFooter(src);
  let footer: XorbFooter | undefined;
  let footerError: FormatError | undefined;
  if (location) {
    try {
      footer = await readFooter(src, location);
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      footerError = e;
    }
  }
  const regionEnd = location?.offset ?? src.size;
  const walk = await walkChunks(src, regionEnd, ctx.signal);
  if (walk.chunks.length === 0 && walk.stop) throw walk.stop;
  return new XorbDocument(src, location ? 'full' : 'footerless', regionEnd, walk, footer, footerError);
}

function schemeName(scheme: number): string {
  return SCHEME_NAMES[scheme] ?? `unknown (${scheme})`;
}

function ratio(h: ChunkHeader): string {
  return h.compressedLength === 0 ? '-' : (h.uncompressedLength / h.compressedLength).toFixed(2);
}

class XorbDocument implements FormatDocument {
  readonly format = 'xorb' as const;
  readonly title: string;
  readonly summary: readonly Field[];
  readonly warnings: readonly Check[];
  readonly tables: readonly Table[];
  readonly converters = [];

  constructor(
    private readonly src: ByteSource,
    private readonly form: XorbForm,
    private readonly regionEnd: number,
    private readonly walk: ChunkWalk,
    private readonly footer: XorbFooter | undefined,
    private readonly footerError: FormatError | undefined,
  ) {
    const chunks = walk.chunks;
    this.title = form === 'full' ? `xorb with footer V${footer?.version ?? '?'}` : 'xorb without footer (upload form)';
    const uncompressed = chunks.reduce((s, c) => s + c.uncompressedLength, 0);
    const summary: Field[] = [
      field('form', form, undefined, { display: form === 'full' ? 'full (chunks + footer)' : 'footerless (chunks only)' }),
      field('chunks', chunks.length, range(0, regionEnd), { mark: walk.stop ? 'error' : undefined, note: walk.stop?.message }),
      field('chunk bytes', regionEnd, range(0, regionEnd)),
      field('uncompressed bytes', uncompressed),
    ];
    if (footer) {
      summary.push(
        field('footer version', footer.version, range(footer.offset + 7, 1), { display: footer.version === 1 ? '1' : '0 (legacy)' }),
        field('xorb hash (footer)', hashToString(footer.xorbHash), range(footer.offset + 8, 32)),
        field('nonce', hexBytes(footer.reserved.subarray(0, 4)), range(src.size - 20, 4), {
          note: footer.reserved.subarray(0, 4).some((b) => b !== 0) ? 'uniqueness nonce set (not part of the hash)' : undefined,
        }),
      );
    } else if (footerError) {
      summary.push(field('footer', 'damaged', range(regionEnd, src.size - regionEnd), { mark: 'error', note: footerError.message }));
    }
    this.summary = summary;
    const warnings: Check[] = [];
    if (walk.stop) warnings.push(failFrom('chunk walk', walk.stop));
    if (footerError) warnings.push(failFrom('footer', footerError));
    for (const [i, c] of chunks.entries()) {
      const problem = headerProblem(c);
      if (problem) warnings.push(failFrom(`chunk ${i} header`, problem));
    }
    this.warnings = warnings;
    this.tables = [this.chunkTable()];
  }

  private chunkTable(): Table {
    const chunks = this.walk.chunks;
    const hashes = this.footer?.chunkHashes;
    return {
      id: 'chunks',
      title: 'Chunks',
      columns: [
        { key: 'index', title: '#', type: 'number' },
        { key: 'offset', title: 'offset', type: 'number' },
        { key: 'scheme', title: 'scheme', type: 'text' },
        { key: 'compressed', title: 'compressed', type: 'number' },
        { key: 'uncompressed', title: 'uncompressed', type: 'number' },
        { key: 'ratio', title: 'ratio', type: 'number' },
        { key: 'hash', title: 'hash (footer)', type: 'hex' },
      ],
      rowCount: () => ({ known: chunks.length, complete: true }),
      page: (from, count) =>
        Promise.resolve(
          chunks.slice(from, from + count).map(
            (c, i): Row => ({
              cells: [
                from + i,
                c.offset,
                schemeName(c.scheme),
                c.compressedLength,
                c.uncompressedLength,
                ratio(c),
                hashes?.[from + i] ? hashToString(hashes[from + i]!) : null,
              ],
              range: range(c.offset, CHUNK_HEADER_BYTES + c.compressedLength),
              mark: headerProblem(c) ? 'error' : undefined,
            }),
          ),
        ),
    };
  }

  structure(): StructNode {
    const chunks = this.walk.chunks;
    const chunkNode = (c: ChunkHeader, i: number): StructNode => {
      const problem = headerProblem(c);
      return {
        label: `chunk ${i}`,
        value: `${schemeName(c.scheme)}, ${c.compressedLength} → ${c.uncompressedLength} bytes`,
        range: range(c.offset, CHUNK_HEADER_BYTES + c.compressedLength),
        mark: problem ? 'error' : undefined,
        note: problem?.detail,
        children: [
          {
            label: 'header',
            range: range(c.offset, CHUNK_HEADER_BYTES),
            children: [
              leaf('version', c.version, range(c.offset, 1)),
              leaf('compressed length', c.compressedLength, range(c.offset + 1, 3)),
              leaf('scheme', `${c.scheme} (${schemeName(c.scheme)})`, range(c.offset + 4, 1)),
              leaf('uncompressed length', c.uncompressedLength, range(c.offset + 5, 3)),
            ],
          },
          leaf('payload', `${c.compressedLength} bytes`, range(c.offset + CHUNK_HEADER_BYTES, c.compressedLength)),
        ],
      };
    };
    const children: StructNode[] = [
      {
        label: 'chunks',
        value: plural(chunks.length, 'chunk'),
        range: range(0, this.regionEnd),
        children: {
          lazy: true,
          count: () => chunks.length,
          load: (from, count) => Promise.resolve(chunks.slice(from, from + count).map((c, i) => chunkNode(c, from + i))),
        },
      },
    ];
    if (this.walk.stop) children.push(errorNode(this.walk.stop, 'chunk walk stopped'));
    if (this.footer) children.push(this.footerNode(this.footer));
    else if (this.footerError) children.push(errorNode(this.footerError, 'footer'));
    return { label: this.title, range: range(0, this.src.size), children };
  }

  private footerNode(f: XorbFooter): StructNode {
    const at = f.offset;
    const hashList = (start: number): StructNode => ({
      label: 'chunk hashes',
      value: plural(f.chunkCount, 'hash', 'hashes'),
      range: range(start, 32 * f.chunkCount),
      children: {
        lazy: true,
        count: () => f.chunkCount,
        load: (from, count) =>
          Promise.resolve(f.chunkHashes.slice(from, from + count).map((h, i) => leaf(`chunk ${from + i}`, hashToString(h), range(start + 32 * (from + i), 32)))),
      },
    });
    const numberList = (label: string, values: readonly number[], start: number): StructNode => ({
      label,
      range: range(start, 4 * values.length),
      children: {
        lazy: true,
        count: () => values.length,
        load: (from, count) => Promise.resolve(values.slice(from, from + count).map((v, i) => leaf(`chunk ${from + i}`, v, range(start + 4 * (from + i), 4)))),
      },
    });
    const n = f.chunkCount;
    const children: StructNode[] = [leaf('ident', 'XETBLOB', range(at, 7)), leaf('version', f.version, range(at + 7, 1)), leaf('xorb hash', hashToString(f.xorbHash), range(at + 8, 32))];
    if (f.version === 1) {
      const hs = at + 40;
      const bs = hs + 12 + 32 * n;
      const tail = bs + 12 + 8 * n;
      children.push(
        { label: 'hash section', range: range(hs, 12 + 32 * n), children: [leaf('ident', 'XBLBHSH', range(hs, 7)), leaf('hashes version', f.hashesVersion ?? 0, range(hs + 7, 1)), leaf('chunk count', n, range(hs + 8, 4)), hashList(hs + 12)] },
        {
          label: 'boundary section',
          range: range(bs, 12 + 8 * n),
          children: [
            leaf('ident', 'XBLBBND', range(bs, 7)),
            leaf('boundaries version', f.boundariesVersion ?? 1, range(bs + 7, 1)),
            leaf('chunk count', n, range(bs + 8, 4)),
            numberList('chunk boundary offsets (end of each chunk)', f.boundaries, bs + 12),
            numberList('unpacked chunk offsets (end in the decompressed bytes)', f.unpackedOffsets ?? [], bs + 12 + 4 * n),
          ],
        },
        leaf('chunk count', n, range(tail, 4)),
        leaf('hashes section offset from end', f.hashesSectionOffsetFromEnd ?? 0, range(tail + 4, 4)),
        leaf('boundary section offset from end', f.boundarySectionOffsetFromEnd ?? 0, range(tail + 8, 4)),
        leaf('reserved (nonce + zeros)', hexBytes(f.reserved), range(tail + 12, 16)),
      );
    } else {
      children.push(leaf('chunk count', n, range(at + 40, 4)), numberList('chunk boundary offsets', f.boundaries, at + 44), hashList(at + 44 + 4 * n), leaf('reserved', hexBytes(f.reserved), range(at + 44 + 36 * n, 16)));
    }
    children.push(leaf('info_length', f.infoLength, range(this.src.size - 4, 4)));
    return { label: `footer V${f.version}`, range: range(at, this.src.size - at), children };
  }

  async *verify(_ctx: TaskContext): AsyncIterable<Check> {
    const chunks = this.walk.chunks;
    let bad = false;
    for (const [i, c] of chunks.entries()) {
      const problem = headerProblem(c);
      if (problem) {
        bad = true;
        yield failFrom(`chunk ${i} header`, problem);
      }
    }
    if (this.walk.stop) yield failFrom('chunk layout', this.walk.stop);
    else if (!bad) yield pass('chunk headers', `${plural(chunks.length, 'chunk')} with valid headers tile [0, ${this.regionEnd})`);
    if (chunks.length > MAX_XORB_CHUNKS) yield warn('chunk count', `${chunks.length} chunks exceed the client limit of ${MAX_XORB_CHUNKS}`);
    if (this.src.size > MAX_XORB_BYTES) yield warn('xorb size', `${this.src.size} bytes exceed the 64 MiB limit`);
    if (this.form === 'footerless') return;
    if (this.footerError) {
      yield failFrom('footer', this.footerError);
      return;
    }
    yield* this.verifyFooterLayout(this.footer!);
  }

  private *verifyFooterLayout(f: XorbFooter): Iterable<Check> {
    const chunks = this.walk.chunks;
    yield pass('footer', `footer V${f.version}, ${f.infoLength} bytes, idents and section offsets consistent`, f.offset);
    if (f.chunkCount !== chunks.length) {
      yield fail('footer chunk count', `footer lists ${f.chunkCount} chunks, the chunk data holds ${chunks.length}`, f.offset, 'chunk count');
      return;
    }
    let uncompressed = 0;
    for (const [i, c] of chunks.entries()) {
      const end = c.offset + CHUNK_HEADER_BYTES + c.compressedLength;
      if (f.boundaries[i] !== end) {
        yield fail('chunk boundaries', `chunk ${i} ends at ${end}, the footer says ${f.boundaries[i]}`, c.offset, 'chunk boundary offsets');
        return;
      }
      uncompressed += c.uncompressedLength;
      if (f.unpackedOffsets && f.unpackedOffsets[i] !== uncompressed) {
        yield fail('unpacked offsets', `chunk ${i} ends at ${uncompressed} in the decompressed bytes, the footer says ${f.unpackedOffsets[i]}`, c.offset, 'unpacked chunk offsets');
        return;
      }
    }
    yield pass('chunk boundaries', `boundaries${f.unpackedOffsets ? ' and unpacked offsets' : ''} match all ${chunks.length} chunk headers`);
    const last = chunks.length === 0 ? 0 : f.boundaries[chunks.length - 1]!;
    yield last === f.offset
      ? pass('chunk region', `chunks end exactly where the footer starts (${hex(f.offset)})`)
      : fail('chunk region', `chunks end at ${last}, the footer starts at ${f.offset}`, last);
  }

  info(): Record<string, unknown> {
    const f = this.footer;
    return {
      form: this.form,
      footerVersion: f?.version ?? null,
      chunkCount: this.walk.chunks.length,
      xorbHash: f ? hashToString(f.xorbHash) : null,
      chunks: this.walk.chunks.map((c, i) => ({
        index: i,
        offset: c.offset,
        scheme: schemeName(c.scheme),
        compressedSize: c.compressedLength,
        uncompressedSize: c.uncompressedLength,
        hash: f?.chunkHashes[i] ? hashToString(f.chunkHashes[i]!) : null,
      })),
    };
  }
}
