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
  /** A converter's output files by name, and the name a written file would end with. */
  readonly files?: ReadonlyMap<string, Uint8Array>;
  readonly extension?: string;
}

/**
 * Output kept in memory. Past `limit` bytes the read path is stopped with a 'limit' FormatError:
 * the fuzzer's mutants may rightly expand to gigabytes, and a read path that did not finish is
 * no silent corruption.
 */
function collect(limit = Number.POSITIVE_INFINITY): { sink: ByteSink; bytes(): Uint8Array } {
  const parts: Uint8Array[] = [];
  let written = 0;
  return {
    sink: {
      write: async (b) => {
        written += b.length;
        if (written > limit) throw new FormatError('limit', `output past ${limit} bytes`);
        parts.push(Uint8Array.from(b));
      },
      // A file can be rewritten at its start (a BENDL bundle's header is written last).
      patch: async (offset, b) => {
        const all = Uint8Array.from(Buffer.concat(parts));
        all.set(b, offset);
        parts.splice(0, parts.length, all);
      },
    },
    bytes: () => Uint8Array.from(Buffer.concat(parts)),
  };
}

/** How a test opens bytes as a document: the registry's detection, or a fake format's. */
export type Opener = (bytes: Uint8Array, name: string) => Promise<FormatDocument | undefined>;

/** Opens bytes as the CLI does; undefined when no format recognises them. */
export const openBytes: Opener = async (bytes, name) => {
  const outcome = await openDocument(new MemorySource(bytes), { name });
  return outcome.kind === 'opened' ? outcome.doc : undefined;
};

/** `binlens cat` through the ops layer, as the CLI runs it, into memory. */
export async function catRead(
  doc: FormatDocument,
  format: CatFormat,
  salvage = false,
  range: { from?: number; count?: number } = {},
  limit?: number,
): Promise<ReadResult> {
  const out = collect(limit);
  try {
    const outcome = await catDocument(doc, format, range, out.sink, { salvage });
    return { output: out.bytes(), outcome };
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    return { output: out.bytes(), error: e };
  }
}

