/**
 * BEN/XBEN/BENDL diff: the variant, then samples side by side by sample number (repeats expanded,
 * as `cat` prints them), each differing sample with the nodes whose district changed (the first
 * NODES_SHOWN, then a count), then the change in sample count. The samples come through the
 * document's strict `cat` (every integrity check on the way), two lines at a time.
 */
import type { Difference, DiffSpec, DiffSummary, FormatDocument, TaskContext } from '../../model.js';
import { catLines, Tally, zip } from '../../ops/diffKit.js';

export const NODES_SHOWN = 20;

interface SampleLine {
  readonly assignment: readonly number[];
  readonly sample: number;
}

export class BenDiff implements DiffSpec {
  constructor(private readonly doc: FormatDocument) {}

  async *run(other: FormatDocument, ctx: TaskContext): AsyncGenerator<Difference, DiffSummary> {
    const tally = new Tally();
    const va = String(this.doc.info().variant ?? 'unknown');
    const vb = String(other.info().variant ?? 'unknown');
    if (va !== vb) {
      tally.add('variant-changed');
      yield { kind: 'variant-changed', at: 'variant', text: `${va} → ${vb}`, data: { a: va, b: vb } };
    }
    let na = 0;
    let nb = 0;
    for await (const [la, lb] of zip(catLines('A', this.doc, 'jsonl', ctx), catLines('B', other, 'jsonl', ctx))) {
      if (la !== undefined) na++;
      if (lb !== undefined) nb++;
      // Same text, same sample: most samples of related ensembles are parsed never.
      if (la === undefined || lb === undefined || la === lb) continue;
      const a = JSON.parse(la) as SampleLine;
      const b = JSON.parse(lb) as SampleLine;
      const d = sampleDifference(a, b);
      if (d) {
        tally.add('sample-changed');
        yield d;
      }
    }
    tally.note('samples-a', na);
    tally.note('samples-b', nb);
    if (na !== nb) {
      tally.add('sample-count-changed');
      yield { kind: 'sample-count-changed', at: 'samples', text: `${na} → ${nb} (${na > nb ? `samples ${nb + 1}–${na} only in A` : `samples ${na + 1}–${nb} only in B`})`, data: { a: na, b: nb } };
    }
    return tally.summary();
  }
}

/** Nodes whose district differs in one sample (node numbers from 0, as in the assignment). */
export function sampleDifference(a: SampleLine, b: SampleLine): Difference | undefined {
  const nodes: { node: number; a: number | null; b: number | null }[] = [];
  let changed = 0;
  const n = Math.max(a.assignment.length, b.assignment.length);
  for (let i = 0; i < n; i++) {
    const da = a.assignment[i] ?? null;
    const db = b.assignment[i] ?? null;
    if (da === db) continue;
    changed++;
    if (nodes.length < NODES_SHOWN) nodes.push({ node: i, a: da, b: db });
  }
  if (changed === 0) return undefined;
  const more = changed - nodes.length;
  const sizes = a.assignment.length === b.assignment.length ? '' : `; ${a.assignment.length} → ${b.assignment.length} nodes`;
  const list = nodes.map((c) => `${c.node}: ${c.a ?? 'none'}→${c.b ?? 'none'}`).join(', ');
  return {
    kind: 'sample-changed',
    at: `sample ${a.sample}`,
    text: `${changed} ${changed === 1 ? 'node' : 'nodes'} changed district (${list}${more > 0 ? `, and ${more} more` : ''})${sizes}`,
    data: { sample: a.sample, changedNodes: changed, nodes, ...(sizes ? { nodesA: a.assignment.length, nodesB: b.assignment.length } : {}) },
  };
}
