import { expect } from 'vitest';
import { convertersOf } from '../../src/core/dump.js';
import { FormatError } from '../../src/core/errors.js';
import { MemorySource } from '../../src/core/io/byteSource.js';
import { isLazy, type Check, type FormatDocument, type OutputTarget, type StructNode } from '../../src/core/model.js';
import { openDocument } from '../../src/core/open.js';

/**
 * Hostile inputs through the public API, the way the fuzz pipeline (test/fuzz/pipeline.ts) and
 * the editor use a file: open, walk the structure, page every table, verify, convert. Unlike the
 * fuzzer, every FormatError is kept so a test can assert which one was raised and where; any
 * other exception escapes and fails the test.
 */
export interface Outcome {
  /** The error that stopped opening, when the file did not open. */
  readonly openError?: FormatError;
  readonly doc?: FormatDocument;
  /** Errors thrown while loading lazy children of the structure tree. */
  readonly structure: FormatError[];
  /** Nodes of the structure tree marked as errors (label and note). */
  readonly errorNodes: StructNode[];
  /** Errors thrown by table pages and counts, by table id. */
  readonly pages: Map<string, FormatError>;
  /** Errors thrown by panels (pictures) drawn with their default inputs, by panel id. */
  readonly panels: Map<string, FormatError>;
  readonly verify: Check[];
  /** Errors thrown by verify itself (it should report, not throw). */
  readonly verifyError?: FormatError;
  /** Errors of each conversion, by converter id; a converter that succeeded is absent. */
  readonly converts: Map<string, FormatError>;
  /** Bytes each converter wrote before it finished or failed. */
  readonly written: Map<string, number>;
}

const OUTPUT_CAP = 64 << 20;

function cappedTarget(count: (n: number) => void): OutputTarget {
  let total = 0;
  return {
    file: async () => ({
      write: async (chunk: Uint8Array) => {
        total += chunk.length;
        count(total);
        if (total > OUTPUT_CAP) throw new Error(`a converter wrote more than ${OUTPUT_CAP} bytes for a hostile input`);
      },
      patch: async () => undefined,
    }),
  };
}

async function keep<T>(step: () => Promise<T>, put: (e: FormatError) => void): Promise<T | undefined> {
  try {
    return await step();
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    put(e);
    return undefined;
  }
}

export interface ExerciseOptions {
  readonly name?: string;
  /** Converter ids to run (default: every converter the document offers, "dump" included). */
  readonly converters?: readonly string[];
  /** Draw every panel with its default inputs (default true). */
  readonly panels?: boolean;
  /** Options per converter id (default: each option's default). */
  readonly options?: Record<string, Record<string, string | number | boolean>>;
}

export async function exercise(bytes: Uint8Array, opts: ExerciseOptions = {}): Promise<Outcome> {
  const outcome = await openDocument(new MemorySource(bytes), { name: opts.name });
  const empty = { structure: [], errorNodes: [], pages: new Map(), panels: new Map(), verify: [], converts: new Map(), written: new Map() };
  if (outcome.kind !== 'opened') {
    if (!outcome.error) throw new Error(`not opened and no FormatError: ${outcome.reason}`);
    return { ...empty, openError: outcome.error };
  }
  const doc = outcome.doc;
  const structure: FormatError[] = [];
  const errorNodes: StructNode[] = [];
  const walk = async (node: StructNode, budget: { left: number }): Promise<void> => {
    if (--budget.left <= 0) return;
    if (node.mark === 'error') errorNodes.push(node);
    const c = node.children;
    if (c === undefined) return;
    const list = isLazy(c)
      ? await keep(
          () => c.load(0, 200),
          (e) => structure.push(e),
        )
      : c;
    for (const child of list ?? []) await walk(child, budget);
  };
  await walk(doc.structure(), { left: 5000 });
  const pages = new Map<string, FormatError>();
  for (const t of doc.tables) {
    await keep(
      async () => {
        const n = t.rowCount().known;
        await t.page(0, 50);
        if (n > 100) await t.page(Math.floor(n / 2), 20);
        if (n > 0) await t.page(Math.max(0, n - 10), 10);
        if (t.count && !t.rowCount().complete) await t.count({});
      },
      (e) => pages.set(t.id, e),
    );
  }
  const panels = new Map<string, FormatError>();
  if (opts.panels !== false)
    for (const p of doc.panels ?? [])
      await keep(
        () => p.data({}),
        (e) => panels.set(p.id, e),
      );
  const verify: Check[] = [];
  let verifyError: FormatError | undefined;
  await keep(
    async () => {
      for await (const c of doc.verify({})) verify.push(c);
    },
    (e) => (verifyError = e),
  );
  const converts = new Map<string, FormatError>();
  const written = new Map<string, number>();
  for (const c of convertersOf(doc, opts.name ?? 'hostile', bytes.length)) {
    if (opts.converters && !opts.converters.includes(c.id)) continue;
    const options: Record<string, string | number | boolean> = {};
    for (const o of c.options ?? []) if (o.default !== undefined && o.type !== 'path') options[o.key] = o.default;
    Object.assign(options, opts.options?.[c.id]);
    await keep(
      () =>
        c.run(
          cappedTarget((n) => written.set(c.id, n)),
          {},
          options,
        ),
      (e) => converts.set(c.id, e),
    );
  }
  return { doc, structure, errorNodes, pages, panels, verify, verifyError, converts, written };
}

/** The failed and warned checks of a verification. */
export function problems(checks: readonly Check[]): Check[] {
  return checks.filter((c) => c.status === 'fail' || c.status === 'warn');
}

/** Verify reported a failure or warning with (at least) these fields. */
export function expectProblem(checks: readonly Check[], fields: Record<string, unknown>): void {
  expect(problems(checks)).toContainEqual(expect.objectContaining(fields));
}
