import { xzDecompressAll } from '../../codecs/xz/decode.js';
import { FormatError } from '../../errors.js';
import { CollectingLog } from '../../integrity.js';
import { MemorySource } from '../../io/byteSource.js';
import type { OptionSpec, OptionValues, OutputTarget, TaskContext } from '../../model.js';
import { choiceParam } from '../../tableSpec.js';
import { ASSET_FLAG_XZ, MAX_ASSET_BYTES } from './bendl.js';
import { type AssetInput, assetType } from './bendlWrite.js';
import { parsePermutation } from './graph.js';
import { orderByAttribute, permuteGraph } from './graphOrder.js';
import type { Variant } from './model.js';
import { NodePermuter, composePermutations, invertPermutation, isIdentity, permutationJson } from './permute.js';
import type { SampleRun, WriteReport } from './pipeline.js';
import type { Plan } from './plan.js';
import { CanonicalLabels } from './relabel.js';
import { SizeProbe } from './sizeProbe.js';

/**
 * The compression levers binary-ensemble's docs name (spec §7), as conversion options: canonical
 * district labels (`relabel=canonical`, for XBEN), nodes sorted by a graph attribute
 * (`reorder-by=ATTR`, for BEN) and a node map applied either way (`permutation=MAP.json` with
 * `direction=forward|inverse`). Samples pass through one at a time; the sizes before and after
 * each lever are counted on the way (SizeProbe) and reported.
 */

export const graphOption: OptionSpec = {
  key: 'graph',
  label: 'graph.json',
  type: 'path',
  description:
    'the dual graph (NetworkX JSON): a bundle stores it (xz-compressed); reorder-by sorts its nodes, and a reordered graph goes into the bundle or beside the output',
};

export const permutationOption: OptionSpec = {
  key: 'permutation',
  label: 'node_permutation_map.json',
  type: 'path',
  description: 'a node map (old → new): applied to every sample with direction forward or inverse; without a direction a bundle stores it as it is',
};

export const relabelOption = choiceParam('relabel', 'District labels', {
  none: 'As they are',
  canonical: 'Canonical: numbered by first appearance in each sample (smaller XBEN)',
});

export const reorderOption: OptionSpec = {
  key: 'reorder-by',
  label: 'Reorder nodes by a graph attribute',
  type: 'string',
  default: '',
  description:
    'a node attribute (GEOID20, say): nodes stably sorted by it (smaller BEN), the graph permuted to match, the map written as node_permutation_map.json; empty: keep the order',
};

export const directionOption = choiceParam('direction', 'Apply the node map', {
  none: 'No (a bundle stores the map as it is)',
  forward: 'Forward: old order → new order',
  inverse: 'Inverse: undo the map',
});

/** The levers of an output that is not a bundle (a bundle has graph and permutation among its own options). */
export const plainLeverOptions: readonly OptionSpec[] = [relabelOption, reorderOption, graphOption, permutationOption, directionOption];

const MAP_NAME = 'node_permutation_map.json';
const GRAPH_NAME = 'graph.json';

/** Whether `permutation` is a map to apply (else a bundle stores it as an asset). */
export function appliesMap(o: OptionValues): boolean {
  return o.direction === 'forward' || o.direction === 'inverse';
}

/** A file named in a 'path' option, read through the platform. */
export async function readOptionFile(ctx: TaskContext, path: string, field: string): Promise<Uint8Array> {
  if (!ctx.openPath) throw new FormatError('unsupported', 'files cannot be opened here', { field });
  const src = await ctx.openPath(path);
  try {
    return await src.read(0, src.size);
  } finally {
    await src.close?.();
  }
}

async function assetBytes(a: AssetInput): Promise<Uint8Array> {
  if ('bytes' in a) return a.bytes;
  if (!(a.flags & ASSET_FLAG_XZ)) return a.stored;
  return xzDecompressAll(new MemorySource(a.stored), { maxOutput: MAX_ASSET_BYTES, field: `asset ${a.name}` });
}

/** An option file's errors say the file does not fit (exit 2), not that the data is damaged. */
function asBadInput<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof FormatError && e.code === 'corrupt') throw new FormatError('bad-input', e.detail, { offset: e.offset, field: e.field });
    throw e;
  }
}

interface Step {
  readonly name: string;
  apply(p: Plan, sample: number): Plan;
}

/** Where the counted sizes go: the formats to report, as the output's own stream would be written. */
export interface SizeSpec {
  readonly variant: Variant;
  readonly preset: number;
  /** The output's stream format (its bytes stand for the last step's size); none for JSONL. */
  readonly output?: 'ben' | 'xben';
}

/**
 * The node step: the order `reorder-by` sorts the graph into, or the map applied either way; the
 * graph (given, else the input bundle's) moved to match; and the map from the first order known
 * to the output's (the input bundle's own map composed in), so one map still undoes everything.
 */
