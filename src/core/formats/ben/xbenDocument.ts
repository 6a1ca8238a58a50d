import { XZ_STREAM_HEADER, readStreamHeader, readXzLayout, checkName, type XzLayout } from '../../codecs/xz/container.js';
import { errorNode, failFrom, field, info, leaf, range } from '../../describe.js';
import { FormatError, rethrowUnlessFormatError } from '../../errors.js';
import type { ByteSource } from '../../io/byteSource.js';
import type { Check, Field, FormatDocument, StructNode, TaskContext } from '../../model.js';
import { countFields } from './counts.js';
import { xzParts } from './coverage.js';
import { PlanFeatures, streamReads } from './features.js';
import { noSamples } from './salvage.js';
import { VARIANT_NAMES, type Variant } from './model.js';
import { readFrames, type StreamLocation } from './stream.js';
import { verifyXz, xzStructure } from './xzView.js';

/** What opening an .xben found: its xz layout and banner variant, or why each does not read. */
interface XbenParts {
  readonly layout: XzLayout | undefined;
  readonly layoutError: FormatError | undefined;
  readonly checkType: number;
  readonly variant: Variant | undefined;
  readonly bodyError: FormatError | undefined;
}

export async function openXben(src: ByteSource): Promise<FormatDocument> {
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
  return xbenDocument(src, { layout, layoutError, checkType: header.checkType, variant, bodyError });
}

/** An .xben: the xz container's structure, and the plans of the BEN32 or TwoDelta body inside. */
function xbenDocument(src: ByteSource, parts: XbenParts): FormatDocument {
  const { layout, layoutError, variant, bodyError } = parts;
  const loc: StreamLocation = { format: 'xben', offset: 0, length: src.size };
  const plans = variant ? new PlanFeatures(src, loc, variant, undefined, undefined) : undefined;
  // A body that fails before its first sample: cat and the conversions report it as damage.
  const none = plans || !bodyError ? undefined : noSamples(bodyError, range(0, src.size));
  const reads = streamReads(plans, none, { graphJson: () => Promise.resolve(undefined), variant: 'mkv_chain', document: () => doc });
  const broken = layoutError !== undefined || bodyError !== undefined;
  const doc: FormatDocument = {
    ...reads,
    converters: [...reads.converters, ...(plans && broken ? [plans.recoverStream()] : [])],
    title: `XBEN ${variant ? `${VARIANT_NAMES[variant]} ` : ''}(xz-compressed BEN stream)`,
    get summary() {
      return summaryFields(src, parts, plans);
    },
    // A getter: a count or verify since the open may have met damage (a failed block check) that info must name.
    get warnings() {
      const damage = bodyError ?? plans?.knownError;
      return [
        ...(layoutError ? [failFrom('xz container', layoutError)] : []),
        ...(damage ? [failFrom('body', damage)] : []),
        info('random access', 'an .xben is read from the start for every look past the last one: Convert → BEN stream for random access'),
      ];
    },
    tables: plans?.tables ?? [],
    panels: plans?.panels() ?? [],
    /** Decodes the stream (XBEN has no frame index): the count a full decode gives, as verify does. */
    countAll: async (ctx) => {
      await plans?.countAll(ctx);
    },
    structure: () => xbenStructure(src, parts, plans),
    verify: (ctx) => verifyXben(src, parts, plans, ctx),
    coverage: async () => ({ parts: await xzParts(src, layout, range(0, src.size)) }),
    info: () => xbenInfo(parts, plans),
  };
  return doc;
}

function summaryFields(src: ByteSource, { layout: l, checkType, variant }: XbenParts, plans: PlanFeatures | undefined): Field[] {
  return [
    field('container', 'xz', XZ_STREAM_HEADER.span('magic', 'crc'), { display: 'xz (LZMA2), BEN32 or TwoDelta body inside' }),
    field('variant', variant ?? null, undefined, { display: variant ? VARIANT_NAMES[variant] : 'unknown (body unreadable)' }),
    ...(plans ? countFields(plans.counts()) : [field('samples', null, undefined, { display: 'unknown' })]),
    field('integrity check', checkType, XZ_STREAM_HEADER.range('flags'), { display: checkName(checkType) }),
    field('streams', l ? l.streams.length : null, undefined, { display: l ? String(l.streams.length) : 'unknown (no index)' }),
    field('blocks', l ? l.streams.reduce((n, s) => n + s.blocks.length, 0) : null, undefined, { display: l ? undefined : 'unknown (no index)' }),
    field('uncompressed bytes', l ? l.uncompressedSize : null, undefined, { display: l ? undefined : 'unknown (no index)' }),
    field('compressed bytes', src.size),
  ];
}

function xbenStructure(src: ByteSource, { layout, layoutError, checkType }: XbenParts, plans: PlanFeatures | undefined): StructNode {
  if (layout) return xzStructure(src, layout, 'XBEN (xz container)', () => plans?.knownFailure);
  return {
    label: 'XBEN (xz container)',
    range: range(0, src.size),
    children: [leaf('stream header', checkName(checkType), XZ_STREAM_HEADER.span('magic', 'crc')), errorNode(layoutError, 'index and footer')],
  };
}

async function* verifyXben(
  src: ByteSource,
  { layout, layoutError, bodyError }: XbenParts,
  plans: PlanFeatures | undefined,
  ctx: TaskContext,
): AsyncIterable<Check> {
  if (layout) yield* verifyXz(src, layout);
  else yield failFrom('xz container', layoutError);
  if (plans) yield* plans.verify(ctx);
  else yield failFrom('body', bodyError);
}

function xbenInfo({ layout: l, layoutError, checkType, variant, bodyError }: XbenParts, plans: PlanFeatures | undefined): Record<string, unknown> {
  return {
    container: 'xben',
    variant: variant ?? null,
    ...(plans?.counts() ?? { frames: null, samples: null, counted: false }),
    check: checkName(checkType),
    streams: l?.streams.length ?? null,
    blocks: l ? l.streams.reduce((n, s) => n + s.blocks.length, 0) : null,
    uncompressedSize: l?.uncompressedSize ?? null,
    error: (layoutError ?? bodyError ?? plans?.knownError)?.message,
  };
}
