/**
 * Payloads of panels (pictures and specialised views). They are plain JSON so they cross the
 * worker and webview boundaries unchanged; the webview has one renderer per `kind`.
 */

/** Named values grouped under headings (bundle overview, footer fields...). */
export interface FieldsPanelData {
  readonly kind: 'fields';
  readonly groups: readonly {
    readonly title: string;
    readonly fields: readonly {
      readonly name: string;
      readonly value: string;
      readonly offset?: number;
      readonly length?: number;
      readonly mark?: 'warn' | 'error';
    }[];
  }[];
}

/** Preformatted text, e.g. pretty-printed JSON metadata. */
export interface TextPanelData {
  readonly kind: 'text';
  readonly language: 'json' | 'plain' | 'dot';
  readonly text: string;
}

/** Bars or lines over numeric x values; series are coloured by index from the theme's chart colours. */
export interface ChartPanelData {
  readonly kind: 'chart';
  readonly chart: 'bar' | 'line';
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly {
    readonly name: string;
    readonly points: readonly (readonly [number, number])[];
  }[];
}

/** Stages joined by arrows, one row per pipeline: codec chains, processing steps. */
export interface PipelinePanelData {
  readonly kind: 'pipeline';
  readonly pipelines: readonly {
    readonly title: string;
    /** What enters the first stage and leaves the last, e.g. "values" and "chunk bytes". */
    readonly from?: string;
    readonly to?: string;
    readonly stages: readonly { readonly name: string; readonly detail?: string; readonly mark?: 'warn' | 'error' }[];
    readonly note?: string;
    readonly mark?: 'warn' | 'error';
  }[];
}

/** A tree drawn top-down with its leaves in order along the bottom (a hash tree); marked nodes stand out. */
export interface TreePanelData {
  readonly kind: 'tree';
  readonly root: TreeDiagramNode;
  readonly caption?: string;
}

export interface TreeDiagramNode {
  readonly label: string;
  readonly detail?: string;
  readonly mark?: 'warn' | 'error';
  readonly children?: readonly TreeDiagramNode[];
}

/**
 * A state machine drawn left to right: states at layout positions (layer, row), labelled
 * edges, final states as double circles, and the selected state's details below. Clicking a
 * state sets `selectParam`; the webview pans and zooms.
 */
export interface AutomatonPanelData {
  readonly kind: 'automaton';
  readonly states: readonly {
    readonly id: string;
    readonly label: string;
    /** Layer (column) and row in the layout grid. */
    readonly layer: number;
    readonly row: number;
    readonly final: boolean;
    readonly mark?: 'selected' | 'path';
    /** The state's bytes, for "reveal bytes". */
    readonly offset?: number;
    readonly length?: number;
    /** Transitions not drawn (the view shows a part of a larger automaton). */
    readonly hidden?: number;
  }[];
  readonly edges: readonly { readonly from: string; readonly to: string; readonly label: string; readonly path?: boolean }[];
  readonly selectParam: string;
  readonly note?: string;
  /** Details of the selected state. */
  readonly details?: FieldsPanelData['groups'];
}

/**
 * A district plan (or a per-node measure) over a dual graph: a map of nodes at their positions,
 * a strip of the nodes in order, and bars of district sizes. Canvas-drawn, so 100 000+ nodes
 * stay fast.
 */
export interface PlanPanelData {
  readonly kind: 'plan';
  /** One line saying what is shown (sample, nodes, districts). */
  readonly caption: string;
  /** Node positions in stream order; absent when no graph is known (strip and sizes only). */
  readonly x?: readonly number[];
  readonly y?: readonly number[];
  /** Edges as flat pairs of node indices; sent for small graphs only. */
  readonly edges?: readonly number[];
  /** 'district': values are district ids; 'heat': values are 0..1 (how often a node flips). */
  readonly mode: 'district' | 'heat';
  /** Per node, in stream order (the map's order). */
  readonly values: readonly number[];
  /** The strip's values when it shows another node order (original order before a relabelling). */
  readonly strip?: readonly number[];
  readonly stripLabel: string;
  /** District → node count. */
  readonly sizes?: readonly (readonly [number, number])[];
  /** Previous / next / play change this numeric panel parameter. */
  readonly step?: { readonly param: string; readonly value: number; readonly min: number; readonly max?: number };
  /**
   * The precincts' shapes, when the graph carries them: sent once per map. A request whose
   * `PLAN_MAP_PARAM` names `mapKey` gets only the key (the webview still holds the shapes).
   */
  readonly map?: PlanMapData;
  readonly mapKey?: string;
  /**
   * Instead of `values` (then empty): what changed since the sample the request's
   * `PLAN_HELD_PARAM` names, the plan the webview holds. A step sends a few nodes, not all.
   */
  readonly changes?: PlanChanges;
  /**
   * The separate GeoJSON FeatureCollection the shapes come from, when there is one (a BENDL's
   * `*.geojson` asset, or the file the user picked): its name, the feature properties found (to
   * match features to nodes by; none chosen: by order) and the one in use. Absent without a graph.
   */
  readonly features?: { readonly name: string; readonly properties: readonly string[]; readonly id?: string };
  /** Whether the webview offers to pick a FeatureCollection (the host's open dialog; PLAN_SHAPES_PARAMS). */
  readonly pickShapes?: boolean;
}

