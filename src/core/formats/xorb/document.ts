import { readLz4FrameInfo } from '../../codecs/lz4.js';
import { errorNode, field, hexBytes, leaf, plural, range } from '../../describe.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { Field, FormatDocument, OpenContext, StructNode } from '../../model.js';
import { headerProblem, schemeName } from './chunks.js';
import { xorbCat, xorbConverters } from './convert.js';
import { XorbDiff } from './diff.js';
import { chunkTable } from './chunkTable.js';
import { knownChunkDamage, xorbCoverage } from './integrity.js';
import { hashToString, rawHex, sameHash } from './hash.js';
import {
  CHUNK_HEADER,
  CHUNK_HEADER_BYTES,
  FOOTER_HEAD,
  FOOTER_V1_TAIL,
  SECTION_HEAD,
  footerParts,
  type ChunkHeader,
  Scheme,
  type XorbFooter,
} from './model.js';
import { chunkChartPanel, chunkPreviewPanel, hashSearch, merklePanel } from './panels.js';
import { openProblems, verifyXorb } from './verify.js';
import { XorbFile } from './xorbFile.js';

export async function openXorb(src: ByteSource, ctx: OpenContext): Promise<FormatDocument> {
  return xorbDocument(await XorbFile.open(src, ctx.name, ctx.signal));
}

/** A xorb's views and read paths, all over what opening found (XorbFile). */
function xorbDocument(x: XorbFile): FormatDocument {
  const title = x.form === 'full' ? `xorb with footer V${x.footer?.version ?? '?'}` : 'xorb without footer (upload form)';
  return {
    format: 'xorb',
    title,
    summary: summaryFields(x),
    warnings: openProblems(x),
    tables: [chunkTable(x)],
    panels: [chunkChartPanel(x), chunkPreviewPanel(x), merklePanel(x)],
    searches: [hashSearch(x)],
    converters: xorbConverters(x),
    cat: xorbCat(x),
    diff: new XorbDiff(x),
    structure: () => xorbStructure(x, title),
    coverage: () => Promise.resolve(xorbCoverage(x)),
    verify: (ctx) => verifyXorb(x, ctx),
    info: () => xorbInfo(x),
  };
}

function summaryFields(x: XorbFile): Field[] {
  const { chunks, footer, walk } = x;
  const known = x.known;
  const uncompressed = chunks.reduce((s, c) => s + c.uncompressedLength, 0);
  const counts = new Map<string, number>();
  for (const c of chunks) counts.set(schemeName(c.scheme), (counts.get(schemeName(c.scheme)) ?? 0) + 1);
  const fields: Field[] = [
    field('form', x.form, undefined, {
      display: x.form === 'full' ? 'full (chunks + footer)' : 'footerless (chunks only: the upload form or a downloaded range)',
    }),
    field('chunks', chunks.length, range(0, x.regionEnd), { mark: walk.stop ? 'error' : undefined, note: walk.stop?.message }),
    field('schemes', [...counts].map(([k, n]) => `${k} ×${n}`).join(', ')),
    field('chunk bytes', x.regionEnd, range(0, x.regionEnd)),
    field('uncompressed bytes', uncompressed, undefined, {
      display: `${uncompressed}${x.regionEnd ? ` (ratio ${(uncompressed / Math.max(1, x.regionEnd)).toFixed(2)})` : ''}`,
    }),
  ];
  if (footer)
    fields.push(field('footer version', footer.version, FOOTER_HEAD.range('version', footer.offset), { display: footer.version === 1 ? '1' : '0 (legacy)' }));
  const computed = known?.tree?.root.hash;
  const failed = known?.chunks.findIndex((c) => c.error) ?? -1;
  fields.push(
    computed
      ? field('xorb hash', hashToString(computed), undefined, { mark: footer && !sameHash(footer.xorbHash, computed) ? 'error' : undefined })
      : field('xorb hash', null, undefined, {
          display: 'not computed',
          mark: failed >= 0 ? 'error' : undefined,
          note:
            failed >= 0
              ? `chunk ${failed} cannot be decoded`
              : known
                ? 'no chunks'
                : 'not computed while opening a xorb this large: Verify or the Merkle tree view computes it',
        }),
  );
  if (footer) fields.push(field('xorb hash (footer)', hashToString(footer.xorbHash), FOOTER_HEAD.range('xorbHash', footer.offset)));
  fields.push(hashCheck(x, computed));
  if (footer) {
    const nonce = footer.reserved.subarray(0, 4);
    fields.push(
      field('nonce', hexBytes(nonce), range(x.src.size - 20, 4), {
        note: nonce.some((b) => b !== 0) ? 'uniqueness nonce set (not part of the hash)' : undefined,
      }),
    );
  } else if (x.footerError) {
    fields.push(field('footer', 'damaged', range(x.regionEnd, x.src.size - x.regionEnd), { mark: 'error', note: x.footerError.message }));
  }
  return fields;
}

