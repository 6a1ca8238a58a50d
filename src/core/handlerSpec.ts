/**
 * How a family declares its handler: the sniffer and metadata load with the registry, the
 * document code (and its WebAssembly) only when a file of the family is opened, so a process
 * loads the family of the file at hand and no other.
 */
import type { ByteSource } from './io/byteSource.js';
import type { FormatDocument, FormatHandler, OpenContext } from './model.js';

export type OpenDocument = (src: ByteSource, ctx: OpenContext) => Promise<FormatDocument>;

/** `document` imports the family's open function: a dynamic `import()` in the family's own folder. */
export function lazyHandler<const Id extends string>(
  handler: Omit<FormatHandler, 'id' | 'open'> & { readonly id: Id },
  document: () => Promise<OpenDocument>,
): FormatHandler & { readonly id: Id } {
  return { ...handler, open: async (src, ctx) => (await document())(src, ctx) };
}
