/**
 * Payloads of panels (pictures and specialised views). They are plain JSON so they cross the
 * worker and webview boundaries unchanged; the webview has one renderer per `kind`.
 */

/** Named values grouped under headings (bundle overview, footer fields...). */
export interface FieldsPanelData {
  readonly kind: 'fields';
  readonly groups: readonly {
    readonly title: string;
    readonly fields: readonly { readonly name: string; readonly value: string; readonly offset?: number; readonly length?: number; readonly mark?: 'warn' | 'error' }[];
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

/** A node-link drawing; positions are optional (the webview lays out the rest). */
export interface GraphPanelData {
  readonly kind: 'graph';
  readonly directed: boolean;
  readonly nodes: readonly {
    readonly id: string;
    readonly label: string;
    readonly x?: number;
    readonly y?: number;
    /** Colour group (a district, a node kind); mapped to theme chart colours. */
    readonly group?: number;
    readonly shape?: 'circle' | 'doublecircle';
    readonly mark?: 'warn' | 'error' | 'selected';
    readonly offset?: number;
  }[];
  readonly edges: readonly { readonly from: string; readonly to: string; readonly label?: string }[];
  /** Clicking a node sets this panel parameter to the node's id (e.g. "inspect this state"). */
  readonly selectParam?: string;
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

export type PanelData = FieldsPanelData | TextPanelData | ChartPanelData | GraphPanelData | BarsPanelData | LayersPanelData;
