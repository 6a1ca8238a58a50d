import { FormatError, rethrowUnlessFormatError, throwIfAborted } from '../../errors.js';
import { yieldToEventLoop } from '../../io/scan.js';
import type { OptionValues, Panel } from '../../model.js';
import { type ChartPanelData, PLAN_HELD_PARAM, PLAN_MAP_PARAM, type PlanChanges, type PlanMapData, type PlanPanelData } from '../../views.js';
import type { Ensemble } from './ensemble.js';
import { type Precincts, graphPrecincts, precinctsFromFeatures } from './geo/geometry.js';
import { planMapData } from './geo/planMap.js';
import type { DualGraph } from './graph.js';
import { type Plan, expand } from './plan.js';
import { SentPlans, planChanges } from './planChanges.js';
import { type FeaturesSource, featuresSource, graphSource, readGraph, type GraphSource } from './graphSource.js';
import { featureProperties } from './geo/featureProperties.js';
import { FLIPS_HEAD, planHead, type PlanAssets, REPEATS_HEAD } from './panelHeads.js';

/** Edges are drawn for graphs up to this size; beyond it the map shows nodes only. */
const MAX_DRAWN_EDGES = 30000;

function sizes(p: Plan): [number, number][] {
  const m = new Map<number, number>();
  for (let i = 0; i < p.runs; i++) m.set(p.values[i]!, (m.get(p.values[i]!) ?? 0) + p.lengths[i]!);
  return [...m.entries()].sort((a, b) => a[0] - b[0]);
}

/** The stored plan in original node order: original[old] = stored[old_to_new[old]] (spec §7). */
function originalOrder(stored: Uint16Array, perm: Uint32Array): number[] {
  return Array.from(perm, (n) => stored[n]!);
}

function mapOf(graph: DualGraph | undefined, nodes: number, shapes?: PrecinctMap): Pick<PlanPanelData, 'x' | 'y' | 'edges'> & { note: string } {
  // The precinct map draws from its shapes: node positions and edges would be 3 numbers a node sent each step for nothing.
  if (shapes?.map && shapes.map.ids.length === nodes)
    return { note: `precincts as drawn in the graph (${shapes.name}, ${shapes.map.levels.length} zoom levels)` };
  const why = shapes?.why ?? (shapes?.map ? `${shapes.name} has ${shapes.map.ids.length} nodes but this plan has ${nodes}` : undefined);
  if (!graph) return { note: `no graph.json: strip and sizes only${why ? `; no precinct shapes: ${why}` : ''}` };
  if (graph.nodes !== nodes) return { note: `graph.json has ${graph.nodes} nodes but this plan has ${nodes}: no map` };
  return {
    x: Array.from(graph.x),
    y: Array.from(graph.y),
    edges: graph.edges.length / 2 <= MAX_DRAWN_EDGES ? Array.from(graph.edges) : undefined,
    note: `${graph.placed === 'coordinates' ? 'nodes at their coordinates' : 'force-directed layout of the dual graph'}${why ? `; no precinct shapes: ${why}` : ''}`,
  };
}

/** The precinct map of the graph, or why its shapes cannot be drawn; undefined without shapes. */
interface PrecinctMap {
  /** The graph or FeatureCollection the shapes came from, for captions. */
  readonly name: string;
  readonly map?: PlanMapData;
  readonly why?: string;
  /** With a FeatureCollection: what the webview offers to match it by. */
  readonly features?: PlanPanelData['features'];
}

type MapLoader = (graph: GraphSource | undefined, features: FeaturesSource | undefined) => Promise<PrecinctMap | undefined>;

let mapSerial = 0;
const precinctMaps = new WeakMap<PlanAssets, MapLoader>();

/**
 * Reads a graph's shapes once per document and graph, shared by the plan and flip panels (the
 * parsed JSON is dropped: only the map is kept). The graph is the bundle's, else the one the user
 * picked for the ensemble; a new pick replaces the map.
 */
