import { errorNode, leaf, plural, range } from '../../describe.js';
import type { ByteSource } from '../../io/byteSource.js';
import { readField } from '../../io/byteSource.js';
import { SHOW_DAMAGED, damagedCell } from '../../integrity.js';
import type { OptionValues, Row, Scalar, StructNode, Table, TaskContext } from '../../model.js';
import { NOT_COUNTED } from './counts.js';
import { FrameIndex } from './frameIndex.js';
import { parseBanner } from './frames.js';
import { BANNER_BYTES, type BenFrame, VARIANT_NAMES, type Variant } from './model.js';
import type { WholeStreamDamage } from './samplesView.js';

/**
 * A BEN stream as the viewer shows it: banner, frames and their table. `base` is where the
 * stream sits in the file (0 for a .ben, the stream offset inside a bundle), so every range the
 * viewer gets is absolute.
 */
export class BenStreamView {
  private constructor(
    readonly variant: Variant,
    readonly index: FrameIndex,
    private readonly base: number,
    private readonly size: number,
  ) {}

  /** The stream at [base, base + size) of `src` (a whole .ben, or the stream of a bundle). */
  static async open(src: ByteSource, base = 0, size = src.size - base): Promise<BenStreamView> {
    const variant = parseBanner(await readField(src, base, Math.min(BANNER_BYTES, size), 'banner'), base);
    const index = new FrameIndex(src, variant, { index: 0, offset: base + BANNER_BYTES, firstSample: 1 }, base + size);
    const view = new BenStreamView(variant, index, base, size);
    // Small streams are counted at once; larger ones in the background (`table.count`).
    if (size <= 1 << 20) await index.scanToEnd({});
    return view;
  }

  get variantName(): string {
    return VARIANT_NAMES[this.variant];
  }

  /** "n frames, m samples" once counted; "≥ …" while a count runs; "not counted" before. */
  countText(): string {
    const k = this.index.known;
    if (!k.complete && k.frames === 0) return NOT_COUNTED;
    const at = k.complete ? '' : '≥ ';
    return `${at}${plural(k.frames, 'frame')}, ${at}${plural(k.samples, 'sample')}`;
  }

  private frameNode(f: BenFrame): StructNode {
    const at = range;
    const fields: StructNode[] = [];
    let p = f.offset;
    if (this.variant === 'two_delta') fields.push(leaf('tag', f.kind === 'delta' ? '1 (delta)' : '0 (snapshot)', at(p++, 1)));
    if (f.kind === 'delta') {
      fields.push(leaf('pair_a', f.pair![0], at(p, 2)), leaf('pair_b', f.pair![1], at(p + 2, 2)), leaf('lbits', f.lbits, at(p + 4, 1)));
      p += 5;
    } else {
      fields.push(leaf('vbits', f.vbits!, at(p, 1)), leaf('lbits', f.lbits, at(p + 1, 1)));
      p += 2;
    }
    fields.push(leaf('n_bytes', f.payloadBytes, at(p, 4)), leaf('payload', `${f.payloadBytes} bytes`, at(f.payloadOffset, f.payloadBytes)));
    if (this.variant !== 'standard') fields.push(leaf('count', f.count, at(f.payloadOffset + f.payloadBytes, 2)));
    const samples = f.count === 1 ? `sample ${f.firstSample}` : `samples ${f.firstSample}–${f.firstSample + f.count - 1}`;
    return { label: `frame ${f.index}`, value: `${f.kind === 'frame' ? '' : `${f.kind}, `}${samples}`, range: at(f.offset, f.length), children: fields };
  }

  structure(): StructNode {
    const countText = () => this.countText();
    const failure = (): StructNode[] => {
      const e = this.index.known.error;
      return e ? [errorNode(e, 'stream breaks')] : [];
    };
    return {
      label: `BEN stream (${this.variantName})`,
      range: range(this.base, this.size),
      children: [
        leaf('banner', `${this.variantName}`, range(this.base, BANNER_BYTES)),
        {
          label: 'frames',
          // Read when the node is shown, so a tree drawn after the background count has the final numbers.
          get value() {
            return countText();
          },
          range: range(this.base + BANNER_BYTES, this.size - BANNER_BYTES),
          children: {
            lazy: true,
            count: () => (this.index.known.complete ? this.index.known.frames : undefined),
            load: async (from, count, signal) => (await this.index.frames(from, count, signal)).map((f) => this.frameNode(f)),
          },
        },
        ...failure(),
      ],
    };
  }

  /**
   * The frame headers, one row each. In a bundle whose stream CRC32C fails (`wholeStream`) the
   * values read from the frames show as damaged, and only on "show anyway" as read, labelled.
   */
  framesTable(wholeStream?: WholeStreamDamage, showDamaged = false): Table {
    const twoDelta = this.variant === 'two_delta';
    return {
      id: showDamaged ? 'frames:showDamaged' : 'frames',
      title: 'Frames',
      columns: [
        { key: 'frame', title: 'frame', type: 'number' },
        { key: 'offset', title: 'offset', type: 'number' },
        ...(twoDelta ? [{ key: 'kind', title: 'kind', type: 'text' as const }] : []),
        { key: 'vbits', title: 'vbits', type: 'number' },
        { key: 'lbits', title: 'lbits', type: 'number' },
        { key: 'bytes', title: 'payload bytes', type: 'number' },
        { key: 'count', title: 'count', type: 'number' },
        { key: 'sample', title: 'first sample', type: 'number' },
      ],
      rowCount: () => ({ known: this.index.known.frames, complete: this.index.known.complete }),
      count: async (ctx: TaskContext) => {
        await this.index.scanToEnd(ctx);
        return this.index.known.frames;
      },
      ...(wholeStream ? { params: [SHOW_DAMAGED], withParams: async (v: OptionValues) => this.framesTable(wholeStream, v[SHOW_DAMAGED.key] === true) } : {}),
      page: async (from, count, signal) => {
        const d = await wholeStream?.(signal);
        const why = d && `${d.unit}: ${d.detail}`;
        return (await this.index.frames(from, count, signal)).map((f): Row => {
          const read: Scalar[] = [...(twoDelta ? [f.kind] : []), f.vbits ?? null, f.lbits, f.payloadBytes, f.count, f.firstSample];
          return {
            cells: [f.index, f.offset, ...(why === undefined ? read : read.map((v) => damagedCell(why, showDamaged ? v : undefined)))],
            range: range(f.offset, f.length),
            mark: why === undefined ? undefined : 'error',
          };
        });
      },
    };
  }

  info(): Record<string, unknown> {
    const k = this.index.known;
    return {
      variant: this.variant,
      frames: k.complete ? k.frames : null,
      samples: k.complete ? k.samples : null,
      counted: k.complete,
      error: k.error?.message,
    };
  }
}
