import { errorNode, hex, hexBytes, hexString, leaf, quotedTextOrHex, range } from '../../describe.js';
import type { ByteRange, LazyChildren, Scalar, StructNode } from '../../model.js';
import { stageText } from './chain.js';
import type { ColumnView } from './columns.js';
import type { Container } from './container.js';
import {
  CHECKSUM_ALGOS,
  DICT_ORIGINS,
  EXTREF_KINDS,
  FILE_FLAG_NAMES,
  FLAG_COMPRESSED,
  FLAG_EXTERNAL_REF,
  FLAG_SKIPPABLE,
  FOOTER_MAGIC,
  FOOTER_PAYLOAD,
  FOOTER_SECTION,
  FRAME_HEADER,
  FRAME_HEADER_BYTES,
  HEADER_PAYLOAD,
  FrameType,
  MAGIC,
  META_VALUE_TYPES,
  RESERVED_FLAGS,
  codecName,
  frameLength,
  frameTypeName,
  type BloomIndex,
  type Dictionary,
  type Footer,
  type FrameHeader,
  type HeaderFrame,
  type MerkleTree,
  type MetaEntry,
  type SchemaField,
  type SortedIndex,
} from './model.js';
import { metaText } from './panels.js';
import { typeText } from './schema.js';
import { notUnderstood } from './verify.js';

/** The structure tree: the preamble, then every frame with its envelope and its decoded payload fields. */

export function flagText(flags: number): string {
  const names = [
    flags & FLAG_SKIPPABLE ? 'skippable' : '',
    flags & FLAG_COMPRESSED ? 'compressed' : '',
    flags & FLAG_EXTERNAL_REF ? 'external-ref' : '',
  ].filter(Boolean);
  if (flags & RESERVED_FLAGS) names.push(`reserved bits ${hex(flags & RESERVED_FLAGS)}`);
  return names.join(', ') || 'none';
}

export function fileFlagText(flags: bigint): string {
  return FILE_FLAG_NAMES.filter((_, i) => (flags >> BigInt(i)) & 1n).join(', ') || 'none';
}

/** Long lists (chunks, Merkle leaves, dictionary entries) page lazily. */
function list<T>(items: readonly T[], node: (item: T, i: number) => StructNode): StructNode[] | LazyChildren {
  if (items.length <= 100) return items.map(node);
  return { lazy: true, count: () => items.length, load: (from, count) => Promise.resolve(items.slice(from, from + count).map((x, i) => node(x, from + i))) };
}

function metaNodes(entries: readonly MetaEntry[]): StructNode[] {
  return entries.map((e) => leaf(e.key, `${metaText(e)} (${META_VALUE_TYPES[e.valueType] ?? e.valueType})`));
}

function fieldNode(f: SchemaField): StructNode {
  const children = f.type.code === 'NESTED' ? f.type.children.map(fieldNode) : undefined;
  return { label: f.name, value: `${typeText(f.type)}${f.nullable ? ', nullable' : ''}`, children };
}

/** What the checks run so far say of a frame: its CRC state ('ok', a mismatch, or undefined when not checked) and any failed check. */
export interface FrameVerdicts {
  crc(f: FrameHeader): string | undefined;
  problem(f: FrameHeader): string | undefined;
}

export function structureOf(c: Container, views: readonly ColumnView[], verdicts: FrameVerdicts, size: number): StructNode {
  const p = c.preamble;
  const children: StructNode[] = [
    {
      label: 'preamble',
      range: range(0, p.size),
      mark: p.size === 8 ? 'warn' : undefined,
      note: p.size === 8 ? '8-byte variant' : undefined,
      children: [
        leaf('magic', 'BINDU\\0', range(0, MAGIC.length)),
        leaf(p.size === 10 ? 'format major' : 'version (u16)', p.formatMajor, range(MAGIC.length, p.size - MAGIC.length)),
      ],
    },
  ];
  for (const f of c.frames) children.push(frameNode(c, views, f, verdicts.crc(f), verdicts.problem(f)));
  if (c.walkStop) children.push(errorNode(c.walkStop, 'frame walk stopped'));
  return { label: 'Bindu open container v1', range: range(0, size), children };
}