function precinctMap(assets: PlanAssets): MapLoader {
  let get = precinctMaps.get(assets);
  if (!get) precinctMaps.set(assets, (get = loader()));
  return get;
}

async function load(source: GraphSource, features: FeaturesSource | undefined): Promise<PrecinctMap | undefined> {
  let described: PlanPanelData['features'];
  try {
    const g = await readGraph(source);
    let p: Precincts | undefined;
    if (features) {
      const text = await features.read();
      if (text === undefined) throw new FormatError('corrupt', 'the file is gone', { field: features.name });
      // Parsed twice (here for the names, then for the shapes): once per file and choice, for one reader of shapes.
      described = { name: features.name, properties: featureProperties(parseOrUndefined(text)), id: features.id };
      p = precinctsFromFeatures(text, g, features.id, features.name);
    } else p = graphPrecincts(g, source.name);
    const name = features?.name ?? source.name;
    // The key names this map in the webview's cache: one per load is enough.
    return (
      p && {
        name,
        features: described,
        map: planMapData(p, g, `map-${++mapSerial}-${p.nodes}-${p.xy.length}`),
        why: p.missing ? `${p.missing} nodes have no shape` : undefined,
      }
    );
  } catch (e) {
    rethrowUnlessFormatError(e);
    return { name: features?.name ?? source.name, features: described, why: `${e.field ? `${e.field}: ` : ''}${e.detail}` };
  }
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function loader(): MapLoader {
  let once: { key: string; map: Promise<PrecinctMap | undefined> } | undefined;
  return (graph, features) => {
    if (!graph) return Promise.resolve(undefined);
    const key = `${graph.key}|${features?.key ?? ''}`;
    if (once?.key !== key) once = { key, map: load(graph, features) };
    const mine = once;
    mine.map.catch(() => once === mine && (once = undefined));
    return mine.map;
  };
}

/** The map's source and the FeatureCollection's choices, for a plan panel's response. */
function shapesFields(precincts: PrecinctMap | undefined, hasGraph: boolean): Pick<PlanPanelData, 'features' | 'pickShapes'> {
  return { features: precincts?.features, pickShapes: hasGraph || undefined };
}

/** The map for a response: whole the first time, only its key when the webview says it holds it. */
function mapFields(shapes: PrecinctMap | undefined, nodes: number, params: OptionValues): Pick<PlanPanelData, 'map' | 'mapKey'> {
  const map = shapes?.map;
  if (!map || map.ids.length !== nodes) return {};
  return params[PLAN_MAP_PARAM] === map.key ? { mapKey: map.key } : { map, mapKey: map.key };
}

/** The plan of the panel's `sample` parameter (1-based), and the stream's sample count when known. */
export async function planAt(
  ens: Ensemble,
  params: OptionValues,
  sampleCount: () => number | undefined,
  signal?: AbortSignal,
): Promise<{ k: number; found: { plan: Plan; repeat: number; first: number }; max: number | undefined }> {
  const k = Math.max(1, Math.floor(Number(params.sample ?? 1)));
  let found: { plan: Plan; repeat: number; first: number } | undefined;
  for await (const r of ens.from(k - 1, signal)) {
    found = { plan: r.plan, repeat: r.repeat ?? r.count, first: r.firstSample };
    break;
  }
  const max = sampleCount();
  if (!found) throw new FormatError('out-of-range', `there is no sample ${k}${max === undefined ? '' : ` (the stream has ${max})`}`, { field: 'sample' });
  return { k, found, max };
}

/** A step's change costs two numbers a node: beyond a third of the nodes the whole plan is sent. */
const CHANGES_LIMIT = 1 / 3;

/**
 * What changed since the plan the webview says it holds (PLAN_HELD_PARAM): from the plans sent
 * last, else decoded again; undefined when it holds none or the change is not smaller.
 */
async function changesSince(
  ens: Ensemble,
  sent: SentPlans,
  params: OptionValues,
  values: Uint16Array,
  sampleCount: () => number | undefined,
  signal?: AbortSignal,
): Promise<PlanChanges | undefined> {
  const held = Math.floor(Number(params[PLAN_HELD_PARAM] ?? 0));
  if (!(held >= 1)) return undefined;
  let before = sent.get(held);
  if (!before) {
    try {
      before = expand((await planAt(ens, { sample: held }, sampleCount, signal)).found.plan);
    } catch (e) {
      // A held sample that is no longer there (another file under the same name): the whole plan.
      rethrowUnlessFormatError(e);
      return undefined;
    }
  }
  return planChanges(before, values, held, Math.floor(values.length * CHANGES_LIMIT));
}

/** The selected plan: map, strip and district sizes; previous / next / play step through the chain. */
export function planPanel(ens: Ensemble, assets: PlanAssets, sampleCount: () => number | undefined): Panel {
  const shapes = precinctMap(assets);
  const sent = new SentPlans();
  return {
    ...planHead(assets),
    async data(params, signal, files): Promise<PlanPanelData> {
      const { k, found, max } = await planAt(ens, params, sampleCount, signal);
      const values = expand(found.plan);
      const graph = await assets.graph();
      const source = graphSource(assets, params, files);
      const precincts = await shapes(source, featuresSource(assets, params, files));
      const map = mapOf(graph, found.plan.nodes, precincts);
      const perm = params.order === 'original' ? await assets.permutation() : undefined;
      const s = sizes(found.plan);
      // The strip in original order needs every value, so it takes the whole plan.
      const changes = perm ? undefined : await changesSince(ens, sent, params, values, sampleCount, signal);
      sent.add(k, values);
      return {
        kind: 'plan',
        caption: `sample ${k}${found.repeat > 1 ? ` (its plan repeats ${found.repeat} times)` : ''}: ${found.plan.nodes} nodes, ${s.length} districts, ${found.plan.runs} runs; ${map.note}`,
        ...map,
        mode: 'district',
        values: changes ? [] : Array.from(values),
        changes,
        strip: perm && perm.length === values.length ? originalOrder(values, perm) : undefined,
        stripLabel: perm ? 'assignment strip: nodes in original order (before the relabelling)' : 'assignment strip: nodes in stream order',
        sizes: s,
        step: { param: 'sample', value: k, min: 1, max },
        ...mapFields(precincts, found.plan.nodes, params),
        ...shapesFields(precincts, source !== undefined),
      };
    },
  };
}

export interface EnsembleSummary {
  readonly samples: number;
  readonly distinct: number;
  /** Repeat count → how many times a plan was held for that many consecutive samples. */
  readonly repeats: readonly (readonly [number, number])[];
  /** Per node: the share of consecutive sample pairs in which it changes district; absent when N varies. */
  readonly flips?: Float64Array;
  readonly nodes?: number;
}

/** FNV-1a over the runs, twice with different seeds: 64 bits tell millions of plans apart. */
function planKey(p: Plan): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ p.nodes;
  for (let i = 0; i < p.runs; i++) {
    const v = (p.values[i]! << 16) | p.lengths[i]!;
    a = Math.imul(a ^ v, 0x01000193);
    b = Math.imul(b ^ v, 0x5bd1e995) ^ (b >>> 15);
  }
  return `${(a >>> 0).toString(36)}.${(b >>> 0).toString(36)}.${p.runs}`;
}

