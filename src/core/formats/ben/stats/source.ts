import type { FormatDocument, TaskContext } from '../../../model.js';
import type { SampleRun } from '../pipeline.js';

/** What statistics need from a ben-family document: its checked samples, and its graph if it carries one. */
export interface PlanEnsemble {
  /** The samples from 0-based `from`, from the one checked path cat takes (salvage.ts). */
  samples(ctx: TaskContext, from: number): AsyncIterable<SampleRun>;
  /** The graph.json a BENDL carries (CRC checked, decompressed); undefined for plain streams. */
  graphJson(): Promise<Uint8Array | undefined>;
}

/** The document's plans, when it holds district plans (.ben, .xben, .bendl). */
export function planEnsembleOf(doc: FormatDocument): PlanEnsemble | undefined {
  return doc.format === 'ben' ? (doc as FormatDocument & { readonly planEnsemble?: PlanEnsemble }).planEnsemble : undefined;
}