function frameNode(c: Container, views: readonly ColumnView[], f: FrameHeader, crc: string | undefined, failed: string | undefined): StructNode {
  const bad = crc !== undefined && crc !== 'ok';
  const at = f.offset + FRAME_HEADER_BYTES;
  const children: StructNode[] = [
    // Shorter labels than the reader's field names; the ranges are the declaration's.
    leaf('type', `${hex(f.type, 2)} ${frameTypeName(f.type)}`, FRAME_HEADER.range('type', f.offset)),
    leaf('version', f.version, FRAME_HEADER.range('version', f.offset)),
    leaf('flags', `${f.flags} (${flagText(f.flags)})`, FRAME_HEADER.range('flags', f.offset)),
    leaf('payload length', f.payloadLength, FRAME_HEADER.range('payloadLength', f.offset)),
    ...payloadNodes(c, views, f),
    leaf('CRC-32C', `${hex(f.storedCrc, 8)} (${crc ?? 'not checked'})`, range(at + f.payloadLength, 4), bad ? { mark: 'error' } : {}),
  ];
  const problem = c.problems.get(f.offset);
  if (problem) children.push(errorNode(problem, 'payload unreadable'));
  const unknown = notUnderstood(f);
  return {
    label: `${frameTypeName(f.type)} frame`,
    value: `${f.payloadLength} bytes`,
    range: range(f.offset, frameLength(f)),
    mark: bad || failed || problem || (unknown && !(f.flags & FLAG_SKIPPABLE)) ? 'error' : unknown ? 'warn' : undefined,
    note: bad
      ? 'CRC mismatch'
      : failed
        ? failed
        : problem
          ? problem.detail
          : unknown
            ? f.flags & FLAG_SKIPPABLE
              ? 'unknown, skippable'
              : 'unknown and critical: a decoder stops here'
            : undefined,
    children,
  };
}

/** The Header frame's fields: its fixed start from HEADER_PAYLOAD, then config, references and digest. */
function headerNodes(h: HeaderFrame, f: FrameHeader): StructNode[] {
  const at = f.offset + FRAME_HEADER_BYTES;
  return [
    leaf(
      'schema fingerprint',
      h.fingerprint.every((b) => b === 0) ? 'all zero (schemaless)' : hexString(h.fingerprint),
      HEADER_PAYLOAD.range('fingerprint', at),
    ),
    leaf('file flags', `${h.fileFlags} (${fileFlagText(h.fileFlags)})`, HEADER_PAYLOAD.range('fileFlags', at)),
    leaf('row count', h.rowCount, HEADER_PAYLOAD.range('rowCount', at)),
    leaf('column count', h.columnCount, HEADER_PAYLOAD.range('columnCount', at)),
    leaf('writer', `${h.writerName} ${h.writerVersion.join('.')}`, HEADER_PAYLOAD.span('writerMajor', 'writerPatch', at)),
    { label: 'config', value: `${h.config.length} entries`, children: metaNodes(h.config) },
    {
      label: 'external references',
      value: h.extrefs.length ? 'needs external state' : 'none',
      mark: h.extrefs.length ? 'warn' : undefined,
      children: h.extrefs.map((e) => leaf(EXTREF_KINDS[e.kind] ?? `kind ${e.kind}`, `${e.locator} (sha256 ${hexString(e.sha256)})`)),
    },
    ...(h.sourceDigest ? [leaf('source SHA-256', hexString(h.sourceDigest), range(at + f.payloadLength - h.sourceDigest.length, h.sourceDigest.length))] : []),
  ];
}

/** A frame's payload as fields; one that opening did not decode (or a second header frame) shows only its byte count. */
function payloadNodes(c: Container, views: readonly ColumnView[], f: FrameHeader): StructNode[] {
  const at = f.offset + FRAME_HEADER_BYTES;
  const payload = range(at, f.payloadLength);
  switch (f.type) {
    case FrameType.Header: {
      const h = c.header;
      if (!h || c.frames.find((x) => x.type === FrameType.Header) !== f) break;
      return headerNodes(h, f);
    }
    case FrameType.Schema:
      if (c.schema && c.schemaFrame === f)
        return [{ label: 'canonical schema bytes', value: `${c.schema.leaves.length} leaf columns`, range: payload, children: c.schema.fields.map(fieldNode) }];
      break;
    case FrameType.Dictionary: {
      const d = c.dictionaries.find((x) => x.offset === f.offset);
      if (d) return dictionaryNodes(d, payload);
      break;
    }
    case FrameType.Column: {
      const v = views.find((x) => x.column.frame === f);
      if (v) return columnNodes(v);
      break;
    }
    case FrameType.BloomIndex: {
      const b = c.blooms.find((x) => x.offset === f.offset);
      if (b) return bloomNodes(b);
      break;
    }
    case FrameType.SortedIndex: {
      const s = c.sorted.find((x) => x.offset === f.offset);
      if (s) return sortedNodes(s);
      break;
    }
    case FrameType.MerkleTree:
      if (c.merkle) return merkleNodes(c.merkle, range(at + f.payloadLength - 32, 32));
      break;
    case FrameType.UserMeta:
      return metaNodes(c.userMeta.filter((e) => e.frame === f.offset));
    case FrameType.Footer:
      if (c.footer && c.footer.offset === f.offset) return footerNodes(c.footer);
      break;
  }
  return [leaf('payload', `${f.payloadLength} bytes`, payload)];
}

