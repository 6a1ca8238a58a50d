import type { DiffSpec, Panel } from './model.js';

/**
 * Panels and diffs whose code loads on first use. A document lists its panels and offers a diff at
 * open, but draws or runs them only when asked: `binlens info` and the viewer's first screen then
 * neither compile nor initialise the plotting, geometry, statistics or diff modules.
 */

/** What a panel list shows before the panel's code loads: all but `data`. */
export type PanelHead = Omit<Panel, 'data'>;

/** A panel with this head whose code `load` brings, once, when it is first drawn (again after a failed load). */
export function lazyPanel(head: PanelHead, load: () => Promise<Panel>): Panel {
  const panel = once(load);
  return { ...head, data: async (params, signal, host) => (await panel()).data(params, signal, host) };
}

/** The diff `load` brings, once, when a diff first runs. */
export function lazyDiff(load: () => Promise<DiffSpec>): DiffSpec {
  const diff = once(load);
  return {
    async *run(other, ctx, options) {
      return yield* (await diff()).run(other, ctx, options);
    },
  };
}

/** `load`'s promise, shared by every caller; a rejected load is tried again by the next one. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () =>
    (p ??= load().catch((e: unknown) => {
      p = undefined;
      throw e;
    }));
}
