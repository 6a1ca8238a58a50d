import { errorNode, fail, failFrom, field, leaf, pass, plural, range, warn } from '../../describe.js';
import { FormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { Check, Field, FormatDocument, OpenContext, Row, StructNode, Table, TaskContext } from '../../model.js';
import {
  type CodecDef,
  type ColumnEntry,
  COMPRESSION_NAMES,
  HEADER_BYTES,
  type IdvHeader,
  KNOWN_CODECS,
  LOOKUP_ENTRY_BYTES,
  blockCount,
  compareVersion,
  versionText,
} from './model.js';
import { readHeader, readLookupTable, readMetadataToc, readToc, tailSignatureOk } from './toc.js';

export async function openIdv(src: ByteSource, _ctx: OpenContext): Promise<FormatDocument> {
  const header = await readHeader(src);
  const tailOk = await tailSignatureOk(src, header);
  let columns: ColumnEntry[] = [];
  let tocError: FormatError | undefined;
  try {
    columns = await readToc(src, header);
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    tocError = e;
  }
  return new IdvDocument(src, header, tailOk, columns, tocError);
}

/** Type names as ML.NET shows them: `Vector<Single, 9374>`, `Key<UInt32, 3>`, `TextSpan`. */
export function typeName(c: CodecDef): string {
  if (c.loadName === 'VBuffer' && c.inner) {
    const dims = c.dims ?? [];
    const size = dims.length === 0 || dims.includes(0) ? '' : `, ${dims.join('×')}`;
    return `Vector<${typeName(c.inner)}${size}>`;
  }
  if (c.loadName === 'Key2' && c.inner) return `Key<${c.inner.loadName}, ${c.keyCount}>`;
  if (c.loadName === 'Key' && c.inner && c.legacyKey) {
    const { min, count } = c.legacyKey;
    // Legacy keys with min > 0 (2018 files) cover min .. min + count − 1.
    return min === 0n ? `Key<${c.inner.loadName}, ${count}>` : `Key<${c.inner.loadName}, ${min}-${min + BigInt(count) - 1n}>`;
  }
  return c.loadName;
}

/** Why a column cannot be read, or undefined: unknown codecs and compressions are "dead" in ML.NET. */
function columnProblem(c: { codec: CodecDef; compression: number }): string | undefined {
  const unknown = (d: CodecDef | undefined): string | undefined =>
    d === undefined ? undefined : !KNOWN_CODECS.has(d.loadName) ? `unknown codec ${JSON.stringify(d.loadName)}` : (d.problem ?? unknown(d.inner));
  return unknown(c.codec) ?? (c.compression > 1 ? `unknown compression ${c.compression}` : undefined);
}

const MIN_VERSION = [1, 1, 1, 2] as const;
const MIN_COMPAT = [1, 1, 1, 4] as const;
const MAX_COMPAT = [1, 1, 1, 6] as const;

class IdvDocument implements FormatDocument {
  readonly format = 'idv' as const;
  readonly title: string;
  readonly summary: readonly Field[];
  readonly warnings: readonly Check[];
  readonly tables: readonly Table[];
  readonly converters = [];

  constructor(
    private readonly src: ByteSource,
    private readonly header: IdvHeader,
    private readonly tailOk: boolean,
    private readonly columns: readonly ColumnEntry[],
    private readonly tocError: FormatError | undefined,
  ) {
    const h = header;
    this.title = `ML.NET binary dataview ${versionText(h.version)}`;
    this.summary = [
      field('version', versionText(h.version), range(8, 8), { display: `${versionText(h.version)}${versionText(h.version) === '1.1.1.5' ? ' (legacy DvTypes era)' : ''}` }),
      field('compatible version', versionText(h.compatibleVersion), range(16, 8)),
      field('rows', h.rowCount, range(40, 8)),
      field('columns', h.columnCount, range(48, 4)),
      field('table of contents', h.tocOffset, range(24, 8)),
      field('tail', h.tailOffset, range(32, 8), { mark: tailOk ? undefined : 'error', note: tailOk ? undefined : 'tail signature missing or wrong' }),
    ];
    this.warnings = [...this.headerChecks().filter((c) => c.status !== 'pass'), ...(tocError ? [failFrom('table of contents', tocError)] : [])];
    this.tables = [this.schemaTable()];
  }

  /** BinaryLoader's header rules (spec §12, items 1–8). */
  private headerChecks(): Check[] {
    const h = this.header;
    const out: Check[] = [];
    if (compareVersion(h.compatibleVersion, h.version) > 0) out.push(fail('version', `compatible version ${versionText(h.compatibleVersion)} is newer than the version ${versionText(h.version)}`, 16, 'compatible version'));
    else if (compareVersion(h.version, MIN_VERSION) < 0) out.push(fail('version', `version ${versionText(h.version)} is older than 1.1.1.2 (corrupt or unknown)`, 8, 'version'));
    else if (compareVersion(h.compatibleVersion, MIN_COMPAT) < 0 || compareVersion(h.compatibleVersion, MAX_COMPAT) > 0) {
      out.push(fail('version', `compatible version ${versionText(h.compatibleVersion)} is outside 1.1.1.4 – 1.1.1.6 (unsupported)`, 16, 'compatible version'));
    } else out.push(pass('version', `version ${versionText(h.version)}, compatible ${versionText(h.compatibleVersion)}`, 8));
    if (h.rowCount < 0) out.push(fail('row count', `negative row count ${h.rowCount}`, 40, 'row count'));
    if (h.columnCount < 0) out.push(fail('column count', `negative column count ${h.columnCount}`, 48, 'column count'));
    if (h.columnCount > 0 && h.tocOffset < HEADER_BYTES) out.push(fail('table of contents', `offset ${h.tocOffset} is inside the header`, 24, 'table of contents offset'));
    out.push(this.tailOk ? pass('tail signature', `at ${h.tailOffset}`, h.tailOffset) : fail('tail signature', `missing or wrong at ${h.tailOffset}`, h.tailOffset, 'tail offset'));
    if (this.tailOk && this.src.size > h.tailOffset + 8) out.push(warn('file length', `${this.src.size - h.tailOffset - 8} bytes after the tail signature`, h.tailOffset + 8));
    return out;
  }

  private schemaTable(): Table {
    const columns = this.columns;
    return {
      id: 'columns',
      title: 'Columns',
      columns: [
        { key: 'index', title: '#', type: 'number' },
        { key: 'name', title: 'name', type: 'text' },
        { key: 'type', title: 'type', type: 'text' },
        { key: 'codec', title: 'codec', type: 'text' },
        { key: 'compression', title: 'compression', type: 'text' },
        { key: 'rpb', title: 'rows per block', type: 'number' },
        { key: 'blocks', title: 'blocks', type: 'number' },
        { key: 'hidden', title: 'hidden', type: 'text' },
      ],
      rowCount: () => ({ known: columns.length, complete: true }),
      page: (from, count) =>
        Promise.resolve(
          columns.slice(from, from + count).map((c): Row => {
            const problem = columnProblem(c);
            return {
              cells: [
                c.index,
                c.name,
                typeName(c.codec),
                c.codec.loadName,
                COMPRESSION_NAMES[c.compression] ?? `unknown (${c.compression})`,
                c.rowsPerBlock,
                blockCount(this.header.rowCount, c.rowsPerBlock),
                this.isShadowed(c) ? 'hidden (shadowed)' : problem ? `unreadable: ${problem}` : '',
              ],
              range: range(c.offset, c.length),
              mark: problem ? 'warn' : undefined,
            };
          }),
        ),
    };
  }

  /** ML.NET shows the last column of a name; earlier ones are hidden (spec §11). */
  private isShadowed(c: ColumnEntry): boolean {
    return this.columns.some((o) => o.index > c.index && o.name === c.name);
  }

  structure(): StructNode {
    const h = this.header;
    const headerNode: StructNode = {
      label: 'header',
      range: range(0, HEADER_BYTES),
      children: [
        leaf('signature', 'CML\\0DVB\\0', range(0, 8)),
        leaf('version', versionText(h.version), range(8, 8)),
        leaf('compatible version', versionText(h.compatibleVersion), range(16, 8)),
        leaf('table of contents offset', h.tocOffset, range(24, 8)),
        leaf('tail offset', h.tailOffset, range(32, 8)),
        leaf('row count', h.rowCount, range(40, 8)),
        leaf('column count', h.columnCount, range(48, 4)),
        leaf('unused', '204 bytes', range(52, 204)),
      ],
    };
    const children: StructNode[] = [headerNode];
    if (this.columns.length > 0) {
      const first = this.columns[0]!;
      const last = this.columns[this.columns.length - 1]!;
      children.push({
        label: 'table of contents',
        value: plural(this.columns.length, 'column'),
        range: range(first.offset, last.offset + last.length - first.offset),
        children: this.columns.map((c) => this.columnNode(c)),
      });
    }
    if (this.tocError) children.push(errorNode(this.tocError, 'table of contents'));
    children.push(leaf('tail signature', this.tailOk ? 'ok' : 'missing or wrong', range(h.tailOffset, 8), this.tailOk ? {} : { mark: 'error' }));
    return { label: this.title, range: range(0, this.src.size), children };
  }

  private columnNode(c: ColumnEntry): StructNode {
    const h = this.header;
    const problem = columnProblem(c);
    const nBlocks = blockCount(h.rowCount, c.rowsPerBlock);
    const children: StructNode[] = [
      leaf('name', JSON.stringify(c.name)),
      this.codecNode(c.codec, 'codec'),
      leaf('compression', `${c.compression} (${COMPRESSION_NAMES[c.compression] ?? 'unknown'})`),
      leaf('rows per block', c.rowsPerBlock),
      {
        label: 'lookup table',
        value: plural(nBlocks, 'block'),
        range: range(c.lookupOffset, nBlocks * LOOKUP_ENTRY_BYTES),
        children: {
          lazy: true,
          count: () => nBlocks,
          load: async (from, count) =>
            (await readLookupTable(this.src, h, c, from, count)).map((b, i) =>
              leaf(`block ${from + i}`, `${b.storedLength} bytes stored → ${b.decompressedLength} bytes`, range(b.offset, Math.max(0, b.storedLength))),
            ),
        },
      },
    ];
    if (c.metadataTocOffset !== 0) {
      children.push({
        label: 'metadata',
        range: range(c.metadataTocOffset, 0),
        children: {
          lazy: true,
          count: () => undefined,
          load: async (from) =>
            from > 0
              ? []
              : (await readMetadataToc(this.src, c, h.tailOffset)).map(
                  (m): StructNode => ({
                    label: m.kind,
                    value: `${typeName(m.codec)}, ${COMPRESSION_NAMES[m.compression] ?? `compression ${m.compression}`}, ${m.blockSize} bytes`,
                    range: range(m.blockOffset, m.blockSize),
                  }),
                ),
        },
      });
    }
    const hidden = this.isShadowed(c) ? 'hidden (shadowed), ' : '';
    return {
      label: `column ${c.index}: ${c.name}`,
      value: `${hidden}${typeName(c.codec)}`,
      range: range(c.offset, c.length),
      mark: problem ? 'warn' : undefined,
      note: problem ? `unreadable: ${problem}` : undefined,
      children,
    };
  }

  private codecNode(c: CodecDef, label: string): StructNode {
    const children: StructNode[] = [leaf('load name', c.loadName), leaf('parameters', `${c.paramLength} bytes`, range(c.paramOffset, c.paramLength))];
    if (c.inner) children.push(this.codecNode(c.inner, 'inner codec'));
    if (c.keyCount !== undefined) children.push(leaf('key count', c.keyCount));
    if (c.legacyKey) children.push(leaf('contiguous', c.legacyKey.contiguous), leaf('min', c.legacyKey.min), leaf('count', c.legacyKey.count));
    if (c.dims) children.push(leaf('dimensions', c.dims.length ? c.dims.join(' × ') : 'variable'));
    return { label, value: typeName(c), range: range(c.offset, c.length), mark: c.problem ? 'warn' : undefined, note: c.problem, children };
  }

  /** Structural checks BinaryLoader makes on opening (spec §12); block contents are not decoded here. */
  async *verify(_ctx: TaskContext): AsyncIterable<Check> {
    yield* this.headerChecks();
    if (this.tocError) {
      yield failFrom('table of contents', this.tocError);
      return;
    }
    const h = this.header;
    const rpb = new Set(this.columns.map((c) => c.rowsPerBlock));
    if (rpb.size > 1) yield fail('rows per block', `columns use different rows per block (${[...rpb].join(', ')}): ML.NET does not support it`, this.columns[0]?.offset);
    let bad = false;
    for (const c of this.columns) {
      const what = `column ${c.index} (${c.name})`;
      const problem = columnProblem(c);
      if (problem) yield warn(what, `unreadable (ML.NET skips it): ${problem}`, c.codec.offset);
      if (c.rowsPerBlock <= 0 && h.rowCount > 0) (bad = true), yield fail(what, `rows per block ${c.rowsPerBlock}`, c.offset, 'rows per block');
      const nBlocks = blockCount(h.rowCount, c.rowsPerBlock);
      if (h.rowCount > 0 && (c.lookupOffset < HEADER_BYTES || c.lookupOffset > h.tailOffset - LOOKUP_ENTRY_BYTES * nBlocks)) {
        bad = true;
        yield fail(what, `lookup table at ${c.lookupOffset} (${nBlocks} blocks) is outside [256, tail]`, c.offset + c.length - 16, 'lookup table offset');
        continue;
      }
      if (c.metadataTocOffset !== 0 && (c.metadataTocOffset < HEADER_BYTES || c.metadataTocOffset > h.tailOffset)) {
        bad = true;
        yield fail(what, `metadata offset ${c.metadataTocOffset} is outside [256, tail]`, c.offset + c.length - 8, 'metadata offset');
      }
      try {
        const blocks = await readLookupTable(this.src, h, c);
        for (const [i, b] of blocks.entries()) {
          if (b.storedLength < 0 || b.decompressedLength < 0 || b.offset < HEADER_BYTES || b.offset > h.tailOffset - b.storedLength) {
            bad = true;
            yield fail(what, `block ${i}: ${b.storedLength} bytes at ${b.offset} are outside [256, tail] or negative`, c.lookupOffset + LOOKUP_ENTRY_BYTES * i, 'lookup entry');
          }
        }
        if (c.metadataTocOffset !== 0) {
          for (const m of await readMetadataToc(this.src, c, h.tailOffset)) {
            if (m.blockSize <= 0 || m.blockOffset < HEADER_BYTES || m.blockOffset + m.blockSize > h.tailOffset) {
              bad = true;
              yield fail(what, `metadata ${m.kind}: ${m.blockSize} bytes at ${m.blockOffset} are outside [256, tail]`, m.offset, 'metadata block');
            }
          }
        }
      } catch (e) {
        bad = true;
        yield failFrom(what, e);
      }
    }
    if (!bad) yield pass('columns', `${plural(this.columns.length, 'column')}: lookup tables, blocks and metadata lie inside the file`);
  }

  info(): Record<string, unknown> {
    const h = this.header;
    return {
      version: versionText(h.version),
      compatibleVersion: versionText(h.compatibleVersion),
      rowCount: h.rowCount,
      columnCount: h.columnCount,
      columns: this.columns.map((c) => ({
        name: c.name,
        type: typeName(c.codec),
        codec: c.codec.loadName,
        compression: COMPRESSION_NAMES[c.compression] ?? c.compression,
        rowsPerBlock: c.rowsPerBlock,
        hidden: this.isShadowed(c),
        readable: columnProblem(c) === undefined,
      })),
    };
  }
}
