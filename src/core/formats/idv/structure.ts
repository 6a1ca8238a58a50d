/**
 * The structure tree of a dataview: header, table of contents with each column's codec,
 * lookup table (lazy, one node per block) and metadata with decoded values, tail signature.
 */
import { checkedNode, errorNode, layoutLeaves, leaf, plural, range } from '../../describe.js';
import type { FormatError } from '../../errors.js';
import type { StructNode } from '../../model.js';
import type { IdvColumn } from './blocks.js';
import { isDamage } from './damage.js';
import { resolveType, typeText } from './columnType.js';
import type { IdvFile, MetadataItem } from './file.js';
import { itemText, jsonOf } from './format.js';
import { type CodecDef, COMPRESSION_NAMES, HEADER_BYTES, IDV_HEADER, LOOKUP_ENTRY_BYTES, versionText } from './model.js';
import { readLookupTable } from './toc.js';
import type { VectorValue } from './values.js';

const LIST_PAGE = 1000;

export function codecText(def: CodecDef): string {
  return typeText(resolveType(def), def);
}

export function idvStructure(file: IdvFile, title: string, tailOk: boolean, tocError: FormatError | undefined): StructNode {
  const h = file.header;
  const headerNode: StructNode = {
    label: 'header',
    range: range(0, HEADER_BYTES),
    children: layoutLeaves(IDV_HEADER, 0, {
      ...h,
      signature: 'CML\\0DVB\\0',
      version: versionText(h.version),
      compatibleVersion: versionText(h.compatibleVersion),
      unused: `${IDV_HEADER.range('unused').length} bytes`,
    }),
  };
  const children: StructNode[] = [headerNode];
  const cols = file.columns;
  if (cols.length > 0) {
    const first = cols[0]!.entry;
    const last = cols[cols.length - 1]!.entry;
    children.push({
      label: 'table of contents',
      value: plural(cols.length, 'column'),
      range: range(first.offset, last.offset + last.length - first.offset),
      children: cols.map((c) => columnNode(file, c)),
    });
  }
  if (tocError) children.push(errorNode(tocError, 'table of contents'));
  children.push(leaf('tail signature', tailOk ? 'ok' : 'missing or wrong', range(h.tailOffset, 8), tailOk ? {} : { mark: 'error' }));
  // The root says it once a read has met a damaged block: the engine's fresh top rows carry it to the viewer.
  return checkedNode({ label: title, range: range(0, file.src.size), children }, () => damageNote(file));
}

/**
 * The damaged blocks reads have met so far (of one column, else of all) as a node's note. IDV
 * blocks carry no checksum: a block is damaged when it fails to decode (damage.ts), and only a
 * read that decodes it (a table page, cat, verify) can find that, so the notes are read when shown.
 */
function damageNote(file: IdvFile, column?: number): string | undefined {
  const found = file.blocks.damaged(column);
  const first = found[0];
  if (!first) return undefined;
  const where = `block ${first.block} of column ${first.column} (${file.columns[first.column]!.entry.name})`;
  return found.length === 1 ? `${where} is damaged: ${first.error.message}` : `${found.length} damaged blocks, the first ${where}: ${first.error.message}`;
}