/** A converter through the ops layer into memory; a strict run that fails keeps no output, as on disk. */
export async function convertRead(converter: Converter, salvage = false, limit?: number): Promise<ReadResult> {
  const files = new Map<string, ReturnType<typeof collect>>();
  const target: OutputTarget = {
    async file(name = '') {
      const c = collect(limit);
      files.set(name, c);
      return c.sink;
    },
  };
  const options: Record<string, string | number | boolean> = {};
  for (const o of converter.options ?? []) if (o.default !== undefined && o.type !== 'path') options[o.key] = o.default;
  try {
    const outcome = await convertDocument(converter, options, { salvage }, (run) => run(target));
    const names = [...files.keys()].sort();
    const bytes = new Map(names.map((n) => [n, files.get(n)!.bytes()]));
    const output = Uint8Array.from(Buffer.concat(names.flatMap((n) => [Buffer.from(`${n}\n`), bytes.get(n)!])));
    return { output, outcome, files: bytes, extension: converter.extension };
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

/**
 * Read paths that show a file's bytes as they are rather than hand out its data: the annotated
 * structure (core/dump.ts) is what one reads to look at damage, like a hex view, so its text
 * changes with any flipped byte by design. The flip property and the fuzzer leave it out.
 */
export const BYTE_VIEWS: readonly string[] = ['convert dump'];

export interface PathOptions {
  /** False: cat formats only. */
  readonly converters?: boolean;
  /** Read paths left out by name; `BYTE_VIEWS` when not given. */
  readonly exclude?: readonly string[];
  /** Output bytes per read path before it is stopped (see `collect`). */
  readonly limit?: number;
}

/** Every strict read path of a document (each cat format, each converter), run in full, by name. */
export async function readPaths(doc: FormatDocument, name: string, size: number, opts: PathOptions = {}): Promise<Map<string, ReadResult>> {
  const out = new Map<string, ReadResult>();
  const exclude = opts.exclude ?? BYTE_VIEWS;
  const wanted = (path: string) => !exclude.includes(path);
  for (const f of doc.cat?.formats ?? []) if (wanted(`cat ${f}`)) out.set(`cat ${f}`, await catRead(doc, f, false, {}, opts.limit));
  if (opts.converters !== false) {
    for (const c of convertersOf(doc, name, size)) if (wanted(`convert ${c.id}`)) out.set(`convert ${c.id}`, await convertRead(c, false, opts.limit));
  }
  return out;
}

/** What the read paths of one damaged file did, against the undamaged file's. */
export interface Verdict {
  /** Read paths that stopped with a FormatError, or 1 when the damaged file no longer opened. */
  readonly caught: number;
  /** Read paths that finished with the undamaged file's output. */
  readonly same: number;
  /** Read paths that failed on the undamaged file too: nothing to compare with. */
  readonly unjudged: number;
  /** Read paths that finished with other output than the undamaged file's. */
  readonly silent: readonly string[];
}

/**
 * Opens a damaged copy of a file and runs every read path that `good` (the undamaged file's
 * results) holds. Each must fail or give the undamaged output; the names of those that did
 * neither are `silent`. Exceptions other than FormatError propagate: they are crashes.
 */
export async function judgeDamaged(
  damaged: Uint8Array,
  name: string,
  good: ReadonlyMap<string, ReadResult>,
  opts: PathOptions & { open?: Opener } = {},
): Promise<Verdict> {
  const d = await (opts.open ?? openBytes)(damaged, name).catch((e: unknown) => {
    if (e instanceof FormatError) return undefined;
    throw e;
  });
  if (!d) return { caught: 1, same: 0, unjudged: 0, silent: [] };
  let caught = 0;
  let same = 0;
  let unjudged = 0;
  const silent: string[] = [];
  try {
    for (const [path, r] of await readPaths(d, name, damaged.length, opts)) {
      const want = good.get(path);
      if (want?.error) unjudged++;
      else if (r.error || !want) caught++;
      else if (Buffer.compare(Buffer.from(r.output), Buffer.from(want.output)) === 0 || (await sameContent(r, want, opts.open ?? openBytes))) same++;
      else silent.push(path);
    }
  } finally {
    await d.close?.();
  }
  return { caught, same, unjudged, silent };
}

/**
 * Whether two converter outputs that differ in bytes hold the same content: each file reopens and
 * reads (its first cat format) as the other does. A flip inside compressed bytes can leave what
 * they decode to, and the check over it, unchanged; a converter that copies the compressed bytes
 * then writes other bytes, but no damaged data.
 */
async function sameContent(a: ReadResult, b: ReadResult, open: Opener): Promise<boolean> {
  if (!a.files || !b.files || a.files.size !== b.files.size) return false;
  for (const [name, bytes] of a.files) {
    const other = b.files.get(name);
    if (!other) return false;
    if (Buffer.compare(Buffer.from(bytes), Buffer.from(other)) === 0) continue;
    const file = `${name || 'output'}${a.extension ?? ''}`;
    const [x, y] = await Promise.all([open(bytes, file).catch(() => undefined), open(other, file).catch(() => undefined)]);
    try {
      const format = x?.cat?.formats[0];
      if (!x || !y || !format || !y.cat?.formats.includes(format)) return false;
      const [cx, cy] = [await catRead(x, format), await catRead(y, format)];
      if (cx.error || cy.error || Buffer.compare(Buffer.from(cx.output), Buffer.from(cy.output)) !== 0) return false;
    } finally {
      await x?.close?.();
      await y?.close?.();
    }
  }
  return true;
}

/** The verdicts of every flip, summed; `silent` (named with the flip) must be empty. */
export interface FlipReport extends Omit<Verdict, 'unjudged'> {
  /** Flipped positions tried. */
  readonly tried: number;
}

/**
 * The property every family must hold: flip one byte anywhere a check covers, and no strict read
 * path (each cat format, each converter) finishes with output that differs from the undamaged
 * file's. It either fails, or its output is unchanged.
 */
export async function flipsNeverPassSilently(
  bytes: Uint8Array,
  name: string,
  opts: { maxPositions?: number; masks?: readonly number[]; converters?: boolean } = {},
): Promise<FlipReport> {
  const doc = await openBytes(bytes, name);
  if (!doc) throw new Error(`${name} does not open`);
  const ranges = coveredRanges(await doc.coverage());
  const paths = { converters: opts.converters };
  const good = await readPaths(doc, name, bytes.length, paths);
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
      const v = await judgeDamaged(damaged, name, good, paths);
      caught += v.caught;
      same += v.same;
      for (const path of v.silent) silent.push(`${path} after flipping byte ${at} with 0x${mask.toString(16)}`);
    }
  }
  return { tried, caught, same, silent };
}
