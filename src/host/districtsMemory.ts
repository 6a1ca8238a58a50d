import type * as vscode from 'vscode';
import { DISTRICTS_PARAMS, ENSEMBLE_PARAMS, PLAN_SHAPES_PARAMS } from '../protocol/protocol.js';

type Params = Record<string, string | number | boolean>;

/** The panels that draw the precinct map (ben/panels.ts): the picked graph's shapes reach them too. */
const MAP_PANELS = new Set(['plan', 'flips']);
const shapesKey = (ensemble: string) => `binlens.plan.shapes:${ensemble}`;
const shapesIdKey = (ensemble: string) => `binlens.plan.shapesId:${ensemble}`;
const graphKey = (ensemble: string) => `binlens.districts.graph:${ensemble}`;
const choiceKey = (graph: string) => `binlens.districts.choice:${graph}`;
const referenceKey = (ensemble: string) => `binlens.ensemble.reference:${ensemble}`;

/**
 * What the districts panel remembers in workspace state: the graph JSON picked for an ensemble
 * (a plain .ben/.xben carries none), and the attribute choice per graph. The host, not the
 * webview, names the graph file: the webview shows untrusted content, so it may ask for a pick
 * but never hand the engine a path of its own. Ensembles are named by their URI, graphs by the
 * engine's location of the file (or the bundle's URI for its own graph.json).
 */
export class DistrictsMemory {
  constructor(private readonly state: Pick<vscode.Memento, 'get' | 'update'> | undefined) {}

  /**
   * The panel request as the engine gets it: the ensemble's picked graph in `graph`; a choice the
   * user sent is remembered for that graph, and without one the remembered choice is filled in.
   */
  async request(ensemble: string, panel: string, params: Params): Promise<Params> {
    if (MAP_PANELS.has(panel)) return this.withGraph(ensemble, params);
    if (panel !== DISTRICTS_PARAMS.panel && panel !== ENSEMBLE_PARAMS.panel) return params;
    const out: Params = { ...params };
    delete out[DISTRICTS_PARAMS.graph];
    // The ensemble view's reference file, like the graph, is only ever the one the user picked here.
    delete out[ENSEMBLE_PARAMS.referenceFile];
    const reference = this.state?.get<string>(referenceKey(ensemble));
    if (panel === ENSEMBLE_PARAMS.panel && out[ENSEMBLE_PARAMS.reference] === 'file' && reference) out[ENSEMBLE_PARAMS.referenceFile] = reference;
    const graph = this.state?.get<string>(graphKey(ensemble));
    if (graph) out[DISTRICTS_PARAMS.graph] = graph;
    // A bundle's own graph is remembered under the bundle: its key when no file was picked.
    const key = choiceKey(graph ?? `${ensemble}#graph.json`);
    const sent = out[DISTRICTS_PARAMS.choice];
    if (typeof sent === 'string' && sent !== '') await this.state?.update(key, sent);
    else {
      const kept = this.state?.get<string>(key);
      if (kept) out[DISTRICTS_PARAMS.choice] = kept;
    }
    return out;
  }

  /**
   * The plan and flip panels draw the picked graph's precinct shapes, or those of the picked
   * FeatureCollection: their paths only, never one the webview sent. The property matching features
   * to nodes is the webview's choice, remembered per ensemble ('' after a new pick: by order).
   */
  private async withGraph(ensemble: string, params: Params): Promise<Params> {
    const { [DISTRICTS_PARAMS.graph]: _graph, [PLAN_SHAPES_PARAMS.file]: _shapes, ...out } = params;
    const graph = this.state?.get<string>(graphKey(ensemble));
    if (graph) out[DISTRICTS_PARAMS.graph] = graph;
    const shapes = this.state?.get<string>(shapesKey(ensemble));
    if (shapes) out[PLAN_SHAPES_PARAMS.file] = shapes;
    const id = out[PLAN_SHAPES_PARAMS.id];
    if (typeof id === 'string') await this.state?.update(shapesIdKey(ensemble), id);
    else {
      const kept = this.state?.get<string>(shapesIdKey(ensemble));
      if (kept) out[PLAN_SHAPES_PARAMS.id] = kept;
    }
    return out;
  }

  /** Asks for the precincts' FeatureCollection (`ask` gives the engine's location) and keeps it; features match by order until a property is chosen. */
  async pickShapes(ensemble: string, ask: () => Thenable<string | undefined>): Promise<{ picked: boolean }> {
    const location = await ask();
    if (location === undefined) return { picked: false };
    await this.state?.update(shapesKey(ensemble), location);
    await this.state?.update(shapesIdKey(ensemble), '');
    return { picked: true };
  }

  /** Asks for a reference plan file for the ensemble view (`ask` gives the engine's location) and keeps it. */
  async pickReference(ensemble: string, ask: () => Thenable<string | undefined>): Promise<{ picked: boolean }> {
    const location = await ask();
    if (location === undefined) return { picked: false };
    await this.state?.update(referenceKey(ensemble), location);
    return { picked: true };
  }

  /** Asks for the ensemble's graph (`ask` gives the engine's location of the picked file) and keeps it. */
  async pickGraph(ensemble: string, ask: () => Thenable<string | undefined>): Promise<{ picked: boolean }> {
    const location = await ask();
    if (location === undefined) return { picked: false };
    await this.state?.update(graphKey(ensemble), location);
    return { picked: true };
  }
}
