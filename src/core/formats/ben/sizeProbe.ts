import { XzWriter } from '../../codecs/xz/encode.js';
import { BenPacker, Framer, XbenBodyPacker } from './encode.js';
import type { Variant } from './model.js';
import type { Plan } from './plan.js';
import type { ByteSink } from '../../model.js';

/**
 * The size a stream would have, found by encoding it into a counter instead of a file: how a
 * conversion lever (relabel, reorder) states what it saved. The same Framer and packers as the
 * real writer (pipeline.ts writeStream), so the counted bytes are the bytes it would write.
 */
export class SizeProbe {
  private constructor(
    private readonly counter: Counter,
    private readonly framer: Framer,
    private readonly xz: XzWriter | undefined,
  ) {}

  static async open(format: 'ben' | 'xben', variant: Variant, preset: number): Promise<SizeProbe> {
    const counter = new Counter();
    const xz = format === 'xben' ? await XzWriter.open(counter, { preset, check: 'none' }) : undefined;
    const framer = new Framer(variant, xz ? new XbenBodyPacker(xz) : new BenPacker(counter));
    await framer.begin();
    return new SizeProbe(counter, framer, xz);
  }

  add(plan: Plan, count: number): Promise<void> {
    return this.framer.add(plan, count);
  }

  /** Ends the stream; the bytes it would have taken. */
  async finish(): Promise<number> {
    await this.framer.end();
    await this.xz?.finish();
    return this.counter.bytes;
  }

  /** Frees the xz encoder of a conversion that failed. */
  abandon(): void {
    this.xz?.abandon();
  }
}

class Counter implements ByteSink {
  bytes = 0;
  readonly releasesChunk = true;
  write(chunk: Uint8Array): Promise<void> {
    this.bytes += chunk.length;
    return Promise.resolve();
  }
}