function hashCheck(x: XorbFile, computed: Uint8Array | undefined): Field {
  const { footer, expectedHash } = x;
  if (!computed) return x.known ? field('hash check', 'not possible', undefined, { mark: 'error' }) : field('hash check', 'not yet (Verify checks it)');
  const against: string[] = [];
  const wrong: string[] = [];
  if (footer) (sameHash(footer.xorbHash, computed) ? against : wrong).push('the footer');
  if (expectedHash) (sameHash(expectedHash, computed) ? against : wrong).push('the file name');
  if (wrong.length) return field('hash check', `differs from ${wrong.join(' and ')}`, undefined, { mark: 'error' });
  if (against.length) return field('hash check', `matches ${against.join(' and ')}`);
  return field('hash check', 'computed (no footer or hash-named file to compare with)');
}

function xorbStructure(x: XorbFile, title: string): StructNode {
  const chunks = x.chunks;
  const children: StructNode[] = [
    {
      label: 'chunks',
      value: plural(chunks.length, 'chunk'),
      range: range(0, x.regionEnd),
      children: {
        lazy: true,
        count: () => chunks.length,
        load: (from, count) => Promise.resolve(chunks.slice(from, from + count).map((c, i) => chunkNode(x, c, from + i))),
      },
    },
  ];
  if (x.walk.stop) children.push(errorNode(x.walk.stop, 'chunk walk stopped'));
  if (x.footer) children.push(footerNode(x, x.footer));
  else if (x.footerError) children.push(errorNode(x.footerError, 'footer'));
  return { label: title, range: range(0, x.src.size), children };
}

function chunkNode(x: XorbFile, c: ChunkHeader, i: number): StructNode {
  const problem = headerProblem(c);
  const outcome = x.known?.chunks[i];
  const damage = knownChunkDamage(x, i);
  const payloadAt = c.offset + CHUNK_HEADER_BYTES;
  const payload: StructNode = {
    label: 'payload',
    value: `${c.compressedLength} bytes${c.scheme === Scheme.None ? ' (stored)' : ''}`,
    range: range(payloadAt, c.compressedLength),
    children:
      problem || c.scheme === Scheme.None || payloadAt + c.compressedLength > x.regionEnd
        ? undefined
        : { lazy: true, count: () => undefined, load: (from) => (from > 0 ? Promise.resolve([]) : frameNodes(x, c)) },
  };
  return {
    label: `chunk ${i}`,
    value: `${schemeName(c.scheme)}, ${c.compressedLength} → ${c.uncompressedLength} bytes`,
    range: range(c.offset, CHUNK_HEADER_BYTES + c.compressedLength),
    mark: damage ? 'error' : undefined,
    note: damage?.detail,
    children: [
      {
        label: 'header',
        range: range(c.offset, CHUNK_HEADER_BYTES),
        children: [
          // The tree's shorter labels for two fields; the ranges are the declaration's.
          leaf('version', c.version, CHUNK_HEADER.range('version', c.offset)),
          leaf('compressed length', c.compressedLength, CHUNK_HEADER.range('compressedLength', c.offset)),
          leaf('scheme', `${c.scheme} (${schemeName(c.scheme)})`, CHUNK_HEADER.range('scheme', c.offset)),
          leaf('uncompressed length', c.uncompressedLength, CHUNK_HEADER.range('uncompressedLength', c.offset)),
        ],
      },
      payload,
      ...(outcome?.hash ? [leaf('hash', hashToString(outcome.hash))] : []),
    ],
  };
}

/** The LZ4 frame inside a payload: descriptor and blocks, read when the node opens. */
async function frameNodes(x: XorbFile, c: ChunkHeader): Promise<StructNode[]> {
  const at = c.offset + CHUNK_HEADER_BYTES;
  const bytes = await x.src.read(at, c.compressedLength);
  try {
    const f = readLz4FrameInfo(bytes, { offset: at, field: 'chunk payload (LZ4 frame)' });
    const flags = [
      f.independentBlocks ? 'independent blocks' : 'linked blocks',
      f.blockChecksums && 'block checksums',
      f.contentSize !== undefined && 'content size',
      f.contentChecksum && 'content checksum',
    ]
      .filter(Boolean)
      .join(', ');
    const descriptorEnd = f.blocks[0]?.at ?? f.length - 4 - (f.contentChecksum ? 4 : 0);
    return [
      leaf('LZ4 frame magic', '04 22 4d 18', range(at, 4)),
      leaf('FLG', `0x${f.flg.toString(16).padStart(2, '0')} (${flags})`, range(at + 4, 1)),
      leaf('BD', `0x${f.bd.toString(16).padStart(2, '0')} (blocks up to ${f.blockMaxSize >> 10} KiB)`, range(at + 5, 1)),
      ...(f.contentSize !== undefined ? [leaf('content size', f.contentSize, range(at + 6, 8))] : []),
      leaf('header checksum', `0x${f.headerChecksum.toString(16).padStart(2, '0')}`, range(at + descriptorEnd - 1, 1)),
      ...f.blocks.map((b, k) =>
        leaf(`block ${k}`, `${b.size} bytes${b.stored ? ', stored' : ', compressed'}`, range(at + b.at, 4 + b.size + (f.blockChecksums ? 4 : 0))),
      ),
      leaf('end mark', '00 00 00 00', range(at + f.length - 4 - (f.contentChecksum ? 4 : 0), 4)),
    ];
  } catch (e) {
    return [errorNode(e, 'LZ4 frame')];
  }
}

