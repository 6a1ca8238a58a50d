import { isXzMagic } from '../../codecs/xz/magic.js';
import { failFrom, field, range } from '../../describe.js';
import { lazyDiff } from '../../lazy.js';
import type { ByteSource } from '../../io/byteSource.js';
import { readUpTo } from '../../io/byteSource.js';
import type { Coverage } from '../../integrity.js';
import type { CatSpec, Check, Converter, Field, FormatDocument, OpenContext, Panel, SavedIndex, StructNode, Table, TaskContext } from '../../model.js';
import { isBendlMagic } from './bendlMagic.js';
import { countFields } from './counts.js';
import { benFramesPart } from './coverage.js';
import { PlanFeatures, streamReads } from './features.js';
import { BANNER_BYTES } from './model.js';
import type { PlanEnsemble } from './stats/source.js';
import { BenStreamView } from './streamView.js';

export async function openBen(src: ByteSource, _ctx: OpenContext): Promise<FormatDocument> {
  const head = await readUpTo(src, 0, 32);
  // Each container's code loads for a file of its kind only (CLI start, bench/RESULTS.md).
  if (isBendlMagic(head)) return (await import('./bendlDocument.js')).BendlDocument.open(src);
  if (isXzMagic(head)) return (await import('./xbenDocument.js')).XbenDocument.open(src);
  return new BenDocument(src, await BenStreamView.open(src));
}

/** A .ben stream: its frames, and the plans they hold. */
class BenDocument implements FormatDocument {
  readonly format = 'ben' as const;
  readonly title: string;
  readonly warnings: readonly Check[];
  readonly tables: readonly Table[];
  readonly converters: readonly Converter[];
  readonly panels: readonly Panel[];
  readonly cat: CatSpec;
  /** binlens diff: samples through `cat`, node by node (diff.ts). */
  readonly diff = lazyDiff(async () => new (await import('./diff.js')).BenDiff(this));
  readonly planEnsemble: PlanEnsemble;
  readonly savedIndex: SavedIndex;
  private readonly plans: PlanFeatures;

  constructor(
    private readonly src: ByteSource,
    private readonly stream: BenStreamView,
  ) {
    this.title = `BEN ${stream.variantName} stream`;
    this.savedIndex = stream.index;
    const e = stream.index.known.error;
    this.warnings = e ? [failFrom('frames', e)] : [];
    this.plans = new PlanFeatures(src, { format: 'ben', offset: 0, length: src.size }, stream.variant, stream.index, undefined);
    this.tables = [...this.plans.tables, stream.framesTable()];
    this.panels = this.plans.panels();
    const reads = streamReads(this.plans, undefined, { graphJson: () => Promise.resolve(undefined), variant: stream.variant });
    ({ cat: this.cat, planEnsemble: this.planEnsemble } = reads);
    this.converters = [...reads.converters, ...(e ? [this.plans.recoverStream()] : [])];
  }

  get summary(): readonly Field[] {
    return [
      field('variant', this.stream.variant, range(0, BANNER_BYTES), { display: this.stream.variantName }),
      ...countFields(this.plans.counts(), this.plans.partialCounts()),
      field('size', this.src.size),
    ];
  }

  countAll(ctx: TaskContext): Promise<void> {
    return this.plans.countAll(ctx);
  }

  structure(): StructNode {
    return this.stream.structure();
  }

  async *verify(ctx: TaskContext): AsyncIterable<Check> {
    // Decoding every frame is the check a BEN stream allows (it has no checksum, spec §8).
    yield* this.plans.verify(ctx);
  }

  async coverage(): Promise<Coverage> {
    return { parts: [benFramesPart(range(0, this.src.size))] };
  }

  info(): Record<string, unknown> {
    return { container: 'ben', ...this.stream.info() };
  }
}
