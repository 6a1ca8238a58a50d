import type { PlanMapData } from '../../../views.js';
import { type GraphJson, numericAttributes } from '../stats/graph.js';
import type { Precincts } from './geometry.js';
import { project } from './project.js';
import { extentOf, mapLevels } from './simplify.js';

/** Hover shows this many numeric attributes at most: enough for population and an election or two. */
const HOVER_COLUMNS = 6;

/** The map the webview draws: the levels (typed arrays), node ids and a few attributes for hover. */
export function planMapData(p: Precincts, g: GraphJson, key: string): PlanMapData {
  const { xy } = project(p.xy);
  const e = extentOf(xy);
  const nodes = g.json.nodes;
  const idOf = (n: unknown, i: number) => {
    const id = n !== null && typeof n === 'object' && 'id' in n ? (n as { id: unknown }).id : i;
    return typeof id === 'string' ? id : JSON.stringify(id ?? i);
  };
  return {
    key,
    width: e.width / e.size,
    height: e.height / e.size,
    levels: mapLevels(p, xy, e),
    ids: nodes.map(idOf),
    columns: numericAttributes(g)
      .slice(0, HOVER_COLUMNS)
      .map((name) => ({ name, values: nodes.map((n) => (n as Record<string, number>)[name]!) })),
  };
}
