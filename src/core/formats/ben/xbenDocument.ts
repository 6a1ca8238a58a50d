import { XZ_STREAM_HEADER, readStreamHeader, readXzLayout, checkName, type XzLayout } from '../../codecs/xz/container.js';
import { errorNode, failFrom, field, info, leaf, range } from '../../describe.js';
import { lazyDiff } from '../../lazy.js';
import { FormatError, rethrowUnlessFormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { Coverage } from '../../integrity.js';
import type { CatSpec, Check, Converter, Field, FormatDocument, Panel, StructNode, Table, TaskContext } from '../../model.js';
import { countFields } from './counts.js';
import { xzParts } from './coverage.js';
import { PlanFeatures, streamReads } from './features.js';
import { noSamples } from './salvage.js';
import { VARIANT_NAMES, type Variant } from './model.js';
import type { PlanEnsemble } from './stats/source.js';
import { readFrames, type StreamLocation } from './stream.js';
import { verifyXz, xzStructure } from './xzView.js';

/** An .xben: the xz container's structure, and the plans of the BEN32 or TwoDelta body inside. */
export class XbenDocument implements FormatDocument {
  readonly format = 'ben' as const;
  readonly title: string;
  readonly tables: readonly Table[];
  readonly converters: readonly Converter[];
  readonly panels: readonly Panel[];
  readonly cat: CatSpec | undefined;
  /** binlens diff: samples through `cat`, node by node (diff.ts). */
  readonly diff = lazyDiff(async () => new (await import('./diff.js')).BenDiff(this));
  readonly planEnsemble: PlanEnsemble | undefined;
  private readonly plans: PlanFeatures | undefined;

  private constructor(
    private readonly src: ByteSource,
    private readonly layout: XzLayout | undefined,
    private readonly layoutError: FormatError | undefined,
    private readonly checkType: number,
    private readonly variant: Variant | undefined,
    private readonly bodyError: FormatError | undefined,
  ) {
    const loc: StreamLocation = { format: 'xben', offset: 0, length: src.size };
    this.plans = variant ? new PlanFeatures(src, loc, variant, undefined, undefined) : undefined;
    this.title = `XBEN ${variant ? `${VARIANT_NAMES[variant]} ` : ''}(xz-compressed BEN stream)`;
    this.tables = this.plans?.tables ?? [];
    this.panels = this.plans?.panels() ?? [];
    // A body that fails before its first sample: cat and the conversions report it as damage.
    const none = this.plans || !bodyError ? undefined : noSamples(bodyError, range(0, src.size));
    const reads = streamReads(this.plans, none, { graphJson: () => Promise.resolve(undefined), variant: 'mkv_chain' });
    ({ cat: this.cat, planEnsemble: this.planEnsemble } = reads);
    const broken = layoutError !== undefined || bodyError !== undefined;
    this.converters = [...reads.converters, ...(this.plans && broken ? [this.plans.recoverStream()] : [])];
  }

  static async open(src: ByteSource): Promise<XbenDocument> {
    const header = await readStreamHeader(src, 0);
    let layout: XzLayout | undefined;
    let layoutError: FormatError | undefined;
    try {
      layout = await readXzLayout(src);
    } catch (e) {
      rethrowUnlessFormatError(e);
      layoutError = e;
    }
    // The banner is the first 17 decompressed bytes: one xz block start tells the variant.
    let variant: Variant | undefined;
    let bodyError: FormatError | undefined;
    try {
      const opened = await readFrames(src, { format: 'xben', offset: 0, length: src.size }, { unchecked: true });
      await opened.close();
      variant = opened.variant;
    } catch (e) {
      rethrowUnlessFormatError(e);
      bodyError = e;
    }
    return new XbenDocument(src, layout, layoutError, header.checkType, variant, bodyError);
  }

  get warnings(): readonly Check[] {
    return [
      ...(this.layoutError ? [failFrom('xz container', this.layoutError)] : []),
      ...(this.bodyError ? [failFrom('body', this.bodyError)] : []),
      info('random access', 'an .xben is read from the start for every look past the last one: Convert → BEN stream for random access'),
    ];
  }

  get summary(): readonly Field[] {
    const l = this.layout;
    return [
      field('container', 'xz', XZ_STREAM_HEADER.span('magic', 'crc'), { display: 'xz (LZMA2), BEN32 or TwoDelta body inside' }),
      field('variant', this.variant ?? null, undefined, { display: this.variant ? VARIANT_NAMES[this.variant] : 'unknown (body unreadable)' }),
      ...(this.plans ? countFields(this.plans.counts()) : [field('samples', null, undefined, { display: 'unknown' })]),
      field('integrity check', this.checkType, XZ_STREAM_HEADER.range('flags'), { display: checkName(this.checkType) }),
      field('streams', l ? l.streams.length : null, undefined, { display: l ? String(l.streams.length) : 'unknown (no index)' }),
      field('blocks', l ? l.streams.reduce((n, s) => n + s.blocks.length, 0) : null, undefined, { display: l ? undefined : 'unknown (no index)' }),
      field('uncompressed bytes', l ? l.uncompressedSize : null, undefined, { display: l ? undefined : 'unknown (no index)' }),
      field('compressed bytes', this.src.size),
    ];
  }

  /** Decodes the stream (XBEN has no frame index): the count a full decode gives, as verify does. */
  async countAll(ctx: TaskContext): Promise<void> {
    await this.plans?.countAll(ctx);
  }

  structure(): StructNode {
    if (this.layout) return xzStructure(this.src, this.layout, 'XBEN (xz container)', () => this.plans?.knownFailure);
    return {
      label: 'XBEN (xz container)',
      range: range(0, this.src.size),
      children: [leaf('stream header', checkName(this.checkType), XZ_STREAM_HEADER.span('magic', 'crc')), errorNode(this.layoutError, 'index and footer')],
    };
  }

  async *verify(ctx: TaskContext): AsyncIterable<Check> {
    if (this.layout) yield* verifyXz(this.src, this.layout);
    else yield failFrom('xz container', this.layoutError);
    if (this.plans) yield* this.plans.verify(ctx);
    else yield failFrom('body', this.bodyError);
  }

  async coverage(): Promise<Coverage> {
    return { parts: await xzParts(this.src, this.layout, range(0, this.src.size)) };
  }

  info(): Record<string, unknown> {
    const l = this.layout;
    return {
      container: 'xben',
      variant: this.variant ?? null,
      ...(this.plans?.counts() ?? { frames: null, samples: null, counted: false }),
      check: checkName(this.checkType),
      streams: l?.streams.length ?? null,
      blocks: l ? l.streams.reduce((n, s) => n + s.blocks.length, 0) : null,
      uncompressedSize: l?.uncompressedSize ?? null,
      error: (this.layoutError ?? this.bodyError)?.message,
    };
  }
}