function columnNode(file: IdvFile, col: IdvColumn): StructNode {
  const c = col.entry;
  const nBlocks = file.blocks.blocks(c);
  const damage = () => damageNote(file, c.index);
  const lookup: StructNode = {
    label: 'lookup table',
    value: plural(nBlocks, 'block'),
    range: range(c.lookupOffset, nBlocks * LOOKUP_ENTRY_BYTES),
    children: {
      lazy: true,
      count: () => nBlocks,
      // A damaged table throws (LazyChildren.load): returning an error node per page made the
      // dump ask for the next page of 2^32 blocks for ever (test/corpus/idv).
      load: async (from, count) =>
        (await readLookupTable(file.src, file.header, c, from, count)).map((b, i) => {
          const first = (from + i) * c.rowsPerBlock;
          const error = file.blocks.damageOf(c.index, from + i);
          const value = `${b.storedLength} bytes stored → ${b.decompressedLength} bytes, rows ${first} – ${first + file.blocks.rowsIn(c, from + i) - 1}`;
          return leaf(`block ${from + i}`, value, range(b.offset, Math.max(0, b.storedLength)), error ? { mark: 'error', note: error.message } : {});
        }),
    },
  };
  const children: StructNode[] = [
    leaf('name', JSON.stringify(c.name)),
    codecNode(c.codec, 'codec'),
    leaf('compression', `${c.compression} (${COMPRESSION_NAMES[c.compression] ?? 'unknown'})`),
    leaf('rows per block', c.rowsPerBlock),
    checkedNode(lookup, damage),
  ];
  if (c.metadataTocOffset !== 0 || c.slotNames) {
    children.push({
      label: c.slotNames ? 'slot names (1.1.1.3)' : 'metadata',
      range: range(c.slotNames?.offset ?? c.metadataTocOffset, c.slotNames?.byteSize ?? 0),
      children: {
        lazy: true,
        count: () => undefined,
        load: async (from) => {
          if (from > 0) return [];
          const meta = await file.columnMetadata(c.index);
          if (meta.error) return [errorNode(meta.error, 'metadata')];
          return meta.items.map((m) => metadataNode(m));
        },
      },
    });
  }
  const status = col.type.kind === 'dead' ? `unreadable: ${col.type.reason}` : col.notes.join('; ') || undefined;
  return checkedNode(
    {
      label: `column ${c.index}: ${c.name}`,
      value: `${col.shadowed ? 'hidden (shadowed), ' : ''}${typeText(col.type, c.codec)}`,
      range: range(c.offset, c.length),
      mark: status ? 'warn' : undefined,
      note: status,
      children,
    },
    damage,
  );
}

function metadataNode(m: MetadataItem): StructNode {
  const e = m.entry;
  const what = `${codecText(e.codec)}, ${COMPRESSION_NAMES[e.compression] ?? `compression ${e.compression}`}, ${e.blockSize} bytes`;
  // Damaged, not merely unreadable by this reader (an unknown codec is skipped by ML.NET too).
  if (m.error)
    return { label: e.kind, value: what, range: range(e.blockOffset, e.blockSize), mark: isDamage(m.error) ? 'error' : 'warn', note: m.error.message };
  const t = m.type!;
  if (t.kind === 'vector' && m.value !== null && m.value !== undefined) {
    const v = m.value as VectorValue;
    const stored = v.values.length;
    return {
      label: e.kind,
      value: `${what}: ${plural(v.length, 'slot')}`,
      range: range(e.blockOffset, e.blockSize),
      children: {
        lazy: true,
        count: () => stored,
        load: async (from, count) =>
          v.values
            .slice(from, from + Math.min(count, LIST_PAGE))
            .map((x, k) => leaf(`${v.indices ? v.indices[from + k] : from + k}`, x === null ? 'NA' : JSON.stringify(itemText(x, t.item)))),
      },
    };
  }
  return {
    label: e.kind,
    value: `${what}: ${m.value === undefined ? '' : t.kind === 'vector' ? '' : jsonOf(m.value, t)}`,
    range: range(e.blockOffset, e.blockSize),
  };
}

function codecNode(c: CodecDef, label: string): StructNode {
  const children: StructNode[] = [leaf('load name', c.loadName), leaf('parameters', `${c.paramLength} bytes`, range(c.paramOffset, c.paramLength))];
  if (c.inner) children.push(codecNode(c.inner, 'inner codec'));
  if (c.keyCount !== undefined) children.push(leaf('key count', c.keyCount));
  if (c.legacyKey) children.push(leaf('contiguous', c.legacyKey.contiguous), leaf('min', c.legacyKey.min), leaf('count', c.legacyKey.count));
  if (c.dims) children.push(leaf('dimensions', c.dims.length ? c.dims.join(' × ') : 'variable'));
  return { label, value: codecText(c), range: range(c.offset, c.length), mark: c.problem ? 'warn' : undefined, note: c.problem, children };
}
