import { checkedNode, field, fail, hex, info, layoutLeaves, leaf, pass, range, warn } from '../../describe.js';
import { FormatError, rethrowUnlessFormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { damageFrom, reportDamage } from '../../integrity.js';
import { fieldsPanel } from '../../panelSpec.js';
import type { ByteRange, CatSpec, Check, Field, FormatDocument, OpenContext, Panel, StructNode, TaskContext } from '../../model.js';
import { automatonView, MAX_DRAWN_STATES } from './automatonView.js';
import { fstConverters } from './convert.js';
import { FstChecksum } from './checksum.js';
import { FstDiff } from './diff.js';
import { CheckedKeysTable } from './checkedTable.js';
import { crcFailure, labelDamaged } from './damagedView.js';
import { CHECKSUM_BYTES, FOOTER_BYTES, FST_FOOTER, FST_HEADER, HEADER_BYTES, NODES_START, type FstLayout, readLayout, rootProblem } from './header.js';
import { nodeFields, nodeSummaryField, nodeTree, writeDot } from './inspect.js';
import { KeysTable } from './keysTable.js';
import { type FstNode, KIND_NAMES } from './node.js';
import { FstReader } from './reader.js';
import { fstSearches } from './searches.js';
import { writeKeysAsText } from './textOut.js';
import { deepVerify, type WalkResult } from './verify.js';

export async function openFst(src: ByteSource, _ctx: OpenContext): Promise<FormatDocument> {
  const layout = await readLayout(src);
  let reader: FstReader | undefined;
  let root: FstNode | FormatError | undefined;
  if (rootProblem(layout)?.severity !== 'error') {
    reader = new FstReader(src, layout);
    try {
      root = await reader.node(reader.root);
    } catch (e) {
      rethrowUnlessFormatError(e);
      root = e;
    }
  }
  const kind = reader && !(root instanceof FormatError) ? await detectKind(reader) : 'unknown';
  return fstDocument(src, layout, reader, root, kind);
}

const PRODUCERS: Record<string, string> = {
  '1': 'fst 0.1–0.2 or vellum',
  '2': 'fst 0.3',
  '3': 'fst 0.4',
};

/** How much node data `detectKind` reads at most. */
const KIND_PROBE_BYTES = 64 * 1024;

type Kind = 'map' | 'set' | 'set?' | 'unknown';

/**
 * Map or set, from the bytes: a set stores no outputs. Nodes are contiguous, so walking from
 * the root's first byte downwards visits stored nodes one after another; builders push
 * outputs towards the root, so a map shows outputs within the first few nodes. A set is only
 * certain when the whole node data was read, so large files without outputs near the root say
 * `set?` until deep verify has walked everything.
 */
async function detectKind(reader: FstReader): Promise<Kind> {
  try {
    let addr = reader.root;
    while (addr >= NODES_START) {
      const node = await reader.node(addr);
      if (node.osize > 0) return 'map';
      if (reader.root - node.start > KIND_PROBE_BYTES) return 'set?';
      addr = node.start - 1;
    }
    return 'set';
  } catch (e) {
    rethrowUnlessFormatError(e);
    return 'unknown';
  }
}

/**
 * The checksum leaf, marked once some read path has run the CRC: it needs a pass over the whole
 * file, so it is not known when the tree is built.
 */
function checksumNode(checksum: FstChecksum, stored: number, at: ByteRange): StructNode {
  return checkedNode(leaf('checksum (masked CRC-32C)', hex(stored, 8), at), () => {
    const r = checksum.result;
    return r?.ok === false ? `CRC-32C fails: stored ${hex(r.stored, 8)}, computed ${hex(r.computed, 8)}` : undefined;
  });
}

const KIND_TEXT: Record<Kind, string> = {
  map: 'map',
  set: 'set (no values stored; a map whose values are all 0 has the same bytes)',
  'set?': 'set? (no values stored near the root; verify walks it all)',
  unknown: 'unknown (the root node is damaged)',
};

/** An FST's views and read paths; `kind` firms up once verify has walked every key. */
function fstDocument(src: ByteSource, layout: FstLayout, reader: FstReader | undefined, root: FstNode | FormatError | undefined, kind: Kind): FormatDocument {
  /** The v3 CRC, computed once on first use and shared by verify, cat, converters, table and searches. */
  const checksum = new FstChecksum(src, layout);
  const readable = reader !== undefined && !(root instanceof FormatError) ? reader : undefined;
  const keys = readable ? new KeysTable(readable) : undefined;
  return {
    format: 'fst',
    title: `FST format version ${layout.header.version}`,
    summary: summaryFields(layout, root, kind),
    warnings: openWarnings(layout, root),
    tables: keys ? [new CheckedKeysTable(keys, checksum)] : [],
    searches: readable ? fstSearches(readable, checksum) : [],
    panels: readable ? fstPanels(readable, checksum) : [],
    converters: readable ? fstConverters(readable, async () => kind === 'set', checksum) : [],
    cat: readable ? keysCat(readable, checksum, () => kind) : root instanceof FormatError ? rootlessCat(root, checksum) : undefined,
    diff: readable && new FstDiff(readable, checksum),
    /** The keys table's checkpoints: a second open pages anywhere without walking again. */
    savedIndex: keys,
    /** The node windows: what the memory budget can take back. */
    memory: reader && { bytes: () => reader.cacheBytes(), drop: () => reader.dropWindows() },
    structure: () => fstStructure(layout, reader, root, checksum),
    verify: (ctx) =>
      verifyFst(layout, reader, root, checksum, ctx, (r) => {
        keys?.setWalkedCount(r.keys);
        if (kind !== 'map') kind = r.valueBearing ? 'map' : 'set';
      }),
    coverage: async () => checksum.coverage(),
    info: () => fstInfo(layout, root, kind),
  };
}

function openWarnings(layout: FstLayout, root: FstNode | FormatError | undefined): Check[] {
  const rootIssue = rootProblem(layout);
  const warnings: Check[] = rootIssue
    ? [
        {
          name: 'root address',
          status: rootIssue.severity === 'error' ? 'fail' : 'warn',
          detail: rootIssue.detail,
          ...FST_FOOTER.at('rootAddress', layout.footer.offset),
        },
      ]
    : [];
  if (root instanceof FormatError) warnings.push({ name: 'root node', status: 'fail', detail: root.detail, offset: root.offset, field: root.field });
  return warnings;
}

function summaryFields(layout: FstLayout, root: FstNode | FormatError | undefined, kind: Kind): Field[] {
  const { header, footer } = layout;
  const rootIssue = rootProblem(layout);
  return [
    field('format version', header.version, FST_HEADER.range('version'), { display: `${header.version} (${PRODUCERS[String(header.version)]})` }),
    field('fst type', header.fstType, FST_HEADER.range('fstType'), { note: header.fstType === 0n ? undefined : 'non-zero user tag' }),
    field('kind', kind, undefined, { display: KIND_TEXT[kind] }),
    field('keys (footer)', footer.keyCount, FST_FOOTER.range('keyCount', footer.offset), {
      note: header.version === 1n ? 'vellum counts repeated keys: verify walks the keys to check' : undefined,
    }),
    field('root address', footer.rootAddress, FST_FOOTER.range('rootAddress', footer.offset), {
      display: footer.rootAddress === 0n ? '0 (EMPTY: only the empty key)' : `${footer.rootAddress} (${hex(footer.rootAddress)})`,
      mark: rootIssue?.severity,
      note: rootIssue?.detail,
    }),
    ...(root !== undefined && !(root instanceof FormatError) ? [nodeSummaryField('root node', root)] : []),
    field('node bytes', footer.offset - NODES_START, range(NODES_START, footer.offset - NODES_START)),
    field('checksum', layout.storedChecksum ?? null, checksumRange(layout), {
      display:
        layout.storedChecksum === undefined
          ? 'none in this format version (unverifiable)'
          : `masked CRC-32C ${hex(layout.storedChecksum, 8)} (checked before any key is shown or written)`,
    }),
  ];
}

/** The keys as text, once the CRC over the whole file passed: a strict cat writes no key of a damaged file. */
function keysCat(reader: FstReader, checksum: FstChecksum, kind: () => Kind): CatSpec {
  return {
    formats: ['tsv', 'jsonl'],
    run: async (format, r, out, ctx) => {
      await checksum.require(ctx);
      await writeKeysAsText(reader, format as 'tsv' | 'jsonl', { from: r.from, count: r.count, values: format === 'tsv' || kind() !== 'set' }, out, ctx);
    },
  };
}

/**
 * The file opened but its root node does not decode: every key lies below it. cat says so,
 * located (exit 1, as damage), rather than as a format it cannot decode; a salvage has no key.
 */
function rootlessCat(root: FormatError, checksum: FstChecksum): CatSpec {
  return {
    formats: ['tsv', 'jsonl'],
    run: async (_format, _r, _out, ctx) => {
      await checksum.require(ctx);
      reportDamage(ctx, damageFrom('root node (every key is below it)', root, { rows: { from: 0 } }));
    },
  };
}

function fstPanels(reader: FstReader, checksum: FstChecksum): Panel[] {
  // No panel leaves before the CRC is known; a failed one labels what the panel shows.
  const checked = (panel: Panel): Panel => ({
    ...panel,
    data: async (params, signal) => labelDamaged(await panel.data(params, signal), crcFailure(await checksum.check({ signal }))),
  });
  const panels: Panel[] = [
    {
      id: 'automaton',
      title: 'Automaton',
      kind: 'automaton',
      params: [
        {
          key: 'key',
          label: 'Key path',
          type: 'string',
          default: '',
          description: `highlight (or, above ${MAX_DRAWN_STATES} states, draw) the path of this key; \\xHH for other bytes`,
        },
        { key: 'state', label: 'State', type: 'string', default: '', description: 'address of the state to inspect (click one)' },
      ],
      data: (params, signal) => automatonView(reader, { key: params.key as string | undefined, state: params.state as string | undefined }, signal),
    },
    fieldsPanel(
      {
        id: 'node',
        title: 'Node',
        params: [
          { key: 'address', label: 'Address', type: 'number', default: reader.root, min: 0, description: 'address of a state byte (the root by default)' },
        ],
      },
      async (params) => nodeFields(await reader.node(Number(params.address ?? reader.root)), reader.version),
    ),
    {
      id: 'dot',
      title: 'Graphviz',
      kind: 'text',
      data: async (_params, signal) => {
        let text = '';
        const states = await writeDot(reader, (t) => void (text += t), signal);
        if (states > MAX_DRAWN_STATES) text = `// ${states} states: too many to show here; use Convert → Graphviz dot to write the file\n`;
        return { kind: 'text', language: 'dot', text };
      },
    },
  ];
  return panels.map(checked);
}

function checksumRange(layout: FstLayout): ByteRange | undefined {
  return layout.storedChecksum === undefined ? undefined : range(layout.size - CHECKSUM_BYTES, CHECKSUM_BYTES);
}

function fstStructure(layout: FstLayout, reader: FstReader | undefined, root: FstNode | FormatError | undefined, checksum: FstChecksum): StructNode {
  const { header, footer, storedChecksum, size } = layout;
  const rootIssue = rootProblem(layout);
  const nodes: StructNode = {
    label: 'nodes',
    value: `${footer.offset - NODES_START} bytes, written bottom-up; the root is last`,
    range: range(NODES_START, footer.offset - NODES_START),
    children:
      reader && root !== undefined
        ? [
            root instanceof FormatError
              ? { label: 'root node', value: root.detail, mark: 'error', range: range(root.offset ?? 0, 1) }
              : nodeTree(reader, root, `root @${root.addr}`),
          ]
        : undefined,
  };
  const children: StructNode[] = [
    { label: 'header', range: range(0, HEADER_BYTES), children: layoutLeaves(FST_HEADER, 0, header) },
    nodes,
    {
      label: 'footer',
      range: range(footer.offset, FOOTER_BYTES),
      children: layoutLeaves(FST_FOOTER, footer.offset, {
        keyCount: footer.keyCount,
        rootAddress: [footer.rootAddress, { mark: rootIssue?.severity, note: rootIssue?.detail }],
      }),
    },
  ];
  if (storedChecksum !== undefined) children.push(checksumNode(checksum, storedChecksum, range(size - CHECKSUM_BYTES, CHECKSUM_BYTES)));
  return { label: `fst v${header.version}`, range: range(0, size), children };
}

/** The header and footer checks, the CRC, then the walk over every node (`walked` learns the key count and kind). */
async function* verifyFst(
  layout: FstLayout,
  reader: FstReader | undefined,
  root: FstNode | FormatError | undefined,
  checksum: FstChecksum,
  ctx: TaskContext,
  walked: (r: WalkResult) => void,
): AsyncIterable<Check> {
  const { header, footer, storedChecksum, size } = layout;
  yield pass('format version', `version ${header.version} (${PRODUCERS[String(header.version)]})`, 0);
  const rootIssue = rootProblem(layout);
  if (rootIssue === undefined) yield pass('root address', `root ${footer.rootAddress} is the last node byte`, FST_FOOTER.offset('rootAddress', footer.offset));
  else if (rootIssue.severity === 'error') yield fail('root address', rootIssue.detail, FST_FOOTER.offset('rootAddress', footer.offset), 'root address');
  else yield warn('root address', rootIssue.detail, FST_FOOTER.offset('rootAddress', footer.offset));
  if (storedChecksum === undefined) {
    yield info('checksum', `no checksum in format version ${header.version} (unverifiable): the structural walk below is the only check`);
  } else {
    const { computed } = (await checksum.check(ctx))!;
    yield computed === storedChecksum
      ? pass('checksum', `masked CRC-32C ${hex(computed, 8)} matches`, size - CHECKSUM_BYTES)
      : fail('checksum', `stored ${hex(storedChecksum, 8)}, computed ${hex(computed, 8)}`, size - CHECKSUM_BYTES, 'checksum');
  }
  if (reader === undefined) return;
  if (root instanceof FormatError) {
    yield fail('nodes', `root node: ${root.detail}`, root.offset, root.field);
    return;
  }
  yield* deepVerify(reader, ctx, walked);
}

function fstInfo(layout: FstLayout, root: FstNode | FormatError | undefined, kind: Kind): Record<string, unknown> {
  const { header, footer, storedChecksum, size } = layout;
  return {
    version: header.version,
    fstType: header.fstType,
    kind,
    keyCount: footer.keyCount,
    rootAddress: footer.rootAddress,
    rootNode:
      root === undefined
        ? null
        : root instanceof FormatError
          ? { error: root.message }
          : { kind: KIND_NAMES[root.kind], transitions: root.ntrans, final: root.isFinal },
    checksum: storedChecksum === undefined ? 'absent' : 'present',
    storedChecksum,
    nodeBytes: footer.offset - NODES_START,
    size,
  };
}