function footerNode(x: XorbFile, f: XorbFooter): StructNode {
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
  const p = footerParts(f.version, at, n);
  const H = FOOTER_HEAD;
  const S = SECTION_HEAD;
  const T = FOOTER_V1_TAIL;
  const children: StructNode[] = [
    leaf('ident', 'XETBLOB', H.range('ident', at)),
    leaf('version', f.version, H.range('version', at)),
    leaf('xorb hash', hashToString(f.xorbHash), H.range('xorbHash', at)),
  ];
  if (f.version === 1) {
    const section = (label: string, ident: string, version: string, v: number, from: number, to: number, rest: StructNode[]): StructNode => ({
      label,
      range: range(from, to - from),
      children: [
        leaf('ident', ident, S.range('ident', from)),
        leaf(version, v, S.range('version', from)),
        leaf(S.name('count'), n, S.range('count', from)),
        ...rest,
      ],
    });
    children.push(
      section('hash section', 'XBLBHSH', 'hashes version', f.hashesVersion ?? 0, p.hashSection, p.boundarySection, [hashList(p.hashes)]),
      section('boundary section', 'XBLBBND', 'boundaries version', f.boundariesVersion ?? 1, p.boundarySection, p.tail, [
        numberList('chunk boundary offsets (end of each chunk)', f.boundaries, p.boundaries),
        numberList('unpacked chunk offsets (end in the decompressed bytes)', f.unpackedOffsets ?? [], p.unpacked),
      ]),
      leaf(T.name('chunkCount'), n, T.range('chunkCount', p.tail)),
      leaf(T.name('hashesSectionOffsetFromEnd'), f.hashesSectionOffsetFromEnd ?? 0, T.range('hashesSectionOffsetFromEnd', p.tail)),
      leaf(T.name('boundarySectionOffsetFromEnd'), f.boundarySectionOffsetFromEnd ?? 0, T.range('boundarySectionOffsetFromEnd', p.tail)),
      leaf('reserved (nonce + zeros)', hexBytes(f.reserved), T.range('reserved', p.tail)),
    );
  } else {
    children.push(
      leaf('chunk count', n, range(p.hashSection, p.boundaries - p.hashSection)),
      numberList('chunk boundary offsets', f.boundaries, p.boundaries),
      hashList(p.hashes),
      leaf('reserved', hexBytes(f.reserved), range(p.tail, p.end - p.tail)),
    );
  }
  children.push(leaf('info_length', f.infoLength, range(x.src.size - 4, 4)));
  return { label: `footer V${f.version}`, range: range(at, x.src.size - at), children };
}

function xorbInfo(x: XorbFile): Record<string, unknown> {
  const f = x.footer;
  const known = x.known;
  const root = known?.tree?.root.hash;
  return {
    form: x.form,
    footerVersion: f?.version ?? null,
    chunkCount: x.chunks.length,
    xorbHash: root ? hashToString(root) : null,
    xorbHashRawHex: root ? rawHex(root) : null,
    footerXorbHash: f ? hashToString(f.xorbHash) : null,
    nonceHex: f ? rawHex(f.reserved.subarray(0, 4)) : null,
    uncompressedSize: x.chunks.reduce((s, c) => s + c.uncompressedLength, 0),
    chunks: x.chunks.map((c, i) => ({
      index: i,
      offset: c.offset,
      scheme: schemeName(c.scheme),
      compressedSize: c.compressedLength,
      uncompressedSize: c.uncompressedLength,
      hash: known?.chunks[i]?.hash ? hashToString(known.chunks[i]!.hash!) : null,
      footerHash: f?.chunkHashes[i] ? hashToString(f.chunkHashes[i]!) : null,
      error: known?.chunks[i]?.error?.message ?? null,
    })),
  };
}
