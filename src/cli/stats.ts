import { readFile } from 'node:fs/promises';
import { FormatError, rethrowUnlessFormatError } from '../core/errors.js';
import type { AttributeChoice } from '../core/formats/ben/stats/choice.js';
import { parseStatsGraph, type StatsGraph } from '../core/formats/ben/stats/graph.js';
import { StatsInputError } from '../core/formats/ben/stats/measure.js';
import { parseReferencePlan } from '../core/formats/ben/stats/reference.js';
import { type ReferencePlan, runStats } from '../core/formats/ben/stats/run.js';
import { type PlanEnsemble, planEnsembleOf } from '../core/formats/ben/stats/source.js';
import { EXIT_FAILED, EXIT_OK, EXIT_UNREADABLE, UsageError, withDocument } from './files.js';
import { stdoutSink } from './stdout.js';

export interface StatsArgs {
  readonly graph?: string;
  readonly sums: readonly string[];
  readonly format?: string;
  readonly from?: number;
  readonly count?: number;
  readonly summary: boolean;
  readonly reference?: string;
  /** Summary only: the plan figures for this population attribute and these elections (D,R[,…] each). */
  readonly population?: string;
  readonly elections?: readonly string[];
  readonly as?: string;
}

/**
 * `binlens stats`: exit 0 when every selected sample was measured; 1 when damaged data stopped
 * it (the lines before the damage stay written, as with cat); 2 for input that cannot be used
 * (unreadable file, a graph that does not fit the plans, a missing or non-numeric attribute),
 * found before anything is written.
 */
export async function statsCommand(path: string, args: StatsArgs): Promise<number> {
  if (args.sums.length === 0) throw new UsageError('stats needs at least one --sum ATTR');
  const twice = args.sums.find((a, i) => args.sums.indexOf(a) !== i);
  if (twice !== undefined) throw new UsageError(`--sum ${twice} is given twice`);
  const format = args.format ?? 'jsonl';
  if (format !== 'jsonl' && format !== 'csv') throw new UsageError(`--format ${format}: stats prints jsonl or csv`);
  // A reference is placed in the ensemble's distributions, so it asks for the summary.
  const summary = args.summary || args.reference !== undefined;
  if (summary && args.format !== undefined) throw new UsageError('--summary prints one JSON object; --format is for the per-sample lines');
  const figures = figuresOf(args, summary);
  return withDocument(path, args.as, async (doc) => {
    const ensemble = planEnsembleOf(doc);
    if (!ensemble) throw new UsageError(`${path}: ${doc.title} holds no district plans (stats reads .ben, .xben, .bendl)`);
    try {
      const graph = await loadGraph(path, ensemble, args);
      const reference = args.reference === undefined ? undefined : await loadReference(args.reference);
      await runStats(
        ensemble,
        { graph, attributes: args.sums, from: args.from, count: args.count, output: summary ? 'summary' : format, reference, figures },
        stdoutSink,
      );
      return EXIT_OK;
    } catch (e) {
      rethrowUnlessFormatError(e, 'cancelled');
      if (e instanceof StatsInputError || e.code === 'unsupported' || e.code === 'limit') {
        console.error(`binlens: ${e.message}`);
        return EXIT_UNREADABLE;
      }
      console.error(`binlens: ${path} (${doc.format}): damaged: ${e.message}`);
      console.error(`binlens: statistics stop at the damage; ${summary ? 'no summary was written' : 'nothing after it was written'}`);
      return EXIT_FAILED;
    }
  });
}

/** --population and --election: the plan figures the summary adds; the per-sample lines stay sums. */
function figuresOf(args: StatsArgs, summary: boolean): AttributeChoice | undefined {
  const elections = (args.elections ?? []).map((e) => e.split(',').map((a) => a.trim()));
  if (args.population === undefined && elections.length === 0) return undefined;
  if (!summary) throw new UsageError('--population and --election add figures to --summary; the per-sample lines are sums (--sum)');
  const short = elections.find((e) => e.length < 2 || e.includes(''));
  if (short) throw new UsageError(`--election ${short.join(',')}: name two or more vote attributes, separated by commas`);
  return { population: args.population, elections };
}

/** The attributes the graph must carry: the sums first (they are printed by index), then the figures'. */
function graphAttributes(args: StatsArgs): string[] {
  const figures = [...(args.population === undefined ? [] : [args.population]), ...(args.elections ?? []).flatMap((e) => e.split(',').map((a) => a.trim()))];
  return [...args.sums, ...new Set(figures.filter((a) => !args.sums.includes(a)))];
}

/** --graph, or the graph the bundle carries; its errors are unusable input (exit 2), not damage. */
async function loadGraph(path: string, ensemble: PlanEnsemble, args: StatsArgs): Promise<StatsGraph> {
  const text = args.graph !== undefined ? await readFile(args.graph, 'utf8') : await bundledGraph(ensemble);
  if (text === undefined) throw new UsageError(`${path} carries no graph: give one with --graph GRAPH.json`);
  try {
    return parseStatsGraph(text, graphAttributes(args), args.graph ?? `${path} graph.json`);
  } catch (e) {
    throw e instanceof FormatError && !(e instanceof StatsInputError) ? new StatsInputError(e.code, e.detail, { offset: e.offset, field: e.field }) : e;
  }
}

async function bundledGraph(ensemble: PlanEnsemble): Promise<string | undefined> {
  const bytes = await ensemble.graphJson();
  return bytes && new TextDecoder().decode(bytes);
}

/** PLAN: a sample number of the ensemble, or a JSON/JSONL file holding one assignment. */
async function loadReference(plan: string): Promise<ReferencePlan> {
  if (/^\d+$/.test(plan)) return { sample: Number(plan) };
  try {
    return { name: plan, plan: parseReferencePlan(await readFile(plan, 'utf8'), plan) };
  } catch (e) {
    throw e instanceof FormatError ? new StatsInputError(e.code, e.detail, { offset: e.offset, field: e.field }) : e;
  }
}
