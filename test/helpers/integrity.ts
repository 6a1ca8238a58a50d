import { convertersOf } from '../../src/core/dump.js';
import { FormatError } from '../../src/core/errors.js';
import { coveredRanges } from '../../src/core/integrity.js';
import { MemorySource } from '../../src/core/io/byteSource.js';
import type { ByteSink, CatFormat, Converter, FormatDocument, OutputTarget } from '../../src/core/model.js';
import { openDocument } from '../../src/core/open.js';
import { catDocument, convertDocument, type ReadOutcome } from '../../src/core/ops/read.js';

/** What one read path gave for a file: its bytes and outcome, or the FormatError that stopped it. */
export interface ReadResult {
  readonly output: Uint8Array;
  readonly outcome?: ReadOutcome;
  readonly error?: FormatError;
}

function collect(): { sink: ByteSink; bytes(): Uint8Array } {
  const parts: Uint8Array[] = [];
  return {
    sink: { write: async (b) => void parts.push(Uint8Array.from(b)) },
    bytes: () => Uint8Array.from(Buffer.concat(parts)),
  };
}

async function open(bytes: Uint8Array, name: string): Promise<FormatDocument | undefined> {
  const outcome = await openDocument(new MemorySource(bytes), { name });
  return outcome.kind === 'opened' ? outcome.doc : undefined;
}

/** `binlens cat` through the ops layer, as the CLI runs it, into memory. */
export async function catRead(doc: FormatDocument, format: CatFormat, salvage = false, range: { from?: number; count?: number } = {}): Promise<ReadResult> {
  const out = collect();
  try {
    const outcome = await catDocument(doc, format, range, out.sink, { salvage });
    return { output: out.bytes(), outcome };
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    return { output: out.bytes(), error: e };
  }
}

/** A converter through the ops layer into memory; a strict run that fails keeps no output, as on disk. */
export async function convertRead(converter: Converter, salvage = false): Promise<ReadResult> {
  const files = new Map<string, ReturnType<typeof collect>>();
  const target: OutputTarget = {
    async file(name = '') {
      const c = collect();
      files.set(name, c);
      return c.sink;
    },
  };
  const options: Record<string, string | number | boolean> = {};
  for (const o of converter.options ?? []) if (o.default !== undefined && o.type !== 'path') options[o.key] = o.default;
  try {
    const outcome = await convertDocument(converter, options, { salvage }, (run) => run(target));
    const names = [...files.keys()].sort();
    return { output: Uint8Array.from(Buffer.concat(names.flatMap((n) => [Buffer.from(`${n}\n`), files.get(n)!.bytes()]))), outcome };
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    return { output: new Uint8Array(0), error: e };
  }
}

/** Up to `max` positions spread evenly over the ranges, every one when they hold fewer. */
export function spread(ranges: readonly { offset: number; length: number }[], max: number): number[] {
  const total = ranges.reduce((n, r) => n + r.length, 0);
  const n = Math.min(total, max);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    let left = Math.floor((i * total) / n);
    for (const r of ranges) {
      if (left < r.length) {
        out.push(r.offset + left);
        break;
      }
      left -= r.length;
    }
  }
  return out;
}

export interface FlipReport {
  /** Flipped positions tried. */
  readonly tried: number;
  /** Read paths that stopped with a FormatError (or whose file no longer opened). */
  readonly caught: number;
  /** Read paths that finished with the undamaged file's output (a flip that changes nothing read). */
  readonly same: number;
  /** Read paths that finished with other output than the undamaged file's: must be empty. */
  readonly silent: readonly string[];
}

/**
 * The property every family must hold: flip one byte anywhere a check covers, and no strict read
 * path (each cat format, each converter) finishes with output that differs from the undamaged
 * file's. It either fails, or its output is unchanged.
 */
export async function flipsNeverPassSilently(bytes: Uint8Array, name: string, opts: { maxPositions?: number; masks?: readonly number[]; converters?: boolean } = {}): Promise<FlipReport> {
  const doc = await open(bytes, name);
  if (!doc) throw new Error(`${name} does not open`);
  if (!doc.coverage) throw new Error(`${name}: ${doc.format} documents declare no coverage`);
  const ranges = coveredRanges(await doc.coverage());
  const paths = async (d: FormatDocument): Promise<Map<string, ReadResult>> => {
    const out = new Map<string, ReadResult>();
    for (const f of d.cat?.formats ?? []) out.set(`cat ${f}`, await catRead(d, f));
    if (opts.converters !== false) for (const c of convertersOf(d, name, bytes.length)) out.set(`convert ${c.id}`, await convertRead(c));
    return out;
  };
  const good = await paths(doc);
  for (const [path, r] of good) if (r.error) throw new Error(`${name}: ${path} fails on the undamaged file: ${r.error.message}`);
  await doc.close?.();
  let caught = 0;
  let same = 0;
  let tried = 0;
  const silent: string[] = [];
  for (const at of spread(ranges, opts.maxPositions ?? 64)) {
    for (const mask of opts.masks ?? [0xff]) {
      tried++;
      const damaged = bytes.slice();
      damaged[at]! ^= mask;
      const d = await open(damaged, name).catch((e: unknown) => {
        if (e instanceof FormatError) return undefined;
        throw e;
      });
      if (!d) {
        caught++;
        continue;
      }
      for (const [path, r] of await paths(d)) {
        const want = good.get(path);
        if (r.error || !want) caught++;
        else if (Buffer.compare(Buffer.from(r.output), Buffer.from(want.output)) === 0) same++;
        else silent.push(`${path} after flipping byte ${at} with 0x${mask.toString(16)}`);
      }
      await d.close?.();
    }
  }
  return { tried, caught, same, silent };
}