/**
 * The plan panels' shapes from a FeatureCollection: `file` is only ever set by the host (the file
 * the user picked, kept per ensemble), `id` is the feature property matched to the node attribute
 * of the same name ('' or absent: feature i is node i).
 */
export const PLAN_SHAPES_PARAMS = { file: 'shapes', id: 'shapesId' } as const;

/** The nodes whose district differs from sample `from`'s plan, and their new districts. */
export interface PlanChanges {
  readonly from: number;
  readonly nodes: readonly number[];
  readonly districts: readonly number[];
}

/** The plan panel's parameter naming the map the webview already holds. */
export const PLAN_MAP_PARAM = 'mapHeld';
/** The plan panel's parameter naming the sample whose plan the webview holds (0: none). */
export const PLAN_HELD_PARAM = 'planHeld';

/** One zoom level of a plan's map (src/core/formats/ben/geo/simplify.ts MapLevel, as plain arrays). */
export interface PlanMapLevel {
  /** Grid width: points are integers in 0..cells over the map's extent; y grows north. */
  readonly cells: number;
  /** Typed arrays, not number lists: 150 000 precincts are millions of numbers, copied as bytes on the way. */
  readonly points: Int32Array;
  /** Ring r is points rings[r] ≤ p < rings[r + 1]; a ring of one point is a precinct smaller than a cell. */
  readonly rings: Uint32Array;
  readonly ringNode: Uint32Array;
}

export interface PlanMapData {
  readonly key: string;
  /** The extent's width and height over its larger side (one is 1). */
  readonly width: number;
  readonly height: number;
  /** Coarse to fine. */
  readonly levels: readonly PlanMapLevel[];
  /** What hovering a precinct shows: node ids and a few numeric attributes, by node index. */
  readonly ids: readonly string[];
  readonly columns: readonly { readonly name: string; readonly values: readonly number[] }[];
}

/**
 * One bar per item (chunks, blocks), coloured by category, with an optional inner bar (a part of
 * the whole, e.g. compressed within uncompressed size) and an optional line on a second axis.
 */
export interface BarsPanelData {
  readonly kind: 'bars';
  readonly xLabel: string;
  readonly yLabel: string;
  /** What the inner bar shows; omitted when no bar has one. */
  readonly innerLabel?: string;
  /** What the line shows, on its own axis on the right; omitted when no bar has a line value. */
  readonly lineLabel?: string;
  /** Category names; a bar's `category` indexes this list and picks its theme colour. */
  readonly categories: readonly string[];
  readonly bars: readonly {
    readonly label: string;
    readonly value: number;
    readonly inner?: number;
    readonly line?: number;
    readonly category: number;
  }[];
}

/**
 * A layered tree drawn top down (a merkle tree: the root, its levels, the leaves); every node
 * except the top row names its parent in the row above.
 */
export interface LayersPanelData {
  readonly kind: 'layers';
  readonly rows: readonly {
    readonly title: string;
    readonly nodes: readonly {
      readonly id: string;
      /** A few characters drawn in the node. */
      readonly label: string;
      /** The full description: tooltip and screen-reader text. */
      readonly detail: string;
      readonly parent?: string;
      readonly group?: number;
      readonly mark?: 'warn' | 'error';
    }[];
  }[];
  readonly note?: string;
}

