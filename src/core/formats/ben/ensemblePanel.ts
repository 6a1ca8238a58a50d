import { FormatError } from '../../errors.js';
import { sha256Digester } from '../../codecs/sha256.js';
import { hexString } from '../../describe.js';
import type { OptionValues, Panel, PanelHost, TaskContext } from '../../model.js';
import { DISTRICTS_PARAMS, ENSEMBLE_PARAMS, type EnsemblePanelData } from '../../views.js';
import { type GraphSource, graphSource } from './graphSource.js';
import { readOptionFile } from './levers.js';
import { ENSEMBLE_HEAD, type PlanAssets } from './panelHeads.js';
import type { SampleRun } from './pipeline.js';
import type { Plan } from './plan.js';
import { type AttributeChoice, choiceAttributes, guessChoice, parseChoice } from './stats/choice.js';
import { type EnsembleFiguresJson, type PlanFigures, EnsembleFigures, collectFigures, figureSpecs, figuresOf } from './stats/ensembleFigures.js';
import { type GraphJson, numericAttributes, parseGraphJson, statsGraphOf } from './stats/graph.js';
import { PlanMeasure } from './stats/measure.js';
import { parseReferenceFile, referenceFromAttribute } from './stats/reference.js';
import { ensembleExports, ensemblePlots } from './ensemblePlots.js';

/** The graph as the pass needs it, kept between requests; its JSON is read again only on demand (it may be hundreds of MB). */
interface Loaded {
  readonly source: GraphSource;
  /** SHA-256 of the graph's text: the cache's key, so an edited graph is a new one. */
  readonly hash: string;
  readonly attributes: readonly string[];
  readonly nodes: number;
  /** The measure of the attributes a choice reads (JSON of their names), made when a choice first asks. */
  measured?: { readonly choiceKey: string; readonly measure: PlanMeasure };
}

/** What the pass found for one graph and choice, and each reference's figures, kept for redraws. */
interface Result {
  readonly key: string;
  readonly figures: EnsembleFigures;
  readonly cached: boolean;
  readonly references: Map<string, PlanFigures>;
}

/** The cache entry's format: a change of what the pass collects makes old entries misses. */
const CACHE_VERSION = 1;

const base = (caption: string): EnsemblePanelData => ({ kind: 'ensemble', caption, state: 'ready', attributes: [], histograms: [], boxes: [] });

/**
 * "Ensemble": every plan of the ensemble measured over the dual graph in one streaming pass in
 * the engine (progress, cancel; memory flat in the number of plans: ensembleFigures.ts), plotted
 * as histograms and marginal box plots with a reference plan marked on each. The pass runs when
 * the view asks (`run`); its distributions are kept in memory and in the host's cache keyed by
 * the graph's hash and the attribute choice, so a second open shows the plots at once.
 */
