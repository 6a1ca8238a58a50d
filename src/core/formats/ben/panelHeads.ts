import { lazyPanel, once, type PanelHead } from '../../lazy.js';
import type { Panel, TaskContext } from '../../model.js';
import { DISTRICTS_PARAMS, ENSEMBLE_PARAMS } from '../../views.js';
import type { Ensemble } from './ensemble.js';
import type { DualGraph } from './graph.js';
import type { SampleRun } from './pipeline.js';

/**
 * The panels of a document's plans as it lists them: their heads here, their code (panels.ts,
 * districtsPanel.ts, ensemblePanel.ts with the geometry and the statistics) loaded when one is
 * first drawn, so opening a file for `info` or a first screen does not parse it.
 */

/** What a bundle adds to the views: its graph and node relabelling, read on first use. */
export interface PlanAssets {
  graph(): Promise<DualGraph | undefined>;
  /** The bundle's graph.json as stored (CRC checked, decompressed), for the attributes the district figures sum. */
  graphJson(): Promise<Uint8Array | undefined>;
  /** Whether the bundle carries a graph.json: a plain stream's graph the user picks instead. */
  readonly hasGraph: boolean;
  permutation(): Promise<Uint32Array | undefined>;
  readonly hasPermutation: boolean;
  /** A bundle's GeoJSON FeatureCollection of the precincts (an asset named `*.geojson`), when it has one. */
  readonly shapes?: { readonly name: string; bytes(): Promise<Uint8Array | undefined> };
}

export const NO_ASSETS: PlanAssets = {
  graph: async () => undefined,
  graphJson: async () => undefined,
  hasGraph: false,
  permutation: async () => undefined,
  hasPermutation: false,
};

const SAMPLE_PARAM = { key: 'sample', label: 'Sample', type: 'number', min: 1, default: 1, description: '1-based sample number' } as const;

export function planHead(assets: PlanAssets): PanelHead {
  return {
    id: 'plan',
    title: 'Plan',
    kind: 'plan',
    params: [
      SAMPLE_PARAM,
      ...(assets.hasPermutation
        ? [
            {
              key: 'order',
              label: 'Strip order',
              type: 'choice' as const,
              choices: [
                { value: 'stored', label: 'stored (relabelled)' },
                { value: 'original', label: 'original node order' },
              ],
              default: 'stored',
            },
          ]
        : []),
    ],
  };
}

export const DISTRICTS_HEAD: PanelHead = { id: DISTRICTS_PARAMS.panel, title: 'Districts', kind: 'districts', params: [SAMPLE_PARAM] };
export const ENSEMBLE_HEAD: PanelHead = { id: ENSEMBLE_PARAMS.panel, title: 'Ensemble', kind: 'ensemble', params: [] };
export const FLIPS_HEAD: PanelHead = { id: 'flips', title: 'Flip frequency', kind: 'plan' };
export const REPEATS_HEAD: PanelHead = { id: 'repeats', title: 'Repeat counts', kind: 'chart' };

/** The plan, districts, ensemble and summary panels of one stream of plans. */
export function planPanels(
  ens: Ensemble,
  samples: (ctx: TaskContext, from: number) => AsyncIterable<SampleRun>,
  assets: PlanAssets,
  sampleCount: () => number | undefined,
): Panel[] {
  const panels = once(() => import('./panels.js'));
  // The two summary panels share one walk over the stream.
  const summaries = once(async () => (await panels()).summaryPanels(ens, assets));
  const summary = (head: PanelHead) => lazyPanel(head, async () => (await summaries()).find((p) => p.id === head.id)!);
  return [
    lazyPanel(planHead(assets), async () => (await panels()).planPanel(ens, assets, sampleCount)),
    lazyPanel(DISTRICTS_HEAD, async () => (await import('./districtsPanel.js')).districtsPanel(ens, assets, sampleCount)),
    lazyPanel(ENSEMBLE_HEAD, async () => (await import('./ensemblePanel.js')).ensemblePanel(samples, assets, sampleCount)),
    summary(FLIPS_HEAD),
    summary(REPEATS_HEAD),
  ];
}
