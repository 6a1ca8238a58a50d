import { fail, pass, plural } from '../../describe.js';
import { FormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import { lazyDiff } from '../../lazy.js';
import type { CacheMemory, CatSpec, Check, Converter, DiffSpec, FormatDocument, Panel, Table, TaskContext } from '../../model.js';
import type { AssetInput } from './bendlWrite.js';
import { streamConverters } from './converters.js';
import { Ensemble } from './ensemble.js';
import { benMemory } from './memory.js';
import type { FrameIndex } from './frameIndex.js';
import type { Variant } from './model.js';
import { NO_ASSETS, type PlanAssets, planPanels } from './panelHeads.js';
import { type SampleRun, writeStream } from './pipeline.js';
import { checkedSamples, damagedStreamCat } from './salvage.js';
import { type WholeStreamDamage, catSpec, samplesTable } from './samplesView.js';
import { countXbenStream, type StreamLocation } from './stream.js';
import type { StreamCounts } from './counts.js';
import { type DecodeOutcome, verifyDecode } from './verifyStream.js';
import type { KnownXzFailure } from './xzView.js';
import type { PlanEnsemble } from './stats/source.js';

/** A check over the whole stream that its container makes (a BENDL stream CRC32C) before any sample leaves. */
export interface StreamGate {
  /**
   * Reports what the container's checks found damaged (`reportDamage`: a strict caller stops)
   * before any sample leaves; false when, salvaging, no sample of the stream may leave.
   */
  check(ctx: TaskContext): Promise<boolean>;
  /** The whole-stream damage, for the samples table to mark every sample. */
  readonly wholeStream: WholeStreamDamage;
}

/**
 * Everything a document shows and does with its plans, whatever holds them (.ben, .xben or a
 * bundle): the samples table, `cat`, the plan and ensemble views, decode verification and the
 * conversions. The document adds its container's structure, summary and checks.
 */
export class PlanFeatures {
  readonly ensemble: Ensemble;
  private counted: DecodeOutcome | undefined;

  constructor(
    readonly src: ByteSource,
    readonly loc: StreamLocation,
    readonly variant: Variant,
    index: FrameIndex | undefined,
    /** The header's sample count when it can be trusted (a finalized bundle): no scan needed. */
    private readonly declared: number | undefined,
    private readonly assets: PlanAssets = NO_ASSETS,
    private readonly gate?: StreamGate,
  ) {
    this.ensemble = new Ensemble(src, loc, variant, index);
  }

  /** Samples known so far and whether that is all of them. */
  sampleCount(): { known: number; complete: boolean } {
    if (this.declared !== undefined) return { known: this.declared, complete: true };
    const idx = this.ensemble.index;
    if (idx) return { known: idx.known.samples, complete: idx.known.complete };
    return this.counted ? { known: this.counted.samples, complete: true } : { known: 0, complete: false };
  }

  /**
   * Frames and samples as far as they are known exactly: a BEN stream's once its frame index
   * reached the end, an XBEN stream's once a decode (verify, a count) went through it.
   */
  counts(): StreamCounts {
    const idx = this.ensemble.index;
    const done = idx ? (idx.known.complete ? idx.known : undefined) : this.counted;
    const samples = done ? done.samples : (this.declared ?? null);
    return { frames: done ? done.frames : null, samples, counted: done !== undefined };
  }

  /** Frames and samples counted so far while a count runs (BEN), for "≥ n" in the summary. */
  partialCounts(): { frames: number; samples: number } | undefined {
    return this.ensemble.index?.known;
  }

  /**
   * Counts frames and samples: every frame header of a BEN stream; the frames of an XBEN one
   * without making plans where that is possible, else (TwoDelta, damage) by decoding it.
   */
  async countAll(ctx: TaskContext): Promise<void> {
    if (!this.ensemble.index && !this.counted) {
      const quick = await countXbenStream(this.src, this.loc, ctx.signal);
      if (quick) this.counted = quick;
    }
    await this.readable(ctx);
  }

  /** Completes the count: frame headers for BEN, a full decode for XBEN. */
  async count(ctx: TaskContext): Promise<number> {
    if (this.declared !== undefined) return this.declared;
    return (await this.readable(ctx)).samples;
  }

  /** How far the stream reads: complete samples, and the error that stops it if any. */
  async readable(ctx: TaskContext): Promise<{ samples: number; error?: FormatError }> {
    const idx = this.ensemble.index;
    if (idx) {
      await idx.scanToEnd(ctx);
      return { samples: idx.known.samples, error: idx.known.error };
    }
    if (!this.counted) {
      const run = verifyDecode(this.src, this.loc, ctx);
      let r = await run.next();
      while (!r.done) r = await run.next();
      this.counted = r.value;
    }
    return this.counted;
  }

  /**
   * The samples from 0-based `from` as every read path hands them out (cat, conversions,
   * Recover): after the container's checks, from checked bytes, damage reported (salvage.ts).
   */
  async *samples(ctx: TaskContext, from = 0): AsyncGenerator<SampleRun> {
    if (this.gate && !(await this.gate.check(ctx))) return;
    yield* checkedSamples(this.ensemble.from(from, ctx.signal), ctx, from, this.totalSamples());
  }

  /** The error a finished count or verify met (a failed xz block check), without reading anything; for the tree. */
  get knownError(): FormatError | undefined {
    const idx = this.ensemble.index;
    return idx ? idx.known.error : this.counted?.error;
  }

  /** `knownError` as a tree node's note. */
  get knownErrorNote(): string | undefined {
    const e = this.knownError;
    return e && `${e.field ? `${e.field}: ` : ''}${e.detail}`;
  }

  /** `knownError` as the xz tree marks it: the note, and where liblzma's input stood. */
  get knownFailure(): KnownXzFailure | undefined {
    const e = this.knownError;
    return e && { note: this.knownErrorNote!, offset: e.offset };
  }

  /** The stream's sample count when known for sure: not where a count stopped at damage. */
  private totalSamples(): number | undefined {
    if (this.declared !== undefined) return this.declared;
    const idx = this.ensemble.index;
    if (idx) return idx.known.complete && !idx.known.error ? idx.known.samples : undefined;
    return this.counted && !this.counted.error ? this.counted.samples : undefined;
  }

  get tables(): Table[] {
    return [samplesTable({ ens: this.ensemble, count: () => this.sampleCount(), finish: (ctx) => this.count(ctx), wholeStream: this.gate?.wholeStream })];
  }

  get cat(): CatSpec {
    return catSpec((ctx, from) => this.samples(ctx, from));
  }

  panels(): Panel[] {
    const total = () => {
      const c = this.sampleCount();
      return c.complete ? c.known : undefined;
    };
    const panels = planPanels(this.ensemble, (ctx, from) => this.samples(ctx, from), this.assets, total);
    const gate = this.gate;
    if (!gate) return panels;
    // A plot or a plan drawn from a stream whose checksum fails would show damaged values as good.
    return panels.map((p) => ({
      ...p,
      data: async (params, signal, files) => {
        const d = await gate.wholeStream(signal);
        if (d) throw new FormatError(d.code ?? 'checksum', `${d.detail}; the samples table shows them, marked`, { offset: d.offset, field: d.unit });
        return p.data(params, signal, files);
      },
    }));
  }

  /** Decodes every frame; remembers the count so the table and the sample-count check need no second pass. */
  async *verify(ctx: TaskContext): AsyncGenerator<Check, DecodeOutcome> {
    const outcome = yield* verifyDecode(this.src, this.loc, ctx);
    this.counted = outcome;
    return outcome;
  }

  converters(keptAssets?: (ctx: TaskContext) => Promise<AssetInput[]>): Converter[] {
    return streamConverters((ctx) => this.samples(ctx), this.variant, keptAssets);
  }

  /**
   * "Recover" for a stream that breaks: the samples every read path hands out, as a new stream
   * of the same kind. It is salvage (one code path): run strict, it stops at the damage like
   * any conversion; the viewer runs it salvaging, and what it leaves out is listed.
   */
  recoverStream(): Converter {
    return {
      id: 'recover',
      label: `Recover: the samples before the damage, as a new ${this.loc.format.toUpperCase()} file`,
      extension: `.recovered.${this.loc.format}`,
      output: 'file',
      run: async (target, ctx) => {
        const r = await writeStream(this.samples(ctx), await target.file(), { format: this.loc.format, variant: this.variant }, ctx);
        return { summary: `${plural(r.samples, 'complete sample')} recovered into ${r.bytes} bytes` };
      },
    };
  }
}

/**
 * What a BEN document (.ben, .xben or a bundle) has from its stream of plans: `cat`, the plans
 * stats and diff take, the conversions, and the diff itself.
 */
export interface StreamReads {
  readonly format: 'ben';
  readonly cat?: CatSpec;
  readonly planEnsemble?: PlanEnsemble;
  readonly converters: Converter[];
  /** binlens diff: samples through `cat`, node by node (diff.ts). */
  readonly diff: DiffSpec;
  /** A parked XBEN decode, what the memory budget can end (memory.ts). */
  readonly memory?: CacheMemory;
}

/** What the read paths take from their document. */
interface ReadsOptions {
  readonly graphJson: () => Promise<Uint8Array | undefined>;
  readonly variant: Variant;
  readonly kept?: (ctx: TaskContext) => Promise<AssetInput[]>;
  /** The document the reads are part of: what its diff compares. */
  readonly document: () => FormatDocument;
}

type SampleSource = (ctx: TaskContext) => AsyncGenerator<SampleRun>;

/**
 * The read paths of a .ben, an .xben or a bundle's stream, in one place: through its plans; or, for
 * a stream that fails before its first sample (`none`: noSamples in salvage.ts), each reporting
 * that damage; or none at all.
 */
export function streamReads(plans: PlanFeatures, none: undefined, opts: ReadsOptions): Required<StreamReads>;
export function streamReads(plans: PlanFeatures | undefined, none: SampleSource | undefined, opts: ReadsOptions): StreamReads;
export function streamReads(plans: PlanFeatures | undefined, none: SampleSource | undefined, opts: ReadsOptions): StreamReads {
  const diff = lazyDiff(async () => new (await import('./diff.js')).BenDiff(opts.document()));
  return { format: 'ben', diff, ...readPaths(plans, none, opts) };
}

function readPaths(plans: PlanFeatures | undefined, none: SampleSource | undefined, opts: ReadsOptions): Omit<StreamReads, 'format' | 'diff'> {
  if (plans)
    return {
      cat: plans.cat,
      planEnsemble: { samples: (ctx, from) => plans.samples(ctx, from), graphJson: opts.graphJson },
      converters: plans.converters(opts.kept),
      memory: benMemory(plans.ensemble),
    };
  if (!none) return { cat: undefined, planEnsemble: undefined, converters: [] };
  return {
    cat: damagedStreamCat(none),
    planEnsemble: { samples: none, graphJson: opts.graphJson },
    converters: streamConverters(none, opts.variant, opts.kept),
  };
}

/** The check every finalized bundle makes once the stream is decoded (spec §6 verify_sample_count). */
export function sampleCountCheck(declared: bigint, decoded: number): Check {
  return BigInt(decoded) === declared
    ? pass('sample count', `${decoded} samples, as the header says`, 56)
    : fail('sample count', `header says ${declared}, the stream holds ${decoded}`, 56, 'sample count');
}
