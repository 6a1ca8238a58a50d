import { isXzMagic } from '../../codecs/xz/magic.js';
import { failFrom, field, range } from '../../describe.js';
import type { ByteSource } from '../../io/byteSource.js';
import { readUpTo } from '../../io/byteSource.js';
import type { Field, FormatDocument, OpenContext } from '../../model.js';
import { isBendlMagic } from './bendlMagic.js';
import { countFields } from './counts.js';
import { benFramesPart } from './coverage.js';
import { PlanFeatures, streamReads } from './features.js';
import { BANNER_BYTES } from './model.js';
import { BenStreamView } from './streamView.js';

export async function openBen(src: ByteSource, _ctx: OpenContext): Promise<FormatDocument> {
  const head = await readUpTo(src, 0, 32);
  // Each container's code loads for a file of its kind only (CLI start, bench/RESULTS.md).
  if (isBendlMagic(head)) return (await import('./bendlDocument.js')).openBendl(src);
  if (isXzMagic(head)) return (await import('./xbenDocument.js')).openXben(src);
  return benDocument(src, await BenStreamView.open(src));
}

/** A .ben stream: its frames, and the plans they hold. */
function benDocument(src: ByteSource, stream: BenStreamView): FormatDocument {
  const e = stream.index.known.error;
  const plans = new PlanFeatures(src, { format: 'ben', offset: 0, length: src.size }, stream.variant, stream.index, undefined);
  const reads = streamReads(plans, undefined, { graphJson: () => Promise.resolve(undefined), variant: stream.variant, document: () => doc });
  const doc: FormatDocument = {
    ...reads,
    converters: [...reads.converters, ...(e ? [plans.recoverStream()] : [])],
    title: `BEN ${stream.variantName} stream`,
    get summary(): readonly Field[] {
      return [
        field('variant', stream.variant, range(0, BANNER_BYTES), { display: stream.variantName }),
        ...countFields(plans.counts(), plans.partialCounts()),
        field('size', src.size),
      ];
    },
    warnings: e ? [failFrom('frames', e)] : [],
    tables: [...plans.tables, stream.framesTable()],
    panels: plans.panels(),
    savedIndex: stream.index,
    countAll: (ctx) => plans.countAll(ctx),
    structure: () => stream.structure(),
    // Decoding every frame is the check a BEN stream allows (it has no checksum, spec §8).
    verify: (ctx) => plans.verify(ctx),
    coverage: async () => ({ parts: [benFramesPart(range(0, src.size))] }),
    info: () => ({ container: 'ben', ...stream.info() }),
  };
  return doc;
}
