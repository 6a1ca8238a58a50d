import { FormatError } from '../../errors.js';
import type { OptionValues, TaskContext } from '../../model.js';
import { DISTRICTS_PARAMS, PLAN_SHAPES_PARAMS } from '../../views.js';
import { readOptionFile } from './levers.js';
import type { PlanAssets } from './panelHeads.js';
import { type GraphJson, parseGraphJson } from './stats/graph.js';

const GRAPH_PARAM = DISTRICTS_PARAMS.graph;

/** Where the graph comes from, and its text read on demand (re-read when the choice changes). */
export interface GraphSource {
  readonly key: string;
  readonly name: string;
  read(): Promise<string | undefined>;
}

/** The bundle's graph.json, else the graph JSON the host names in `graph` (picked by the user, kept per ensemble). */
export function graphSource(assets: PlanAssets, params: OptionValues, files?: Pick<TaskContext, 'openPath'>): GraphSource | undefined {
  if (assets.hasGraph) return { key: 'bundle', name: 'graph.json in the bundle', read: async () => text(await assets.graphJson()) };
  const path = params[GRAPH_PARAM];
  if (typeof path !== 'string' || path === '') return undefined;
  const name = path.split(/[\\/]/).pop()!;
  return { key: `path:${path}`, name, read: async () => text(await readOptionFile(files ?? {}, path, GRAPH_PARAM)) };
}

const text = (b: Uint8Array | undefined) => b && new TextDecoder().decode(b);

export async function readGraph(source: GraphSource): Promise<GraphJson> {
  const t = await source.read();
  if (t === undefined) throw new FormatError('corrupt', 'the graph is gone', { field: source.name });
  return parseGraphJson(t, source.name);
}

/** A GeoJSON FeatureCollection of the precincts, beside the graph, and the property matching features to nodes. */
export interface FeaturesSource extends GraphSource {
  /** undefined: feature i is node i. */
  readonly id?: string;
}

/**
 * The FeatureCollection the plan panels draw: the file the user picked (the host passes it in
 * PLAN_SHAPES_PARAMS.file), else the bundle's `*.geojson` asset; undefined without either.
 */
export function featuresSource(assets: PlanAssets, params: OptionValues, files?: Pick<TaskContext, 'openPath'>): FeaturesSource | undefined {
  const wanted = params[PLAN_SHAPES_PARAMS.id];
  const id = typeof wanted === 'string' && wanted !== '' ? wanted : undefined;
  const path = params[PLAN_SHAPES_PARAMS.file];
  if (typeof path === 'string' && path !== '') {
    return {
      key: `path:${path}#${id ?? ''}`,
      name: path.split(/[\\/]/).pop()!,
      id,
      read: async () => text(await readOptionFile(files ?? {}, path, PLAN_SHAPES_PARAMS.file)),
    };
  }
  const asset = assets.shapes;
  return asset && { key: `bundle:${asset.name}#${id ?? ''}`, name: `${asset.name} in the bundle`, id, read: async () => text(await asset.bytes()) };
}