async function nodeOrder(
  o: OptionValues,
  ctx: TaskContext,
  kept: ((ctx: TaskContext) => Promise<AssetInput[]>) | undefined,
  by: string,
  mapPath: string,
): Promise<{ step: Step; graph?: string; map: { oldToNew: Uint32Array; json: string } }> {
  const assets = kept ? await kept(ctx) : [];
  const bundled = async (name: string) => {
    const a = assets.find((x) => x.name === name);
    return a && new TextDecoder().decode(await assetBytes(a));
  };
  const graphPath = String(o.graph ?? '');
  const graphField = graphPath || `the input's ${GRAPH_NAME}`;
  const graphText = graphPath ? new TextDecoder().decode(await readOptionFile(ctx, graphPath, 'graph')) : await bundled(GRAPH_NAME);
  let oldToNew: Uint32Array;
  let source: { noun: string; field: string };
  if (by) {
    if (graphText === undefined)
      throw new FormatError('bad-input', `reorder-by=${by} sorts the graph's nodes: give the graph with graph=G.json`, { field: 'graph' });
    oldToNew = orderByAttribute(graphText, by, graphField);
    source = { noun: 'the graph', field: graphField };
  } else {
    const text = new TextDecoder().decode(await readOptionFile(ctx, mapPath, 'permutation'));
    const read = asBadInput(() => parsePermutation(text, mapPath));
    oldToNew = o.direction === 'inverse' ? invertPermutation(read) : read;
    source = { noun: 'the node map', field: mapPath };
  }
  const permuter = new NodePermuter(oldToNew, source);
  const keptMap = await bundled(MAP_NAME);
  const total = keptMap === undefined ? oldToNew : composePermutations(parsePermutation(keptMap, `the input's ${MAP_NAME}`), oldToNew);
  return {
    step: { name: by ? `reorder-by=${by}` : `permutation ${String(o.direction)}`, apply: (p, s) => permuter.apply(p, s) },
    graph: graphText === undefined ? undefined : permuteGraph(graphText, oldToNew, graphField),
    map: { oldToNew: total, json: permutationJson(total, by ? { ordering_method: 'key', key: by } : {}) },
  };
}

export class Levers {
  private constructor(
    private readonly steps: readonly Step[],
    /** The graph in the output's node order, when a node step moved one. */
    private readonly graph: string | undefined,
    /** Old → output order, from the first order known (a bundle's own map composed in). */
    private readonly map: { readonly oldToNew: Uint32Array; readonly json: string } | undefined,
    /** reorder-by always writes its map (beside a plain output too); an applied map's owner has it already. */
    private readonly reordered: boolean,
  ) {}

  get active(): boolean {
    return this.steps.length > 0;
  }

  /**
   * Reads what the options name, all before any sample is written: the map or the graph and its
   * attribute, checked. `kept` gives the input bundle's assets (its graph and node map). A bundle
   * stores a graph or a map given without a node step; any other output would drop it unsaid.
   */
  static async resolve(
    o: OptionValues,
    ctx: TaskContext,
    kept: ((ctx: TaskContext) => Promise<AssetInput[]>) | undefined,
    output: 'bundle' | 'plain',
  ): Promise<Levers> {
    const relabel = String(o.relabel ?? 'none');
    if (relabel !== 'none' && relabel !== 'canonical') throw new FormatError('bad-input', `relabel=${relabel}: canonical or none`, { field: 'relabel' });
    const by = String(o['reorder-by'] ?? '').trim();
    const mapPath = String(o.permutation ?? '');
    const apply = appliesMap(o);
    if (apply && !mapPath)
      throw new FormatError('bad-input', `direction=${String(o.direction)} needs a node map: permutation=MAP.json`, { field: 'direction' });
    if (by && mapPath) throw new FormatError('bad-input', 'reorder-by makes a new node map; give it without permutation=', { field: 'reorder-by' });
    if (output === 'plain' && mapPath && !apply)
      throw new FormatError('bad-input', 'permutation= needs direction=forward or direction=inverse (only a bundle stores a map as it is)', {
        field: 'direction',
      });
    if (output === 'plain' && o.graph && !by && !apply)
      throw new FormatError('bad-input', 'graph= is read by reorder-by or moved by a node map; alone, only a bundle stores it', { field: 'graph' });
    const node = by || apply ? await nodeOrder(o, ctx, kept, by, mapPath) : undefined;
    const steps: Step[] = node ? [node.step] : [];
    if (relabel === 'canonical') {
      const labels = new CanonicalLabels();
      steps.push({ name: 'relabel=canonical', apply: (p, s) => labels.apply(p, s) });
    }
    return new Levers(steps, node?.graph, node?.map, by !== '');
  }