/**
 * The districts of one plan measured over its dual graph's node attributes (redistricting): the
 * plan-level figures and a table with a row per district. The view lets the user change which
 * attributes are the population and the elections; it sends the choice back as JSON in the panel
 * parameter DISTRICTS_PARAMS.choice. Without a usable graph `missing` says why, and `pickGraph`
 * offers to choose one (a stream that carries none).
 */
export interface DistrictsPanelData {
  readonly kind: 'districts';
  readonly caption: string;
  readonly missing?: string;
  readonly pickGraph?: boolean;
  /** The numeric node attributes to choose from. */
  readonly attributes: readonly string[];
  /** The choice in force: the population attribute, and each election's vote attributes. */
  readonly choice: { readonly population?: string; readonly elections: readonly (readonly string[])[] };
  /** How the choice came about: guessed from the names, or the user's (perhaps remembered). */
  readonly guessed: boolean;
  readonly figures: readonly { readonly name: string; readonly value: string; readonly detail?: string }[];
  readonly columns: readonly { readonly title: string; readonly numeric: boolean }[];
  /** One row per district; the first cell is its label. */
  readonly rows: readonly (readonly string[])[];
}

/**
 * The districts panel's id and the parameters the host treats specially: it fills `graph` with the
 * file the user picked for the ensemble (the webview never names files) and remembers `choice`
 * per graph in workspace state.
 */
export const DISTRICTS_PARAMS = { panel: 'districts', graph: 'graph', choice: 'attributes' } as const;

/** A statistic's place in the ensemble: `percentile` = 100·(below + equal/2)/n (summary.ts's Placement). */
export interface EnsembleMark {
  readonly value: number;
  readonly percentile: number | null;
}

/**
 * The ensemble of plans measured over the dual graph (issue 20 item 3): histograms of plan-level
 * figures and marginal box plots (a box per district rank of sorted vote share), with a reference
 * plan marked on each. `state` 'ready' means nothing is measured yet (the view offers to run the
 * pass, which reports progress and can be cancelled); 'done' carries the plots. The view sends the
 * parameters of ENSEMBLE_PARAMS; the host fills the picked graph and reference file in.
 */
export interface EnsemblePanelData {
  readonly kind: 'ensemble';
  readonly caption: string;
  readonly missing?: string;
  readonly pickGraph?: boolean;
  readonly state: 'ready' | 'done';
  /** The numeric node attributes: a reference plan may be one of them (an enacted plan's column). */
  readonly attributes: readonly string[];
  readonly samples?: number;
  /** The plots came from the cache beside the frame index, not from a pass just now. */
  readonly cached?: boolean;
  /** The reference plan in force ('sample 12', 'attribute CD', a file's name), or why none could be used. */
  readonly reference?: { readonly name: string; readonly problem?: string };
  readonly histograms: readonly {
    readonly id: string;
    readonly title: string;
    readonly label: string;
    readonly unit: 'count' | 'fraction';
    readonly bins: readonly { readonly from: number; readonly to: number; readonly count: number }[];
    readonly n: number;
    readonly min: number | null;
    readonly median: number | null;
    readonly max: number | null;
    readonly mark?: EnsembleMark;
  }[];
  readonly boxes: readonly {
    readonly id: string;
    readonly title: string;
    readonly label: string;
    /** Rank 1 is the district with the smallest share in each plan. */
    readonly ranks: readonly {
      readonly rank: number;
      readonly n: number;
      readonly min: number;
      readonly q25: number;
      readonly median: number;
      readonly q75: number;
      readonly max: number;
      readonly mark?: EnsembleMark;
    }[];
  }[];
  /** The statistics as files (one row per statistic and rank, as `binlens stats --summary` gives them). */
  readonly exports?: { readonly csv: string; readonly jsonl: string };
}

/**
 * The ensemble panel's id and parameters: `run` asks for the pass; `reference` is '', `sample:N`,
 * `attribute:NAME` or `file` (the host fills `referenceFile` with the file the user picked: the
 * webview never names files); `graph` and `attributes` as DISTRICTS_PARAMS.
 */
export const ENSEMBLE_PARAMS = { panel: 'ensemble', run: 'run', reference: 'reference', referenceFile: 'referenceFile' } as const;

export type PanelData =
  | FieldsPanelData
  | TextPanelData
  | ChartPanelData
  | PipelinePanelData
  | TreePanelData
  | AutomatonPanelData
  | PlanPanelData
  | BarsPanelData
  | LayersPanelData
  | DistrictsPanelData
  | EnsemblePanelData;
