import { convertersOf } from '../../src/core/dump.js';
import { FormatError } from '../../src/core/errors.js';
import { MemorySource } from '../../src/core/io/byteSource.js';
import { isLazy, type ByteSink, type FormatDocument, type OutputTarget, type StructNode } from '../../src/core/model.js';
import { openDocument } from '../../src/core/open.js';
import type { Landmarks } from './mutate.js';

/**
 * What one input may cost the pipeline; beyond this a converter's or `cat`'s output is cut short.
 * 4 MiB: a 2.5 KB fst whose shared nodes spell 400 000 keys wrote 12 MB of TSV and 16 MB of JSONL,
 * 1.7 s in all, and the long run called it a hang under load; the writers' speed is the bench's
 * business, and 4 MiB still runs every converter far past any fixture's output.
 */
const MAX_OUTPUT = 4 << 20;
const MAX_NODES = 3000;

class OutputCap extends FormatError {}

/**
 * Output that is counted and dropped. A small file may rightly expand to gigabytes (a BEN
 * sample of millions of nodes repeated thousands of times), and writing them is not a finding.
 */
function cappedSink(): ByteSink {
  let written = 0;
  return {
    write: async (chunk: Uint8Array) => {
      written += chunk.length;
      if (written > MAX_OUTPUT) throw new OutputCap('limit', 'fuzz output cap');
    },
  };
}

function memoryTarget(): OutputTarget {
  const sink = cappedSink();
  return { file: async () => sink };
}

/**
 * Everything a user can do with a file, as the editor and the CLI do it: open, walk the
 * structure, page every table at its start, middle and end, finish counts, draw panels, verify,
 * convert and `cat`. Only FormatErrors may escape the readers. With `pick`, one conversion and one
 * `cat` format chosen by it run instead of all of them: the fuzzer covers them all across
 * inputs at a fraction of the cost per input.
 */
export async function exercise(bytes: Uint8Array, name: string, signal?: AbortSignal, pick?: number): Promise<'opened' | 'unrecognised'> {
  const outcome = await openDocument(new MemorySource(bytes), { name, signal });
  if (outcome.kind !== 'opened') return 'unrecognised';
  const doc = outcome.doc;
  const guard = async (step: () => Promise<unknown>) => {
    try {
      await step();
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
    }
  };
  JSON.stringify(doc.info(), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  void doc.summary;
  void doc.warnings;
  await guard(() => walk(doc.structure(), { left: MAX_NODES }, signal));
  for (const table of doc.tables) {
    await guard(async () => {
      const n = table.rowCount().known;
      await table.page(0, 50, signal);
      if (n > 100) await table.page(Math.floor(n / 2), 20, signal);
      if (n > 0) await table.page(Math.max(0, n - 10), 10, signal);
      if (table.count && !table.rowCount().complete) await table.count({ signal });
    });
  }
  for (const panel of doc.panels ?? []) await guard(() => panel.data({}, signal));
  await guard(async () => {
    for await (const _c of doc.verify({ signal }));
  });
  const some = <T>(list: readonly T[]): readonly T[] => (pick === undefined || list.length === 0 ? list : [list[pick % list.length]!]);
  for (const c of some(convertersOf(doc, name, bytes.length))) await guard(() => c.run(memoryTarget(), { signal }, defaults(c.options)));
  if (doc.cat) {
    for (const format of some(doc.cat.formats)) {
      await guard(() => doc.cat!.run(format, { count: 200 }, cappedSink(), { signal }));
    }
  }
  await doc.close?.();
  return 'opened';
}

function defaults(options: FormatDocument['converters'][number]['options']): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const o of options ?? []) if (o.default !== undefined && o.type !== 'path') out[o.key] = o.default;
  return out;
}

async function walk(node: StructNode, budget: { left: number }, signal?: AbortSignal): Promise<void> {
  if (--budget.left <= 0) return;
  const c = node.children;
  if (c === undefined) return;
  const list = isLazy(c) ? await c.load(0, 100, signal) : c;
  if (isLazy(c)) {
    const n = c.count();
    if (n !== undefined && n > 200) await c.load(n - 5, 5, signal);
  }
  for (const child of list) await walk(child, budget, signal);
}

/** Offsets where structure starts and ends, and its small fields: where mutations hurt most. */
export async function landmarks(bytes: Uint8Array, name: string): Promise<Landmarks> {
  const outcome = await openDocument(new MemorySource(bytes), { name });
  const boundaries = new Set<number>([0, bytes.length]);
  const fields: { offset: number; length: number }[] = [];
  if (outcome.kind === 'opened') {
    const visit = async (node: StructNode, budget: { left: number }): Promise<void> => {
      if (--budget.left <= 0) return;
      if (node.range) {
        boundaries.add(node.range.offset);
        boundaries.add(node.range.offset + node.range.length);
        if (node.range.length >= 1 && node.range.length <= 8) fields.push(node.range);
      }
      const c = node.children;
      if (c === undefined) return;
      let list: readonly StructNode[];
      try {
        list = isLazy(c) ? await c.load(0, 200) : c;
      } catch (e) {
        if (e instanceof FormatError) return;
        throw e;
      }
      for (const child of list) await visit(child, budget);
    };
    await visit(outcome.doc.structure(), { left: 5000 });
    for (const f of outcome.doc.summary) if (f.range && f.range.length <= 8) fields.push(f.range);
  }
  return { boundaries: [...boundaries].filter((b) => b <= bytes.length).sort((a, b) => a - b), fields };
}
