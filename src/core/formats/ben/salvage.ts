import { FormatError } from '../../errors.js';
import { type Damage, damageFrom, reportDamage } from '../../integrity.js';
import type { ByteRange, CatSpec, TaskContext } from '../../model.js';
import { XzBlockError } from './checkedXz.js';
import type { SampleRun } from './pipeline.js';

/** False for errors that stop a read for reasons other than damage: an unsupported feature, a safety cap, a cancel. */
export function isDamage(e: unknown): e is FormatError {
  return e instanceof FormatError && e.code !== 'cancelled' && e.code !== 'unsupported' && e.code !== 'limit';
}

/**
 * A unit's decoder error as damage: a strict caller gets the error itself (its field and offset
 * name what failed), a salvaging one a listed unit and goes on without it. Errors that are not
 * damage are thrown either way.
 */
export function reportError(ctx: Pick<TaskContext, 'integrity'>, e: unknown, damage: (e: FormatError) => Damage): void {
  if (!isDamage(e) || !ctx.integrity?.salvage) throw e;
  reportDamage(ctx, damage(e));
}

/**
 * The damage that stopped a stream: the xz block whose check failed (with its bytes), or the
 * frame that does not decode; the samples from `next` on (1-based) are what it costs.
 */
export function streamDamage(e: FormatError, next: number, total: number | undefined): Damage {
  const rows = { from: next, count: total === undefined ? undefined : Math.max(0, total - next + 1) };
  if (e instanceof XzBlockError) return { unit: e.field ?? 'xz data', detail: e.detail, offset: e.offset, code: e.code, range: e.block?.range, rows };
  const frame = /^frame \d+/.exec(e.field ?? '')?.[0];
  return damageFrom(frame ?? 'stream', e, { rows });
}

/**
 * The samples of a stream as every read path hands them out (cat, the conversions, Recover):
 * each sample that decodes from checked bytes, then, at the first damage, `reportDamage`. A
 * strict caller stops there with the located error; a salvaging one keeps the complete samples
 * before the damage and gets the rest listed. BEN frames carry no checksum, so for them "damage"
 * is a frame that does not decode.
 */
export async function* checkedSamples(
  runs: AsyncIterable<SampleRun>,
  ctx: Pick<TaskContext, 'integrity'>,
  first: number,
  total: number | undefined,
): AsyncGenerator<SampleRun> {
  let next = first + 1;
  try {
    for await (const r of runs) {
      yield r;
      next = r.firstSample + r.count;
    }
  } catch (e) {
    reportError(ctx, e, (d) => streamDamage(d, next, total));
  }
}

/**
 * The samples of a stream that fails before its first one (its banner does not decode): none,
 * and that is damage like any other (a strict read stops, exit 1; a salvage lists every sample
 * as left out), not a file without content. `gate` runs the container's checks first (a BENDL
 * stream CRC32C names the damage better than the decoder does); false when it listed the stream.
 */
export function noSamples(e: FormatError, range: ByteRange, gate?: (ctx: TaskContext) => Promise<boolean>): (ctx: TaskContext) => AsyncGenerator<SampleRun> {
  // A stream with no samples to give: it only reports why.
  // oxlint-disable-next-line require-yield
  return async function* (ctx) {
    if (gate && !(await gate(ctx))) return;
    reportError(ctx, e, (d) => damageFrom('stream', d, { range, rows: { from: 1 } }));
  };
}

/** `cat` over such a stream: nothing to write, the damage reported. */
export function damagedStreamCat(samples: (ctx: TaskContext) => AsyncGenerator<SampleRun>): CatSpec {
  return {
    formats: ['jsonl'],
    run: async (_format, _range, _out, ctx) => {
      for await (const _ of samples(ctx));
    },
  };
}