export function ensemblePanel(
  samples: (ctx: TaskContext, from: number) => AsyncIterable<SampleRun>,
  assets: PlanAssets,
  sampleCount: () => number | undefined,
): Panel {
  let loaded: Loaded | undefined;
  let result: Result | undefined;
  let pending: { readonly key: string; readonly promise: Promise<Result> } | undefined;
  return {
    ...ENSEMBLE_HEAD,
    async data(params, signal, host): Promise<EnsemblePanelData> {
      const source = graphSource(assets, params, host);
      if (!source)
        return {
          ...base('The ensemble is measured over its dual graph.'),
          missing: 'No graph: choose the graph JSON the sampler read (NetworkX adjacency or node-link) to measure the plans.',
          pickGraph: true,
        };
      let choice: AttributeChoice;
      let names: string[];
      let g: Loaded;
      let measure: PlanMeasure;
      try {
        let parsed: GraphJson | undefined;
        if (loaded?.source.key === source.key) g = loaded;
        else ({ loaded: g, parsed } = await load(source));
        loaded = g;
        const wanted = params[DISTRICTS_PARAMS.choice];
        choice = typeof wanted === 'string' && wanted !== '' ? parseChoice(wanted, g.attributes).choice : guessChoice(g.attributes);
        names = choiceAttributes(choice);
        const choiceKey = JSON.stringify(names);
        if (g.measured?.choiceKey !== choiceKey)
          g.measured = { choiceKey, measure: new PlanMeasure(statsGraphOf(parsed ?? (await readGraph(source)), names, source.name)) };
        measure = g.measured.measure;
      } catch (e) {
        if (signal?.aborted) throw e;
        loaded = undefined;
        return { ...base(`graph: ${source.name}`), missing: `The graph ${source.name} cannot be used: ${why(e)}`, pickGraph: !assets.hasGraph };
      }
      const key = `ensemble.v${CACHE_VERSION}:${g.hash}:${JSON.stringify(choice)}`;
      if (result?.key !== key) result = await fromCache(host, key);
      const total = sampleCount();
      // The attributes are the Districts tab's choice (kept per graph by the host): say which, as they are changed there.
      const read = [choice.population && `population ${choice.population}`, ...choice.elections.map((e) => e.join('/'))].filter(Boolean).join(', ');
      const caption = `graph: ${source.name}, ${g.nodes.toLocaleString('en-US')} nodes; ${read || 'no population or election chosen'} (as the Districts tab chooses)`;
      const common = { attributes: g.attributes, pickGraph: !assets.hasGraph };
      // A pass for this graph and choice already running (the tab drawn again meanwhile) is waited
      // for, not run twice; one that was cancelled leaves this request to start its own if asked.
      if (!result && pending?.key === key) result = await pending.promise.catch(() => undefined);
      if (!result && params[ENSEMBLE_PARAMS.run]) {
        const progress = host?.progress && ((p: { done: number; message?: string }) => host.progress!({ ...p, total }));
        const pass = collectFigures(samples({ signal, progress }, 0), measure, names, choice, { signal, progress }).then(async (figures): Promise<Result> => {
          await host?.cache?.save(key, new TextEncoder().encode(JSON.stringify(figures.toJSON())));
          return { key, figures, cached: false, references: new Map() };
        });
        const mine = { key, promise: pass };
        pending = mine;
        try {
          result = await pass;
        } finally {
          if (pending === mine) pending = undefined;
        }
      }
      if (!result)
        return { ...base(`${caption}; ${total === undefined ? 'the plans' : `${total.toLocaleString('en-US')} plans`} not measured yet`), ...common };
      const ref = await referenceOf(params, result, g, measure, names, choice, (k) => firstPlan(samples, k, signal), host);
      return plotted(result, ref, choice, caption, common);
    },
  };
}

/** A finished pass as plots and exports, the reference plan (when one is asked for) marked on each. */
function plotted(
  result: Result,
  ref: Reference | undefined,
  choice: AttributeChoice,
  caption: string,
  common: Pick<EnsemblePanelData, 'attributes' | 'pickGraph'>,
): EnsemblePanelData {
  const specs = figureSpecs(choice);
  const refFigures = ref && 'figures' in ref ? ref.figures : undefined;
  return {
    kind: 'ensemble',
    caption: `${caption}; ${result.figures.samples.toLocaleString('en-US')} plans${result.cached ? ' (kept from an earlier pass)' : ''}`,
    state: 'done',
    ...common,
    samples: result.figures.samples,
    cached: result.cached,
    reference: ref && { name: ref.name, problem: 'problem' in ref ? ref.problem : undefined },
    ...ensemblePlots(result.figures, specs, refFigures),
    exports: ensembleExports(result.figures, specs, ref && refFigures ? { name: ref.name, figures: refFigures } : undefined),
  };
}

