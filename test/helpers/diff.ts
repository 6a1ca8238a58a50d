import { expect } from 'vitest';
import { MemorySource } from '../../src/core/io/byteSource.js';
import type { Difference, DiffSummary, FormatDocument, Importer } from '../../src/core/model.js';
import { diffDocuments } from '../../src/core/ops/diff.js';
import { openDocument } from '../../src/core/open.js';
import { memoryTarget } from './documents.js';
import { openFixture } from './fixtures.js';

/** Every difference `binlens diff` would print for two documents, and the closing summary. */
export async function diffAll(a: FormatDocument, b: FormatDocument): Promise<{ diffs: Difference[]; summary: DiffSummary }> {
  const run = diffDocuments({ doc: a, name: 'a', size: 0 }, { doc: b, name: 'b', size: 0 });
  const diffs: Difference[] = [];
  for (;;) {
    const step = await run.next();
    if (step.done) return { diffs, summary: step.value };
    diffs.push(step.value);
  }
}

/**
 * A fixture diffed with itself finds no difference, and diffed with `twin` (the same content in
 * another form) lists none; resolves to the second diff's summary, whose counts say what matched.
 */
export async function expectNoDifference(path: string, twin: string): Promise<DiffSummary> {
  const a = await openFixture(path);
  expect((await diffAll(a, a)).summary.differences).toBe(0);
  const r = await diffAll(a, await openFixture(twin));
  expect(r.diffs).toEqual([]);
  return r.summary;
}

/** Opens bytes through detection, as the CLI does. */
export async function openBytes(bytes: Uint8Array, name: string): Promise<FormatDocument> {
  const outcome = await openDocument(new MemorySource(bytes), { name });
  if (outcome.kind !== 'opened') throw new Error(`${name}: ${outcome.reason}`);
  return outcome.doc;
}

/** Runs a family's importer on text, returning the file it writes. */
export async function importTextWith(importer: Importer, text: string, options: Record<string, string | number | boolean> = {}): Promise<Uint8Array> {
  const target = memoryTarget();
  await importer.run(new MemorySource(new TextEncoder().encode(text)), target, {}, options);
  return target.files.get('')!;
}