/**
 * Walks the whole chain once (cancellable, yielding): distinct plans, how long each plan was
 * held (the chain's rejections), and how often each node changes district.
 */
export async function summarise(ens: Ensemble, signal?: AbortSignal, progress?: (samples: number) => void): Promise<EnsembleSummary> {
  const seen = new Set<string>();
  const hold = new Map<number, number>();
  let samples = 0;
  let prev: Uint16Array | undefined;
  let cur: Uint16Array = new Uint16Array(0);
  let flips: Float64Array | undefined;
  let nodes = -1;
  let pairs = 0;
  let runLength = 0;
  let prevKey = '';
  let frames = 0;
  for await (const r of ens.from(0, signal)) {
    const key = planKey(r.plan);
    seen.add(key);
    if (key === prevKey) runLength += r.count;
    else {
      if (runLength) hold.set(runLength, (hold.get(runLength) ?? 0) + 1);
      runLength = r.count;
      prevKey = key;
    }
    if (nodes === -1) nodes = r.plan.nodes;
    if (nodes !== r.plan.nodes) nodes = -2;
    if (nodes >= 0) {
      cur = expand(r.plan, cur.length >= r.plan.nodes ? cur : new Uint16Array(r.plan.nodes));
      flips ??= new Float64Array(nodes);
      if (prev) for (let i = 0; i < nodes; i++) if (prev[i] !== cur[i]) flips[i]!++;
      pairs += prev ? r.count : r.count - 1;
      [prev, cur] = [cur, prev ?? new Uint16Array(nodes)];
    }
    samples += r.count;
    if (++frames % 256 === 0) {
      throwIfAborted(signal);
      progress?.(samples);
      await yieldToEventLoop();
    }
  }
  if (runLength) hold.set(runLength, (hold.get(runLength) ?? 0) + 1);
  if (flips && pairs > 0) for (let i = 0; i < flips.length; i++) flips[i]! /= pairs;
  return {
    samples,
    distinct: seen.size,
    repeats: [...hold.entries()].sort((a, b) => a[0] - b[0]),
    flips: nodes >= 0 ? flips : undefined,
    nodes: nodes >= 0 ? nodes : undefined,
  };
}

