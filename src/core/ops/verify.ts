/**
 * Verify as every caller runs it: the document's own checks, a FormatError that stops them as
 * one failed check, then a line for each part of the file that no check covers, so that "OK" is
 * never read as more than it means. The CLI and the engine both run this.
 */
import { failFrom, info } from '../describe.js';
import { rethrowUnlessFormatError } from '../errors.js';
import type { Check, FormatDocument, TaskContext } from '../model.js';

export async function* verifyDocument(doc: FormatDocument, ctx: TaskContext): AsyncIterable<Check> {
  try {
    for await (const c of doc.verify(ctx)) yield c;
  } catch (e) {
    rethrowUnlessFormatError(e, 'cancelled');
    yield failFrom('verify', e);
  }
  const coverage = await doc.coverage(ctx.signal);
  for (const p of coverage.parts) if (p.check === null) yield info('not covered', `${p.part}: no checksum covers them`);
}

/**
 * How long verifying a file of `bytes` may take before the CLI's pool and the editor's folder
 * verify give up on it and stop the thread it runs in: a minute, plus a second per MiB. Every
 * family verifies a MiB in well under a second (bench/RESULTS.md), so only a decoder that stopped
 * making progress passes it, and it still bounds how long one file can hold a worker.
 */
export function verifyDeadlineMs(bytes: number): number {
  return 60_000 + Math.ceil(bytes / 2 ** 20) * 1000;
}
