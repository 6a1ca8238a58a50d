import { failFrom, field, range } from '../../describe.js';
import { FormatError, rethrowUnlessFormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { Check, Field, FormatDocument, OpenContext, OptionSpec, Panel, Row, Table } from '../../model.js';
import { fieldsPanel } from '../../panelSpec.js';
import { column, listTable } from '../../tableSpec.js';
import type { IdvColumn } from './blocks.js';
import { typeText } from './columnType.js';
import { idvCoverage } from './coverage.js';
import { IdvDiff } from './diff.js';
import { isDamage } from './damage.js';
import { catSpec, converters } from './export.js';
import { IdvFile } from './file.js';
import { itemText, jsonOf } from './format.js';
import { COMPRESSION_NAMES, type ColumnEntry, IDV_HEADER, versionText } from './model.js';
import { rowsTable } from './rowsTable.js';
import { statsPanels } from './stats.js';
import { codecText, idvStructure } from './structure.js';
import { readHeader, readToc, tailSignatureOk } from './toc.js';
import type { VectorValue } from './values.js';
import { headerChecks, verifyIdv } from './verify.js';

/** Opening reads the header, the tail signature and the table of contents: nothing else. */
export async function openIdv(src: ByteSource, _ctx: OpenContext): Promise<FormatDocument> {
  const header = await readHeader(src);
  const tailOk = await tailSignatureOk(src, header);
  let columns: ColumnEntry[] = [];
  let tocError: FormatError | undefined;
  try {
    columns = await readToc(src, header);
  } catch (e) {
    rethrowUnlessFormatError(e);
    tocError = e;
  }
  return idvDocument(new IdvFile(src, header, columns), tailOk, tocError);
}

/** Metadata values listed in the metadata panel, per entry. */
const METADATA_PANEL_ITEMS = 2000;

/** An IDV's views and read paths, over what opening found (IdvFile): nothing decoded until asked. */
function idvDocument(file: IdvFile, tailOk: boolean, tocError: FormatError | undefined): FormatDocument {
  const title = `ML.NET binary dataview ${versionText(file.header.version)}`;
  const doc: FormatDocument = {
    format: 'idv',
    title,
    summary: summaryFields(file, tailOk),
    warnings: openWarnings(file, tailOk, tocError),
    tables: [rowsTable(file), schemaTable(file)],
    panels: [...statsPanels(file), metadataPanel(file)].filter((p): p is Panel => p !== undefined),
    converters: converters(file, tocError),
    cat: catSpec(file, tocError),
    /** The decoded blocks (up to 96 MiB): what an IDV document holds that the memory budget can take back. */
    memory: { bytes: () => file.blocks.cacheBytes, drop: () => file.blocks.dropCache() },
    structure: () => idvStructure(file, title, tailOk, tocError),
    coverage: async () => idvCoverage(file),
    verify: (ctx) => verifyIdv(file, tailOk, tocError, ctx),
    info: () => idvInfo(file),
  };
  // The diff reads the rows through the document's `cat`.
  return Object.assign(doc, { diff: new IdvDiff(doc, file.columns) });
}

function summaryFields(file: IdvFile, tailOk: boolean): Field[] {
  const h = file.header;
  const dead = file.columns.filter((c) => c.type.kind === 'dead').length;
  const hidden = file.columns.filter((c) => c.shadowed).length;
  return [
    field('version', versionText(h.version), IDV_HEADER.range('version'), {
      display: `${versionText(h.version)}${file.legacy ? ' (legacy DvTypes era: NA sentinels)' : ''}`,
    }),
    field('compatible version', versionText(h.compatibleVersion), IDV_HEADER.range('compatibleVersion')),
    field('rows', h.rowCount, IDV_HEADER.range('rowCount')),
    field('columns', h.columnCount, IDV_HEADER.range('columnCount'), {
      display: `${h.columnCount}${hidden ? `, ${hidden} hidden` : ''}${dead ? `, ${dead} unreadable` : ''}`,
    }),
    field('rows per block', file.columns[0]?.entry.rowsPerBlock ?? 0),
    field('table of contents', h.tocOffset, IDV_HEADER.range('tocOffset')),
    field('tail', h.tailOffset, IDV_HEADER.range('tailOffset'), {
      mark: tailOk ? undefined : 'error',
      note: tailOk ? undefined : 'tail signature missing or wrong',
    }),
  ];
}

function openWarnings(file: IdvFile, tailOk: boolean, tocError: FormatError | undefined): Check[] {
  return [
    ...headerChecks(file.header, file.src, tailOk).filter((c) => c.status !== 'pass'),
    ...(tocError ? [failFrom('table of contents', tocError)] : []),
    ...file.columns.flatMap((c): Check[] =>
      c.type.kind === 'dead'
        ? [
            {
              name: `column ${c.entry.index} (${c.entry.name})`,
              status: c.type.rejected ? 'fail' : 'warn',
              detail: `unreadable${c.type.rejected ? ', and ML.NET refuses the file' : ', ML.NET skips it'}: ${c.type.reason}`,
              offset: c.entry.codec.offset,
            },
          ]
        : [],
    ),
  ];
}

function schemaTable(file: IdvFile): Table {
  return listTable({
    id: 'schema',
    title: 'Schema',
    columns: [
      column('index', 'number', '#'),
      column('name', 'text'),
      column('type', 'text'),
      column('hidden', 'text', 'hidden', 'An earlier column with the name of a later one: ML.NET hides it'),
      column('codec', 'text'),
      column('compression', 'text'),
      column('rpb', 'number', 'rows per block'),
      column('blocks', 'number'),
      column('metadata', 'text'),
      column('status', 'text'),
    ],
    items: file.columns,
    row: async (c): Promise<Row> => {
      const e = c.entry;
      const meta = await file.columnMetadata(e.index);
      const status = c.type.kind === 'dead' ? `unreadable: ${c.type.reason}` : c.notes.join('; ');
      return {
        cells: [
          e.index,
          e.name,
          typeText(c.type, e.codec),
          c.shadowed ? 'hidden (shadowed)' : '',
          codecChain(e.codec),
          COMPRESSION_NAMES[e.compression] ?? `unknown (${e.compression})`,
          e.rowsPerBlock,
          file.blocks.blocks(e),
          meta.error ? { text: 'unreadable', title: meta.error.message, mark: 'error' } : meta.items.map((m) => m.entry.kind).join(', '),
          status ? { text: status, mark: 'warn' } : '',
        ],
        range: range(e.offset, e.length),
        mark: status ? 'warn' : undefined,
      };
    },
  });
}

/** Decoded metadata of one column: SlotNames, KeyValues, IsNormalized, and any other kind shown raw. */
function metadataPanel(file: IdvFile): Panel | undefined {
  const withMeta = file.columns.filter((c) => c.entry.metadataTocOffset !== 0 || c.entry.slotNames);
  if (withMeta.length === 0) return undefined;
  const params: OptionSpec[] = [
    {
      key: 'column',
      label: 'Column',
      type: 'choice',
      default: String(withMeta[0]!.entry.index),
      choices: withMeta.map((c) => ({ value: String(c.entry.index), label: c.entry.name })),
    },
  ];
  return fieldsPanel({ id: 'metadata', title: 'Metadata', params }, async (values) => {
    const col: IdvColumn = withMeta.find((c) => String(c.entry.index) === String(values.column)) ?? withMeta[0]!;
    const meta = await file.columnMetadata(col.entry.index);
    if (meta.error) return [{ title: col.entry.name, fields: [{ name: 'metadata', value: meta.error.message, mark: 'error' }] }];
    return meta.items.map((m) => {
      const e = m.entry;
      const head = [
        { name: 'type', value: codecText(e.codec) },
        {
          name: 'stored',
          value: `${e.blockSize} bytes, ${COMPRESSION_NAMES[e.compression] ?? `compression ${e.compression}`}`,
          offset: e.blockOffset,
          length: e.blockSize,
        },
      ];
      if (m.error)
        return {
          title: e.kind,
          fields: [...head, { name: 'value', value: m.error.message, mark: isDamage(m.error) ? ('error' as const) : ('warn' as const) }],
        };
      const t = m.type!;
      if (t.kind !== 'vector') return { title: e.kind, fields: [...head, { name: 'value', value: jsonOf(m.value ?? null, t) }] };
      const v = m.value as VectorValue;
      const items = v.values
        .slice(0, METADATA_PANEL_ITEMS)
        .map((x, k) => ({ name: String(v.indices ? v.indices[k] : k), value: x === null ? 'NA' : itemText(x, t.item) }));
      const more =
        v.values.length > METADATA_PANEL_ITEMS
          ? [{ name: '…', value: `${v.values.length - METADATA_PANEL_ITEMS} more (the structure tree lists them all)` }]
          : [];
      return { title: `${e.kind} (${v.length} slots${v.indices ? `, ${v.values.length} stored` : ''})`, fields: [...head, ...items, ...more] };
    });
  });
}

function idvInfo(file: IdvFile): Record<string, unknown> {
  const h = file.header;
  return {
    version: versionText(h.version),
    compatibleVersion: versionText(h.compatibleVersion),
    rowCount: h.rowCount,
    columnCount: h.columnCount,
    columns: file.columns.map((c) => ({
      name: c.entry.name,
      type: typeText(c.type, c.entry.codec),
      codec: c.entry.codec.loadName,
      compression: COMPRESSION_NAMES[c.entry.compression] ?? c.entry.compression,
      rowsPerBlock: c.entry.rowsPerBlock,
      hidden: c.shadowed,
      readable: c.type.kind !== 'dead',
      ...(c.type.kind === 'dead' ? { problem: c.type.reason } : {}),
    })),
  };
}

/** `VBuffer(Key2(UInt32))`: the load names a column's codec nests. */
function codecChain(def: ColumnEntry['codec']): string {
  return def.inner ? `${def.loadName}(${codecChain(def.inner)})` : def.loadName;
}
