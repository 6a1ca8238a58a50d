/**
 * BEN/XBEN/BENDL diff: the variant, then samples side by side by sample number (repeats expanded,
 * as `cat` prints them), each differing sample with the nodes whose district changed (the first
 * NODES_SHOWN, then a count), then the change in sample count.
 *
 * The samples come from the one checked path `cat` takes (salvage.ts), as plans: two plans are
 * compared run by run and a repeated plan once for all its samples, so a pair of 1 GB streams
 * diffs in seconds, where expanding every node to JSONL took half an hour (bench/RESULTS.md, BEN).
 * A document without plans to offer falls back to its `cat` lines, two at a time.
 */
import type { Difference, DiffSpec, DiffSummary, FormatDocument, TaskContext } from '../../model.js';
import { catLines, DiffSideError, Tally, zip, type DiffSide } from '../../ops/diffKit.js';
import type { SampleRun } from './pipeline.js';
import type { Plan } from './plan.js';
import { planEnsembleOf } from './stats/source.js';

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
    const ea = planEnsembleOf(this.doc);
    const eb = planEnsembleOf(other);
    const [na, nb] =
      ea && eb ? yield* diffPlans(sided('A', ea.samples(ctx, 0)), sided('B', eb.samples(ctx, 0)), tally) : yield* diffLines(this.doc, other, tally, ctx);
    tally.note('samples-a', na);
    tally.note('samples-b', nb);
    if (na !== nb) {
      tally.add('sample-count-changed');
      yield {
        kind: 'sample-count-changed',
        at: 'samples',
        text: `${na} → ${nb} (${na > nb ? `samples ${nb + 1}–${na} only in A` : `samples ${na + 1}–${nb} only in B`})`,
        data: { a: na, b: nb },
      };
    }
    return tally.summary();
  }
}

/** What a failure while reading one side's plans says: which file. */
async function* sided(side: DiffSide, runs: AsyncIterable<SampleRun>): AsyncGenerator<SampleRun> {
  try {
    yield* runs;
  } catch (e) {
    throw e instanceof DiffSideError ? e : new DiffSideError(side, e);
  }
}

/**
 * Samples side by side as plans: each stretch of samples where both files repeat one plan is
 * compared once. A decoder reuses its plan buffer, so a side moves on only once its run is used up.
 * Returns the sample counts.
 */
async function* diffPlans(a: AsyncGenerator<SampleRun>, b: AsyncGenerator<SampleRun>, tally: Tally): AsyncGenerator<Difference, [number, number]> {
  let ra = await a.next();
  let rb = await b.next();
  let leftA = ra.done ? 0 : ra.value.count;
  let leftB = rb.done ? 0 : rb.value.count;
  let sample = 1;
  while (!ra.done && !rb.done) {
    const step = Math.min(leftA, leftB);
    const changes = planChanges(ra.value.plan, rb.value.plan);
    for (let k = 0; changes && k < step; k++) {
      tally.add('sample-changed');
      yield difference(sample + k, changes);
    }
    sample += step;
    leftA -= step;
    leftB -= step;
    if (leftA === 0 && !(ra = await a.next()).done) leftA = ra.value.count;
    if (leftB === 0 && !(rb = await b.next()).done) leftB = rb.value.count;
  }
  // The longer file's remaining samples are read to the end too: counted, and checked on the way.
  let na = sample - 1 + leftA;
  let nb = sample - 1 + leftB;
  for (let r = await a.next(); !ra.done && !r.done; r = await a.next()) na += r.value.count;
  for (let r = await b.next(); !rb.done && !r.done; r = await b.next()) nb += r.value.count;
  return [na, nb];
}

