import { hex, range } from '../../describe.js';
import type { FormatError } from '../../errors.js';
import { damagedCell } from '../../integrity.js';
import type { Panel, Row, Table } from '../../model.js';
import { type FieldRow, fieldsPanel } from '../../panelSpec.js';
import { column, listTable } from '../../tableSpec.js';
import { BENDL_HEADER as H, BENDL_TAIL, HEADER_BYTES } from './bendl.js';
import { ASSET_TYPES, type Bundle, assetFlags } from './bendlParts.js';
import { VARIANT_NAMES } from './model.js';

/** The bundle's assets, one row each, the CRC32C checked when the row is shown. */
export function assetTable(b: Bundle): Table {
  return listTable({
    id: 'assets',
    title: 'Assets',
    columns: [
      column('name', 'text'),
      column('type', 'text'),
      column('flags', 'text'),
      column('offset', 'number'),
      column('length', 'number'),
      column('crc', 'hex', 'CRC32C'),
      column('check', 'text', 'check', 'whether the stored bytes match their CRC32C'),
    ],
    items: b.directory?.entries ?? [],
    row: async (e, _index, signal): Promise<Row> => {
      const computed = e.checksum === undefined ? undefined : await b.assetCrc(e, signal);
      const bad = computed !== undefined && computed !== e.checksum;
      return {
        cells: [
          e.name,
          ASSET_TYPES[e.assetType] ?? `unknown (${e.assetType})`,
          assetFlags(e.flags),
          e.payloadOffset,
          e.payloadLength,
          e.checksum === undefined ? null : hex(e.checksum, 8),
          e.checksum === undefined ? 'no checksum' : bad ? damagedCell(`CRC32C ${hex(computed, 8)} does not match the stored one`) : 'ok',
        ],
        range: range(e.payloadOffset, e.payloadLength),
        mark: bad ? 'error' : undefined,
      };
    },
  });
}

export function overviewPanel(b: Bundle): Panel {
  return fieldsPanel({ id: 'overview', title: 'Bundle' }, async (_params, signal) => {
    const readable = b.plans ? await b.plans.readable({ signal }) : undefined;
    return [
      { title: 'State', fields: stateFields(b, readable) },
      { title: 'Header', fields: headerFields(b) },
      { title: 'Assets', fields: assetFields(b) },
    ];
  });
}

/** Whether the bundle was finalized, its count trusted, its stream readable, its layout sound. */
function stateFields(b: Bundle, readable: { samples: number; error?: FormatError } | undefined): FieldRow[] {
  const h = b.header;
  const s = b.stream;
  const count = b.trustedCount();
  return [
    {
      name: 'finalized',
      value: h.finalized === 1 ? 'yes' : 'no: a writer stopped before finishing',
      ...H.range('finalized'),
      mark: h.finalized === 1 ? undefined : 'warn',
    },
    {
      name: 'sample count',
      value:
        count !== undefined ? `${count} (from the header, trusted)` : h.finalized === 1 ? `${h.sampleCount} (header not trusted)` : 'unknown (unfinalized)',
      ...H.range('sampleCount'),
      mark: count === undefined ? 'warn' : undefined,
    },
    {
      name: 'stream readable',
      value: readable
        ? readable.error
          ? `${readable.samples} complete samples, then: ${readable.error.message}`
          : `to the end: ${readable.samples} samples`
        : `no: ${b.streamError?.message ?? 'unknown format'}`,
      offset: s.offset,
      length: s.length,
      mark: readable && !readable.error ? undefined : 'error',
    },
    {
      name: 'layout',
      value: b.layout === 'newest' ? 'newest v1 (header CRC32C ok)' : b.layout === 'older' ? 'older v1 layout: no header checksum' : b.tailDetail(),
      ...BENDL_TAIL.span('crc', 'zero', HEADER_BYTES),
      mark: b.layout === 'corrupt' ? 'error' : undefined,
    },
  ];
}

function headerFields(b: Bundle): FieldRow[] {
  const h = b.header;
  const s = b.stream;
  return [
    { name: 'version', value: `${h.major}.${h.minor}`, ...H.span('major', 'minor') },
    {
      name: 'stream',
      value: `${h.assignmentFormat === 2 ? 'XBEN' : 'BEN'} ${b.plans ? VARIANT_NAMES[b.plans.variant] : ''}, ${s.length} bytes at ${s.offset}${s.provisional ? ' (to EOF or the directory: unfinalized)' : ''}`,
      offset: s.offset,
      length: s.length,
    },
    { name: 'stream checksum', value: h.flags & 1 ? `CRC32C ${hex(h.streamChecksum, 8)}` : 'not set (flag clear)', ...H.range('streamChecksum') },
    { name: 'flags', value: `${hex(h.flags)}${h.flags & ~1 ? ' (reserved bits set: ignored)' : ''}`, ...H.range('flags') },
    {
      name: 'directory',
      value: b.directory ? `${b.directory.length} bytes at ${b.directory.offset}` : b.directoryError ? b.directoryError.message : 'none',
      offset: h.directoryOffset || undefined,
      length: h.directoryLength || undefined,
    },
  ];
}

function assetFields(b: Bundle): FieldRow[] {
  return (b.directory?.entries ?? []).map((e) => ({
    name: e.name,
    value: `${ASSET_TYPES[e.assetType] ?? `unknown type ${e.assetType}`}, flags ${assetFlags(e.flags)}, ${e.payloadLength} bytes at ${e.payloadOffset}${e.checksum === undefined ? '' : `, CRC32C ${hex(e.checksum, 8)}`}`,
    offset: e.payloadOffset,
    length: e.payloadLength,
  }));
}

/** A JSON asset pretty-printed (metadata.json, the permutation map); long ones are cut. */
export function assetTextPanel(b: Bundle, id: string, name: string): Panel {
  return {
    id,
    title: name,
    kind: 'text',
    data: async () => {
      const bytes = await b.asset(name);
      if (!bytes)
        return {
          kind: 'text',
          language: 'plain',
          text: b.directory ? `This bundle has no ${name}.` : 'No directory: the assets of an unfinalized bundle are not listed.',
        };
      const raw = new TextDecoder().decode(bytes);
      let text: string;
      try {
        text = JSON.stringify(JSON.parse(raw), null, 2);
      } catch {
        return { kind: 'text', language: 'plain', text: raw.slice(0, 200_000) };
      }
      const limit = 200_000;
      return { kind: 'text', language: 'json', text: text.length > limit ? `${text.slice(0, limit)}\n… (${text.length - limit} more characters)` : text };
    },
  };
}
