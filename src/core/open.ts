import { FormatError, rethrowUnlessFormatError } from './errors.js';
import type { ByteSource } from './io/byteSource.js';
import type { FormatDocument, FormatHandler } from './model.js';
import { detect, handlerById, handlerForExtension, handlers as registered, probe } from './registry.js';

export type OpenOutcome =
  | { readonly kind: 'opened'; readonly handler: FormatHandler; readonly doc: FormatDocument }
  | {
      readonly kind: 'unrecognised';
      /** Why no reader took the file, in one sentence for the user. */
      readonly reason: string;
      /** The reader the file's extension suggested, when there is one. */
      readonly handler?: FormatHandler;
      readonly error?: FormatError;
    };

export interface OpenRequest {
  readonly name?: string;
  readonly signal?: AbortSignal;
  /** Skip detection and use this format. */
  readonly format?: string;
  /** The formats to choose from: the registry's unless a test adds one (addFormat.test.ts). */
  readonly handlers?: readonly FormatHandler[];
}

/**
 * Opens a file with the reader its content names. When no reader recognises the content but the
 * extension belongs to one, that reader is still asked, so a damaged file gets its reader's
 * precise error ("unknown fst format version 9 at offset 0") instead of a shrug.
 */
export async function openDocument(src: ByteSource, req: OpenRequest = {}): Promise<OpenOutcome> {
  const ctx = { name: req.name, signal: req.signal };
  const list = req.handlers ?? registered;
  if (req.format !== undefined) {
    const handler = handlerById(req.format, list);
    if (!handler) return { kind: 'unrecognised', reason: `unknown format "${req.format}"` };
    return tryOpen(handler, src, ctx);
  }
  const candidates = detect(await probe(src, req.name), list);
  let firstError: FormatError | undefined;
  let firstHandler: FormatHandler | undefined;
  for (const { handler } of candidates) {
    const outcome = await tryOpen(handler, src, ctx);
    if (outcome.kind === 'opened') return outcome;
    firstError ??= outcome.error;
    firstHandler ??= handler;
  }
  const byExtension = req.name === undefined ? undefined : handlerForExtension(req.name, list);
  if (byExtension && !candidates.some((c) => c.handler === byExtension)) {
    return tryOpen(byExtension, src, ctx);
  }
  if (firstError && firstHandler) {
    return { kind: 'unrecognised', reason: `not a readable ${firstHandler.label} file: ${firstError.message}`, handler: firstHandler, error: firstError };
  }
  return { kind: 'unrecognised', reason: 'not a Binlens format: no reader recognises its content' };
}

async function tryOpen(handler: FormatHandler, src: ByteSource, ctx: { name?: string; signal?: AbortSignal }): Promise<OpenOutcome> {
  try {
    return { kind: 'opened', handler, doc: await handler.open(src, ctx) };
  } catch (e) {
    rethrowUnlessFormatError(e);
    return { kind: 'unrecognised', reason: `not a readable ${handler.label} file: ${e.message}`, handler, error: e };
  }
}
