import { FormatError } from '../../errors.js';
import type { Panel } from '../../model.js';
import { DISTRICTS_PARAMS, type DistrictsPanelData } from '../../views.js';
import type { Ensemble } from './ensemble.js';
import { graphSource, readGraph } from './graphSource.js';
import { DISTRICTS_HEAD, type PlanAssets } from './panelHeads.js';
import { planAt } from './panels.js';
import { type AttributeChoice, choiceAttributes, electionOf, guessChoice, parseChoice } from './stats/choice.js';
import { type DistrictReport, districtReport } from './stats/districts.js';
import { type GraphJson, numericAttributes, statsGraphOf } from './stats/graph.js';
import { PlanMeasure } from './stats/measure.js';
import { districtShapes, graphBoundaries } from './geo/polsbyPopper.js';
import { type Plan, expand } from './plan.js';

const { choice: CHOICE_PARAM } = DISTRICTS_PARAMS;

/**
 * One graph's measure for one attribute choice. Kept between requests, so stepping through the
 * chain measures each plan from the one before (PlanMeasure moves only the changed nodes). The
 * parsed JSON is not kept: a graph with geometry can be hundreds of MB; a new choice reads it again.
 */
interface Loaded {
  readonly key: string;
  readonly attributes: readonly string[];
  readonly nodes: number;
  readonly edges: number;
  choiceKey: string;
  measure: PlanMeasure;
  /** Precinct shapes for Polsby-Popper, or why they cannot be used; undefined when the graph has none. */
  readonly shapes: ReturnType<typeof graphBoundaries>;
}

const empty = (caption: string, missing: string, pickGraph: boolean): DistrictsPanelData => ({
  kind: 'districts',
  caption,
  missing,
  pickGraph,
  attributes: [],
  choice: { elections: [] },
  guessed: true,
  figures: [],
  columns: [],
  rows: [],
});

/**
 * "Districts": the plan at the selected sample over the dual graph's node attributes: a row per
 * district (population, deviation from ideal, each election's votes, shares and winner) and the
 * plan-level figures (cut edges, largest deviation, seats, efficiency gap, mean-median). The graph
 * is the bundle's graph.json, else the file the host passes in `graph`.
 */
export function districtsPanel(ens: Ensemble, assets: PlanAssets, sampleCount: () => number | undefined): Panel {
  let loaded: Loaded | undefined;
  return {
    ...DISTRICTS_HEAD,
    async data(params, signal, files): Promise<DistrictsPanelData> {
      const { k, found } = await planAt(ens, params, sampleCount, signal);
      const plan = found.plan;
      const head = `sample ${k}${found.repeat > 1 ? ` (its plan repeats ${found.repeat} times)` : ''}: ${plan.nodes} nodes`;
      const source = graphSource(assets, params, files);
      if (!source) return empty(head, 'No graph: choose the graph JSON the sampler read (NetworkX adjacency or node-link) to measure the districts.', true);
      let asked: ReturnType<typeof parseChoice> | undefined;
      let choice: AttributeChoice;
      let attrs: string[];
      let current: Loaded;
      try {
        let g: GraphJson | undefined;
        if (loaded?.key !== source.key) {
          loaded = undefined;
          g = await readGraph(source);
        }
        const available = loaded?.attributes ?? numericAttributes(g!);
        const wanted = params[CHOICE_PARAM];
        asked = typeof wanted === 'string' && wanted !== '' ? parseChoice(wanted, available) : undefined;
        choice = asked?.choice ?? guessChoice(available);
        attrs = choiceAttributes(choice);
        const choiceKey = JSON.stringify(attrs);
        if (!loaded || loaded.choiceKey !== choiceKey) {
          g ??= await readGraph(source);
          const sg = statsGraphOf(g, attrs, source.name);
          // The shapes do not depend on the attribute choice: kept when only the choice changed.
          const shapes = loaded?.key === source.key ? loaded.shapes : graphBoundaries(g, source.name);
          loaded = { key: source.key, attributes: available, nodes: sg.nodes, edges: sg.edges.length / 2, choiceKey, measure: new PlanMeasure(sg), shapes };
        }
        current = loaded;
      } catch (e) {
        // A picked file that is gone or is no graph: say so and offer another pick; a cancel stays a cancel.
        if (signal?.aborted) throw e;
        const why = e instanceof FormatError ? `${e.field ? `${e.field}: ` : ''}${e.detail}` : e instanceof Error ? e.message : String(e);
        return empty(head, `The graph ${source.name} cannot be used: ${why}`, !assets.hasGraph);
      }
      if (current.nodes !== plan.nodes) {
        return empty(
          head,
          `The graph ${source.name} has ${current.nodes} nodes but this plan assigns ${plan.nodes}: it is not this ensemble's graph.`,
          !assets.hasGraph,
        );
      }
      const report = districtReport(current.measure.measure(plan, `sample ${k}`), attrs, choice);
      const dropped = asked?.dropped.length ? `; not in this graph, so left out: ${asked.dropped.join(', ')}` : '';
      return {
        kind: 'districts',
        caption: `${head}, ${report.rows.length} districts; graph: ${source.name}${dropped}`,
        pickGraph: !assets.hasGraph,
        attributes: current.attributes,
        choice,
        guessed: asked === undefined,
        ...withCompactness({ figures: figures(report, current.edges), ...table(report, choice) }, current.shapes, plan),
      };
    },
  };
}