/** The graph read and parsed once: what is kept of it, and the parse for the first choice's measure. */
async function load(source: GraphSource): Promise<{ loaded: Loaded; parsed: GraphJson }> {
  const text = await source.read();
  if (text === undefined) throw new FormatError('corrupt', 'the graph is gone', { field: source.name });
  const parsed = parseGraphJson(text, source.name);
  const digest = await sha256Digester();
  const attributes = numericAttributes(parsed);
  return { loaded: { source, hash: hexString(digest(new TextEncoder().encode(text))), attributes, nodes: parsed.json.nodes.length }, parsed };
}

async function readGraph(source: GraphSource): Promise<GraphJson> {
  const text = await source.read();
  if (text === undefined) throw new FormatError('corrupt', 'the graph is gone', { field: source.name });
  return parseGraphJson(text, source.name);
}

async function fromCache(host: PanelHost | undefined, key: string): Promise<Result | undefined> {
  const bytes = await host?.cache?.load(key);
  if (!bytes) return undefined;
  try {
    const figures = EnsembleFigures.fromJSON(JSON.parse(new TextDecoder().decode(bytes)) as EnsembleFiguresJson);
    return { key, figures, cached: true, references: new Map() };
  } catch {
    return undefined; // a store can hold anything: an entry that does not read is a miss
  }
}

async function firstPlan(samples: (ctx: TaskContext, from: number) => AsyncIterable<SampleRun>, k: number, signal?: AbortSignal): Promise<Plan | undefined> {
  for await (const r of samples({ signal }, k - 1)) return r.plan;
  return undefined;
}

type Reference = { name: string; figures: PlanFigures } | { name: string; problem: string };

/**
 * The reference plan the view asked for, measured once per result: a sample by number, a node
 * attribute holding district labels, or the file the host put in `referenceFile`. A reference
 * that cannot be used says why beside the plots instead of hiding them.
 */
async function referenceOf(
  params: OptionValues,
  result: Result,
  g: Loaded,
  measure: PlanMeasure,
  names: readonly string[],
  choice: AttributeChoice,
  sample: (k: number) => Promise<Plan | undefined>,
  host: PanelHost | undefined,
): Promise<Reference | undefined> {
  const asked = params[ENSEMBLE_PARAMS.reference];
  if (typeof asked !== 'string' || asked === '') return undefined;
  const file = params[ENSEMBLE_PARAMS.referenceFile];
  const at = asked === 'file' && typeof file === 'string' ? `file:${file}` : asked;
  const name = asked.startsWith('sample:')
    ? `sample ${asked.slice(7)}`
    : asked.startsWith('attribute:')
      ? `attribute ${asked.slice(10)}`
      : typeof file === 'string'
        ? file.split(/[\\/]/).pop()!
        : 'a file';
  const kept = result.references.get(at);
  if (kept) return { name, figures: kept };
  try {
    let plan: Plan | undefined;
    if (asked.startsWith('sample:')) {
      const k = Number(asked.slice(7));
      if (!Number.isSafeInteger(k) || k < 1) throw new FormatError('out-of-range', 'samples are numbered from 1', { field: 'reference' });
      plan = await sample(k);
      if (!plan) throw new FormatError('out-of-range', `there is no sample ${k}`, { field: 'reference' });
    } else if (asked.startsWith('attribute:')) {
      plan = referenceFromAttribute((await readGraph(g.source)).json.nodes, asked.slice(10), g.source.name);
    } else if (asked === 'file' && typeof file === 'string') {
      const text = new TextDecoder().decode(await readOptionFile(host ?? {}, file, 'reference'));
      const ids = (await readGraph(g.source)).json.nodes.map((n, i) => (n !== null && typeof n === 'object' && !Array.isArray(n) && 'id' in n ? n.id : i));
      plan = parseReferenceFile(text, ids, name);
    } else return undefined;
    const figures = figuresOf(measure.measure(plan, `the reference plan ${name}`), names, choice);
    result.references.set(at, figures);
    return { name, figures };
  } catch (e) {
    return { name, problem: why(e) };
  }
}

function why(e: unknown): string {
  return e instanceof FormatError ? `${e.field ? `${e.field}: ` : ''}${e.detail}` : e instanceof Error ? e.message : String(e);
}