function dictionaryNodes(d: Dictionary, payload: ByteRange): StructNode[] {
  return [
    leaf('dictionary id', d.id),
    leaf('kind', d.kind === 1 ? 'VALUES' : d.kind === 2 ? `FIXED (${d.width} bytes)` : `opaque 0x${d.kind.toString(16)}: describe-only`),
    leaf('origin', DICT_ORIGINS[d.origin] ?? d.origin, undefined, d.origin === 2 ? { mark: 'warn', note: 'needs external state' } : {}),
    ...(d.sharedName ? [leaf('shared dictionary', `${d.sharedName} (sha256 ${hexString(d.sharedSha256!)})`)] : []),
    {
      label: 'entries',
      value: d.entries ? String(d.entries.length) : 'not in this file',
      range: payload,
      children: d.entries ? list(d.entries, (e, i) => leaf(`entry ${i}`, quotedTextOrHex(e))) : undefined,
    },
  ];
}

/** A column frame: its type, its codec chain stage by stage (why it cannot be decoded, if so), its chunks. */
function columnNodes(v: ColumnView): StructNode[] {
  const col = v.column;
  return [
    leaf('column id', col.id),
    leaf('name', col.name),
    leaf('type', `${typeText(col.type)}${col.nullable ? ', nullable' : ''}${col.hasStats ? ', chunk stats' : ''}`),
    {
      label: 'codec chain',
      value: col.stages.map(stageText).join(' → '),
      mark: v.undecodable ? 'warn' : undefined,
      note: v.undecodable,
      children: col.stages.map((s, i) =>
        leaf(
          `stage ${i}`,
          `${hex(s.codec, 2)} ${codecName(s.codec)}${s.params.length ? ` params ${hexBytes(s.params, 32)}` : ''}`,
          range(s.offset, 1 + 1 + s.params.length),
        ),
      ),
    },
    leaf('row count', col.rowCount),
    {
      label: 'chunks',
      value: String(col.chunks.length),
      children: list(col.chunks, (k) =>
        leaf(
          `chunk ${k.index}`,
          `rows ${k.firstRow}–${k.firstRow + k.rows - 1}, ${k.byteLength} bytes${k.min ? `, min ${hexBytes(k.min, 12)} max ${hexBytes(k.max!, 12)}` : ''}`,
          range(k.blobOffset, k.byteLength),
        ),
      ),
    },
  ];
}

function bloomNodes(b: BloomIndex): StructNode[] {
  return [
    leaf('column', b.column),
    leaf('k', b.k),
    leaf('m', `${b.mBits} bits`),
    leaf('granularity', b.granularity ? 'per chunk' : 'per file'),
    leaf('distinct values', b.nInserted),
    leaf('filters', b.filters.length),
  ];
}

/** A sorted index: a row permutation, or each chunk's value range. */
function sortedNodes(s: SortedIndex): StructNode[] {
  if (s.permutation)
    return [
      leaf('column', s.column),
      leaf('kind', 'PERMUTATION'),
      leaf(
        'row ids',
        `${s.permutation.rowCount}, chain ${s.permutation.stages.map(stageText).join(' → ')}`,
        range(s.permutation.dataOffset, s.permutation.byteLength),
      ),
    ];
  return [
    leaf('column', s.column),
    leaf('kind', 'CHUNK_RANGES'),
    {
      label: 'ranges',
      value: String(s.ranges!.length),
      children: list(s.ranges!, (r) => leaf(`chunk ${r.chunk}`, `${hexBytes(r.min, 12)} … ${hexBytes(r.max, 12)}`)),
    },
  ];
}

/** The Merkle frame; its root is the payload's last 32 bytes. */
function merkleNodes(m: MerkleTree, root: ByteRange): StructNode[] {
  return [
    leaf('hash', 'SHA-256'),
    leaf('leaves', m.leaves.length),
    { label: 'leaf hashes', children: list(m.leaves, (l, i) => leaf(`leaf ${i} @${l.offset}`, hexString(l.hash))) },
    leaf('root', hexString(m.root), root),
  ];
}

function footerNodes(ft: Footer): StructNode[] {
  const p = ft.offset + FRAME_HEADER_BYTES;
  const F = FOOTER_PAYLOAD;
  const one = (key: keyof typeof F.fields, value: Scalar) => leaf(F.name(key), value, F.range(key, p));
  const table = F.range('sections', p);
  return [
    one('version', ft.version),
    one('flags', `${ft.flags}${ft.flags & 1 ? ' sealed' : ''}${ft.flags & 2 ? ' checksum' : ''}`),
    one('footerOffset', ft.footerOffset),
    one('frameCount', ft.frameCount),
    one('checksumAlgo', CHECKSUM_ALGOS[ft.checksumAlgo] ?? ft.checksumAlgo),
    one('checksum', hexString(ft.checksum)),
    one('fingerprint', hexString(ft.fingerprint)),
    one('merkleRoot', hexString(ft.merkleRoot)),
    {
      label: F.name('sections'),
      range: table,
      children: ft.sections.map((s, i) =>
        leaf(
          frameTypeName(s.type),
          `${s.count} frames, ${s.span} bytes at ${s.firstOffset}`,
          range(table.offset + FOOTER_SECTION.size * i, FOOTER_SECTION.size),
        ),
      ),
    },
    one('magic', FOOTER_MAGIC),
  ];
}