/** Samples side by side as `cat` lines; returns the sample counts. */
async function* diffLines(a: FormatDocument, b: FormatDocument, tally: Tally, ctx: TaskContext): AsyncGenerator<Difference, [number, number]> {
  let na = 0;
  let nb = 0;
  for await (const [la, lb] of zip(catLines('A', a, 'jsonl', ctx), catLines('B', b, 'jsonl', ctx))) {
    if (la !== undefined) na++;
    if (lb !== undefined) nb++;
    // Same text, same sample: most samples of related ensembles are parsed never.
    if (la === undefined || lb === undefined || la === lb) continue;
    const d = sampleDifference(JSON.parse(la) as SampleLine, JSON.parse(lb) as SampleLine);
    if (d) {
      tally.add('sample-changed');
      yield d;
    }
  }
  return [na, nb];
}

/** The nodes whose district differs between two plans of one sample: all counted, the first NODES_SHOWN listed. */
interface Changes {
  readonly changed: number;
  readonly nodes: readonly { node: number; a: number | null; b: number | null }[];
  readonly nodesA: number;
  readonly nodesB: number;
}

/**
 * Two plans compared run by run, in node order: no node is expanded, and plans that split their
 * runs differently (at 65535, or a value repeated in two runs) are still equal when their nodes are.
 */
export function planChanges(a: Plan, b: Plan): Changes | undefined {
  if (a.runs === b.runs && sameRuns(a, b)) return undefined;
  const nodes: { node: number; a: number | null; b: number | null }[] = [];
  let changed = 0;
  const list = (from: number, n: number, va: number | null, vb: number | null) => {
    changed += n;
    for (let k = 0; k < n && nodes.length < NODES_SHOWN; k++) nodes.push({ node: from + k, a: va, b: vb });
  };
  let ia = 0;
  let ib = 0;
  let leftA = a.runs > 0 ? a.lengths[0]! : 0;
  let leftB = b.runs > 0 ? b.lengths[0]! : 0;
  let node = 0;
  while (ia < a.runs && ib < b.runs) {
    const step = Math.min(leftA, leftB);
    const va = a.values[ia]!;
    const vb = b.values[ib]!;
    if (va !== vb) list(node, step, va, vb);
    node += step;
    leftA -= step;
    leftB -= step;
    // Zero-length runs (final padding) fall through here as steps of 0.
    if (leftA === 0 && ++ia < a.runs) leftA = a.lengths[ia]!;
    if (leftB === 0 && ++ib < b.runs) leftB = b.lengths[ib]!;
  }
  // Nodes only one plan has: districts against none.
  for (; ia < a.runs; leftA = ++ia < a.runs ? a.lengths[ia]! : 0) (list(node, leftA, a.values[ia]!, null), (node += leftA));
  for (; ib < b.runs; leftB = ++ib < b.runs ? b.lengths[ib]! : 0) (list(node, leftB, null, b.values[ib]!), (node += leftB));
  return changed === 0 ? undefined : { changed, nodes, nodesA: a.nodes, nodesB: b.nodes };
}

function sameRuns(a: Plan, b: Plan): boolean {
  for (let i = 0; i < a.runs; i++) if (a.values[i] !== b.values[i] || a.lengths[i] !== b.lengths[i]) return false;
  return true;
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
  return changed === 0 ? undefined : difference(a.sample, { changed, nodes, nodesA: a.assignment.length, nodesB: b.assignment.length });
}

function difference(sample: number, c: Changes): Difference {
  const more = c.changed - c.nodes.length;
  const sizes = c.nodesA === c.nodesB ? '' : `; ${c.nodesA} → ${c.nodesB} nodes`;
  const list = c.nodes.map((n) => `${n.node}: ${n.a ?? 'none'}→${n.b ?? 'none'}`).join(', ');
  return {
    kind: 'sample-changed',
    at: `sample ${sample}`,
    text: `${c.changed} ${c.changed === 1 ? 'node' : 'nodes'} changed district (${list}${more > 0 ? `, and ${more} more` : ''})${sizes}`,
    data: { sample, changedNodes: c.changed, nodes: c.nodes, ...(sizes ? { nodesA: c.nodesA, nodesB: c.nodesB } : {}) },
  };
}