/** The summary panels share one background walk; a cancelled walk is dropped so the next look restarts it. */
export function summaryPanels(ens: Ensemble, assets: PlanAssets): Panel[] {
  const shapes = precinctMap(assets);
  let walk: Promise<EnsembleSummary> | undefined;
  const get = (signal?: AbortSignal) => {
    walk ??= summarise(ens, signal);
    walk.catch(() => (walk = undefined));
    return walk;
  };
  return [
    {
      ...FLIPS_HEAD,
      async data(params, signal, files): Promise<PlanPanelData> {
        const s = await get(signal);
        const head = `${s.samples} samples, ${s.distinct} distinct plans`;
        if (!s.flips)
          return {
            kind: 'plan',
            caption: `${head}; node counts vary between samples, so flips per node are not defined`,
            mode: 'heat',
            values: [],
            stripLabel: '',
          };
        const source = graphSource(assets, params, files);
        const precincts = await shapes(source, featuresSource(assets, params, files));
        const map = mapOf(await assets.graph(), s.nodes!, precincts);
        let max = 0;
        for (const f of s.flips) max = Math.max(max, f);
        return {
          kind: 'plan',
          caption: `${head}; colour = how often a node changes district between consecutive samples (strongest colour ${(max * 100).toFixed(1)} %); ${map.note}`,
          ...map,
          mode: 'heat',
          values: Array.from(s.flips, (f) => (max > 0 ? f / max : 0)),
          stripLabel: 'flip frequency by node, stream order',
          ...mapFields(precincts, s.nodes!, params),
          ...shapesFields(precincts, source !== undefined),
        };
      },
    },
    {
      ...REPEATS_HEAD,
      async data(_p, signal): Promise<ChartPanelData> {
        const s = await get(signal);
        return {
          kind: 'chart',
          chart: 'bar',
          xLabel: 'consecutive samples holding one plan (1 = accepted at once; more = rejected proposals)',
          yLabel: 'times',
          series: [{ name: `${s.samples} samples, ${s.distinct} distinct plans`, points: s.repeats }],
        };
      },
    },
  ];
}
