import { hexBytes, hexString, quotedTextOrHex } from '../../describe.js';
import { rethrowUnlessFormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { Check, OptionSpec, OptionValues, Panel } from '../../model.js';
import { type FieldGroup as Group, type FieldRow, fieldsPanel } from '../../panelSpec.js';
import type { TreeDiagramNode } from '../../views.js';
import { bloomQuery } from './bloom.js';
import { stageText } from './chain.js';
import { columnTitle, type ColumnView } from './columns.js';
import type { FrameChecks } from './checks.js';
import type { Container } from './container.js';
import { leafHash, merkleTree, type TreeNode } from './merkle.js';
import { DICT_ORIGINS, EXTREF_KINDS, FILE_FLAG_NAMES, META_VALUE_TYPES, frameLength, frameTypeName, type MetaEntry } from './model.js';
import { typeText } from './schema.js';
import { compareCanonical, decodeUtf8, parseQueryValue, valueFromCanonical } from './values.js';

/** The Bindu pictures: codec pipelines, index lookups, integrity, the Merkle seal and metadata. */

export function metaText(e: MetaEntry): string {
  try {
    if (e.valueType === 1 || e.valueType === 3) return decodeUtf8(e.value);
    if (e.valueType === 2 && e.value.length === 8) return new DataView(e.value.buffer, e.value.byteOffset, 8).getBigInt64(0, true).toString();
  } catch {
    /* shown as hex below */
  }
  return `0x${hexString(e.value)}`;
}

export function pipelinePanel(views: readonly ColumnView[]): Panel {
  return {
    id: 'pipelines',
    title: 'Codec chains',
    kind: 'pipeline',
    data: async () => ({
      kind: 'pipeline',
      pipelines: views.map((v) => ({
        title: `${v.column.id}: ${columnTitle(v)}`,
        from: v.plan?.dictId !== undefined ? 'values → dictionary codes' : 'values',
        to: `${v.column.chunks.length} chunk${v.column.chunks.length === 1 ? '' : 's'}, ${v.column.chunks.reduce((n, c) => n + c.byteLength, 0)} bytes`,
        stages: v.column.stages.map((s) => ({
          name: stageText(s),
          detail: s.params.length ? `params ${hexBytes(s.params, 16)}` : undefined,
          mark: s.codec >= 0x40 ? ('warn' as const) : undefined,
        })),
        note: v.undecodable,
        mark: v.undecodable ? ('warn' as const) : undefined,
      })),
    }),
  };
}

/**
 * What a panel shows in place of values from a frame that fails its checks (issue 17): the
 * frame and what failed, instead of answers, ranges or entries read from damaged bytes.
 */
async function damageOf(c: Container, checks: FrameChecks, offset: number, signal?: AbortSignal): Promise<FieldRow | undefined> {
  const f = c.frames.find((x) => x.offset === offset);
  const problem = f && (await checks.problem(f, { signal }));
  return problem
    ? {
        name: `${frameTypeName(f.type)} frame at ${offset}`,
        value: `damaged: ${problem}; its values are not shown`,
        offset,
        length: frameLength(f),
        mark: 'error',
      }
    : undefined;
}

function nameOf(views: readonly ColumnView[], id: number): string {
  return views.find((v) => v.column.id === id)?.column.name ?? `#${id}`;
}

export function bloomPanel(c: Container, views: readonly ColumnView[], checks: FrameChecks): Panel {
  const choices = c.blooms.map((b, i) => ({ value: String(i), label: `${nameOf(views, b.column)} (frame at ${b.offset})` }));
  const inputs: OptionSpec[] = [
    { key: 'filter', label: 'Filter', type: 'choice', choices, default: '0' },
    { key: 'value', label: 'Might contain?', type: 'string', description: 'A value of the column (BYTES as hex); an emptied box asks for the empty string' },
  ];
  return fieldsPanel({ id: 'bloom', title: 'Bloom filters', params: inputs }, async (params: OptionValues, signal?: AbortSignal) => {
    const b = c.blooms[Number(params.filter ?? 0)] ?? c.blooms[0]!;
    const damaged = await damageOf(c, checks, b.offset, signal);
    if (damaged) return [{ title: 'Damaged', fields: [damaged] }];
    const view = views.find((v) => v.column.id === b.column);
    const fields: FieldRow[] = [
      { name: 'column', value: `${b.column} ${nameOf(views, b.column)}` },
      { name: 'hash', value: 'SHA-256 double hashing' },
      { name: 'k', value: String(b.k) },
      { name: 'm', value: `${b.mBits} bits` },
      { name: 'granularity', value: b.granularity === 1 ? `one filter per chunk (${b.filters.length})` : 'one filter for the file' },
      { name: 'distinct values inserted', value: String(b.nInserted) },
    ];
    const groups: Group[] = [{ title: 'Filter', fields }];
    const text = params.value === undefined ? undefined : String(params.value);
    if (text !== undefined && view) {
      let answer: FieldRow[];
      try {
        const q = await bloomQuery(b, parseQueryValue(view.column.type, text));
        answer = [
          { name: `"${text}"`, value: q.maybe ? 'maybe (every bit is set)' : 'no (definitely not in the column)', mark: q.maybe ? undefined : 'warn' },
          { name: 'bits', value: q.bits.join(', ') },
        ];
        if (b.granularity === 1) answer.push({ name: 'chunks that may hold it', value: q.filters.join(', ') || 'none' });
      } catch (e) {
        rethrowUnlessFormatError(e);
        answer = [{ name: `"${text}"`, value: e.detail, mark: 'error' }];
      }
      groups.unshift({ title: 'Might contain?', fields: answer });
    }
    return groups;
  });
}

export function sortedPanel(c: Container, views: readonly ColumnView[], checks: FrameChecks): Panel {
  const withRanges = c.sorted.filter((s) => s.ranges);
  const inputs: OptionSpec[] = [
    {
      key: 'index',
      label: 'Index',
      type: 'choice',
      choices: withRanges.map((s, i) => ({ value: String(i), label: `${nameOf(views, s.column)} (frame at ${s.offset})` })),
      default: '0',
    },
    { key: 'value', label: 'Chunks for value', type: 'string' },
  ];
  return fieldsPanel({ id: 'sorted', title: 'Sorted index', params: inputs }, async (params: OptionValues, signal?: AbortSignal) => {
    const s = withRanges[Number(params.index ?? 0)] ?? withRanges[0]!;
    const damaged = await damageOf(c, checks, s.offset, signal);
    if (damaged) return [{ title: 'Damaged', fields: [damaged] }];
    const view = views.find((v) => v.column.id === s.column);
    const show = (b: Uint8Array) => {
      if (!view) return hexBytes(b, 24);
      try {
        return String(valueFromCanonical(view.column.type, b));
      } catch {
        return hexBytes(b, 24);
      }
    };
    const groups: Group[] = [];
    const text = params.value === undefined ? undefined : String(params.value);
    if (text !== undefined && view) {
      try {
        const q = parseQueryValue(view.column.type, text);
        const hits = s.ranges!.filter((r) => compareCanonical(view.column.type, r.min, q) <= 0 && compareCanonical(view.column.type, q, r.max) <= 0);
        groups.push({
          title: `Chunks whose range holds ${text}`,
          fields: [{ name: 'chunks', value: hits.map((r) => r.chunk).join(', ') || 'none: no chunk needs reading' }],
        });
      } catch (e) {
        rethrowUnlessFormatError(e);
        groups.push({ title: 'Lookup', fields: [{ name: text, value: e.detail, mark: 'error' }] });
      }
    }
    groups.push({
      title: `Chunk ranges of ${nameOf(views, s.column)} (by min)`,
      fields: s.ranges!.map((r) => ({ name: `chunk ${r.chunk}`, value: `${show(r.min)} … ${show(r.max)}` })),
    });
    return groups;
  });
}

export function integrityPanel(run: () => AsyncIterable<Check>): Panel {
  return fieldsPanel({ id: 'integrity', title: 'Integrity' }, async (_params, signal) => {
    const fields: FieldRow[] = [];
    for await (const check of run()) {
      if (signal?.aborted) break;
      fields.push({
        name: check.name,
        value: `${check.status === 'pass' ? '✔' : check.status === 'fail' ? '✖' : check.status === 'warn' ? '⚠' : 'ℹ'} ${check.detail}`,
        offset: check.offset,
        mark: check.status === 'fail' ? 'error' : check.status === 'warn' ? 'warn' : undefined,
      });
    }
    return [{ title: 'File checksum, schema fingerprint, Merkle seal, footer', fields }];
  });
}

/** The seal as a tree: leaves are the preamble and frames, each recomputed from the file; a leaf that differs is marked with the path above it. */
export function merklePanel(src: ByteSource, c: Container): Panel {
  return {
    id: 'merkle',
    title: 'Merkle seal',
    kind: 'tree',
    async data(_params, signal) {
      const m = c.merkle!;
      const names = new Map<number, string>([[0, 'preamble'], ...c.frames.map((f): [number, string] => [f.offset, frameTypeName(f.type)])]);
      const lengths = new Map<number, number>([[0, c.preamble.size], ...c.frames.map((f): [number, number] => [f.offset, frameLength(f)])]);
      const bad = new Set<number>();
      for (const [i, leaf] of m.leaves.entries()) {
        const length = lengths.get(leaf.offset);
        if (length === undefined || hexString(await leafHash(src, leaf.offset, length, { signal })) !== hexString(leaf.hash)) bad.add(i);
      }
      const tree = await merkleTree(m.leaves.map((l) => l.hash));
      const rootOk = tree !== undefined && hexString(tree.hash) === hexString(m.root);
      const draw = (n: TreeNode): TreeDiagramNode => {
        const broken = [...bad].some((i) => i >= n.from && i < n.to);
        if (!n.children) {
          const leaf = m.leaves[n.from]!;
          return {
            label: names.get(leaf.offset) ?? `@${leaf.offset}`,
            detail: `@${leaf.offset} ${hexString(leaf.hash).slice(0, 8)}`,
            mark: broken ? 'error' : undefined,
          };
        }
        return {
          label: n.from === 0 && n.to === m.leaves.length ? 'root' : `${n.from}–${n.to - 1}`,
          detail: hexString(n.hash).slice(0, 12),
          mark: broken || (n.to - n.from === m.leaves.length && !rootOk) ? 'error' : undefined,
          children: n.children.map(draw),
        };
      };
      const root: TreeDiagramNode = tree ? draw(tree) : { label: 'empty tree' };
      const caption = bad.size
        ? `${bad.size} leaf${bad.size === 1 ? '' : 'ves'} differ from the file: the seal is broken at ${[...bad].map((i) => `${names.get(m.leaves[i]!.offset) ?? '?'} @${m.leaves[i]!.offset}`).join(', ')}`
        : rootOk
          ? `sealed: ${m.leaves.length} leaves, root ${hexString(m.root).slice(0, 16)}…`
          : 'the stored root does not match the stored leaves';
      return { kind: 'tree', root, caption };
    },
  };
}

export function metadataPanel(c: Container, checks: FrameChecks): Panel {
  return fieldsPanel({ id: 'metadata', title: 'Metadata' }, async (_params, signal) => {
    const h = c.header;
    const groups: Group[] = [];
    const headerFrame = c.frames.find((f) => f.type === 1);
    const headerDamage = headerFrame && (await damageOf(c, checks, headerFrame.offset, signal));
    if (headerDamage) groups.push({ title: 'Writer and header', fields: [headerDamage] });
    else if (h) {
      groups.push({
        title: 'Writer and header',
        fields: [
          { name: 'writer', value: `${h.writerName} ${h.writerVersion.join('.')}` },
          { name: 'rows', value: String(h.rowCount) },
          { name: 'columns', value: String(h.columnCount) },
          { name: 'file flags', value: FILE_FLAG_NAMES.filter((_, i) => (h.fileFlags >> BigInt(i)) & 1n).join(', ') || 'none' },
          { name: 'schema fingerprint', value: h.fingerprint.every((b) => b === 0) ? 'none (schemaless)' : hexString(h.fingerprint) },
          ...(h.sourceDigest ? [{ name: 'source SHA-256', value: hexString(h.sourceDigest) }] : []),
        ],
      });
      if (h.config.length)
        groups.push({
          title: 'Pipeline configuration (Header)',
          fields: h.config.map((e) => ({ name: e.key, value: `${metaText(e)} (${META_VALUE_TYPES[e.valueType]})` })),
        });
      if (h.extrefs.length)
        groups.push({
          title: 'Needs external state (stateful mode)',
          fields: h.extrefs.map((e) => ({
            name: EXTREF_KINDS[e.kind] ?? `kind ${e.kind}`,
            value: `${e.locator} (sha256 ${hexString(e.sha256)})`,
            mark: 'warn' as const,
          })),
        });
    }
    const userMeta: FieldRow[] = [];
    for (const e of c.userMeta) {
      const damaged = await damageOf(c, checks, e.frame, signal);
      // A damaged frame is named once, however many entries it held.
      if (!damaged) userMeta.push({ name: e.key, value: `${metaText(e)} (${META_VALUE_TYPES[e.valueType]})`, offset: e.frame });
      else if (!userMeta.some((x) => x.name === damaged.name)) userMeta.push(damaged);
    }
    if (userMeta.length) groups.push({ title: 'UserMeta', fields: userMeta });
    for (const d of c.dictionaries) {
      const damaged = await damageOf(c, checks, d.offset, signal);
      if (damaged) {
        groups.push({ title: `Dictionary ${d.id}`, fields: [damaged] });
        continue;
      }
      groups.push({
        title: `Dictionary ${d.id}`,
        fields: [
          {
            name: 'kind',
            value: d.kind === 1 ? 'values' : d.kind === 2 ? `fixed, ${d.width} bytes` : `opaque 0x${d.kind.toString(16)} (describe-only)`,
            offset: d.offset,
          },
          { name: 'origin', value: DICT_ORIGINS[d.origin] ?? String(d.origin), mark: d.origin === 2 ? 'warn' : undefined },
          ...(d.sharedName ? [{ name: 'shared dictionary', value: `${d.sharedName} (sha256 ${hexString(d.sharedSha256!)})` }] : []),
          ...(d.entries ?? []).slice(0, 200).map((e, i) => ({ name: `entry ${i}`, value: quotedTextOrHex(e) })),
        ],
      });
    }
    const schemaDamage = c.schemaFrame && (await damageOf(c, checks, c.schemaFrame.offset, signal));
    if (schemaDamage) groups.push({ title: 'Schema leaves', fields: [schemaDamage] });
    else if (c.schema)
      groups.push({
        title: 'Schema leaves',
        fields: c.schema.leaves.map((l) => ({ name: `${l.id}: ${l.name}`, value: `${typeText(l.type)}${l.nullable ? ', nullable' : ''}` })),
      });
    return groups;
  });
}