  /**
   * Writes the samples through `write` after every step, and counts the size of the stream before
   * the steps and after each one; resolves to the write's report and the line saying the sizes.
   * BEN sizes are counted on the way. An xz encoder takes most of the WASM heap, so XBEN sizes
   * are counted one at a time afterwards, each by a pass of its own over the samples (memory stays
   * flat; the passes meet the same damage, already reported, so they log it nowhere).
   */
  async run(
    runs: (ctx: TaskContext) => AsyncIterable<SampleRun>,
    ctx: TaskContext,
    sizes: SizeSpec,
    write: (runs: AsyncIterable<SampleRun>) => Promise<WriteReport>,
  ): Promise<{ report: WriteReport; note?: string }> {
    if (!this.active) return { report: await write(runs(ctx)) };
    const last = this.steps.length;
    const inline: (SizeProbe | undefined)[] = [];
    for (let k = 0; k <= last; k++) inline.push(sizes.output === 'ben' && k === last ? undefined : await SizeProbe.open('ben', sizes.variant, sizes.preset));
    let report: WriteReport;
    try {
      report = await write(this.through(runs(ctx), last, inline));
    } catch (e) {
      for (const p of inline) p?.abandon();
      throw e;
    }
    const counted: Record<string, number[]> = { ben: [] };
    for (const p of inline) counted.ben!.push(p ? await p.finish() : report.bytes);
    if (sizes.output === 'xben') {
      const quiet: TaskContext = { ...ctx, integrity: new CollectingLog(ctx.integrity?.salvage ?? false) };
      const xben: number[] = [];
      for (let k = 0; k < last; k++) {
        const probe = await SizeProbe.open('xben', sizes.variant, sizes.preset);
        try {
          let samples = 0;
          let n = 0;
          for await (const r of this.through(
            runs(quiet),
            k,
            Array.from({ length: k + 1 }, (_, i) => (i === k ? probe : undefined)),
          )) {
            samples += r.count;
            if (++n % 1024 === 0)
              ctx.progress?.({ done: samples, message: `XBEN size ${k === 0 ? 'before the levers' : `after ${this.steps[k - 1]!.name}`}: ${samples} samples` });
          }
        } catch (e) {
          probe.abandon();
          throw e;
        }
        xben.push(await probe.finish());
      }
      counted.xben = [...xben, report.bytes];
    }
    return { report, note: this.describe(counted) };
  }

  /** The runs after the first `upTo` steps; `probes[k]` counts them after k steps. */
  private async *through(runs: AsyncIterable<SampleRun>, upTo: number, probes: readonly (SizeProbe | undefined)[]): AsyncGenerator<SampleRun> {
    for await (const r of runs) {
      let plan = r.plan;
      await probes[0]?.add(plan, r.count);
      for (let k = 0; k < upTo; k++) {
        plan = this.steps[k]!.apply(plan, r.firstSample);
        await probes[k + 1]?.add(plan, r.count);
      }
      yield { ...r, plan };
    }
  }

  /** "reorder-by=x, relabel=canonical: BEN 629 → 598 → 580 bytes (−7.8 %), XBEN …" */
  private describe(counted: Readonly<Record<string, readonly number[]>>): string {
    const parts = Object.entries(counted).map(([f, row]) => {
      const first = row[0]!;
      const last = row[row.length - 1]!;
      const change = Math.abs((100 * (last - first)) / first).toFixed(1);
      return `${f.toUpperCase()} ${row.map((b) => b.toLocaleString('en-US')).join(' → ')} bytes (${last > first ? '+' : last < first ? '−' : '±'}${change} %)`;
    });
    return `${this.steps.map((s) => s.name).join(', ')}: ${parts.join(', ')}`;
  }

  /** A plain output's companions: the reordered graph and (reorder-by) the map, beside it. */
  async writeBeside(target: OutputTarget): Promise<string[]> {
    const files: [string, string][] = [];
    if (this.map && this.reordered) files.push([`.${MAP_NAME}`, this.map.json]);
    if (this.graph !== undefined) files.push([`.${GRAPH_NAME}`, this.graph]);
    if (files.length === 0) return [];
    if (!target.beside)
      throw new FormatError(
        'unsupported',
        `this host cannot write ${files.map((f) => f[0].slice(1)).join(' and ')} beside the output; convert to a BENDL bundle to keep them`,
        { field: 'reorder-by' },
      );
    for (const [suffix, text] of files) await (await target.beside(suffix)).write(new TextEncoder().encode(text));
    return files.map((f) => f[0]);
  }

  /** A bundle's assets after the steps: the graph in the new order, the composed map (none when it is the identity). */
  bundleAssets(assets: readonly AssetInput[]): AssetInput[] {
    if (!this.map) return [...assets];
    const out = assets.filter((a) => a.name !== GRAPH_NAME && a.name !== MAP_NAME);
    const asset = (name: string, text: string): AssetInput => ({ name, type: assetType(name), json: true, bytes: new TextEncoder().encode(text) });
    // An applied map undone leaves the identity: the bundle is back in its first order and needs no map.
    const keepMap = this.reordered || !isIdentity(this.map.oldToNew);
    // Python's writer order: graph, map, then the rest.
    const front = [...(this.graph === undefined ? [] : [asset(GRAPH_NAME, this.graph)]), ...(keepMap ? [asset(MAP_NAME, this.map.json)] : [])];
    return [...front, ...out];
  }
}