const count = (n: number) => (Number.isInteger(n) ? n.toLocaleString('en-US') : n.toLocaleString('en-US', { maximumFractionDigits: 2 }));
const percent = (x: number, signed = false) => `${signed && x > 0 ? '+' : ''}${(x * 100).toFixed(2)} %`;

function figures(r: DistrictReport, edges: number): DistrictsPanelData['figures'] {
  const out: { name: string; value: string; detail?: string }[] = [
    { name: 'Cut edges', value: count(r.cutEdges), detail: `of ${count(edges)} edges of the graph` },
  ];
  if (r.idealPopulation !== undefined) {
    out.push({ name: 'Ideal population', value: count(r.idealPopulation), detail: 'total population over the districts' });
    out.push({ name: 'Largest population deviation', value: percent(r.maxDeviation!), detail: 'the largest |population − ideal| / ideal of any district' });
  }
  for (const e of r.elections) {
    const parties = e.election.parties;
    out.push({ name: `${e.election.name}: seats`, value: parties.map((p, i) => `${p.label} ${count(e.seats[i]!)}`).join(', ') });
    const [a, b] = parties;
    if (e.efficiencyGap !== null) {
      out.push({
        name: `${e.election.name}: efficiency gap`,
        value: percent(e.efficiencyGap, true),
        detail: `(wasted ${b!.label} − wasted ${a!.label}) / votes: positive favours ${a!.label}`,
      });
    }
    if (e.meanMedian !== null) {
      out.push({
        name: `${e.election.name}: mean-median`,
        value: percent(e.meanMedian, true),
        detail: `${a!.label}'s median district share − its mean share: positive favours ${a!.label}`,
      });
    }
    if (parties.length !== 2) out.push({ name: `${e.election.name}: efficiency gap, mean-median`, value: '—', detail: 'defined for two parties only' });
  }
  return out;
}

/**
 * The Polsby-Popper column and figures when the graph's nodes carry shapes (geo/polsbyPopper.ts):
 * 4πA/P² per district, 1 for a disc; the figure says why it is missing when shapes are unusable.
 */
function withCompactness(
  t: Pick<DistrictsPanelData, 'figures' | 'columns' | 'rows'>,
  shapes: Loaded['shapes'],
  plan: Plan,
): Pick<DistrictsPanelData, 'figures' | 'columns' | 'rows'> {
  if (!shapes) return t;
  if ('why' in shapes) return { ...t, figures: [...t.figures, { name: 'Polsby-Popper', value: '—', detail: `the node shapes cannot be used: ${shapes.why}` }] };
  const byDistrict = districtShapes(shapes.boundaries, expand(plan));
  const scores = [...byDistrict.values()].map((s) => s.polsbyPopper);
  const mean = scores.reduce((a, b) => a + b, 0) / Math.max(1, scores.length);
  return {
    figures: [
      ...t.figures,
      {
        name: 'Polsby-Popper',
        value: `mean ${mean.toFixed(3)}, lowest ${Math.min(...scores).toFixed(3)}`,
        detail: "4π·area / perimeter² of each district from its precincts' shapes: 1 for a disc, 0.785 for a square",
      },
    ],
    columns: [...t.columns, { title: 'Polsby-Popper', numeric: true }],
    rows: t.rows.map((r) => [...r, byDistrict.get(Number(r[0]))?.polsbyPopper.toFixed(3) ?? '—']),
  };
}

function table(r: DistrictReport, choice: AttributeChoice): Pick<DistrictsPanelData, 'columns' | 'rows'> {
  const elections = choice.elections.map(electionOf);
  const columns = [
    { title: 'District', numeric: false },
    ...(choice.population
      ? [
          { title: `${choice.population}`, numeric: true },
          { title: 'Deviation', numeric: true },
        ]
      : []),
    ...elections.flatMap((e) => [
      ...e.parties.flatMap((p) => [
        { title: `${e.name} ${p.label}`, numeric: true },
        { title: `${p.label} share`, numeric: true },
      ]),
      { title: `${e.name} winner`, numeric: false },
    ]),
  ];
  const rows = r.rows.map((d) => [
    String(d.label),
    ...(choice.population ? [count(d.population!), percent(d.deviation!, true)] : []),
    ...d.elections.flatMap((v, i) => [
      ...v.votes.flatMap((x, p) => [count(x), percent(v.shares[p]!)]),
      v.winner !== null ? elections[i]!.parties[v.winner]!.label : v.votes.some((x) => x > 0) ? 'tie' : '—',
    ]),
  ]);
  return { columns, rows };
}
