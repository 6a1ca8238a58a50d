import type { ByteSource } from './io/byteSource.js';
import { readUpTo } from './io/byteSource.js';
import type { FormatHandler, Importer, Probe, SniffVerdict } from './model.js';
import { PROBE_BYTES } from './model.js';
import { benHandler } from './formats/ben/handler.js';
import { binduHandler } from './formats/bindu/handler.js';
import { fstHandler } from './formats/fst/handler.js';
import { idvHandler } from './formats/idv/handler.js';
import { xorbHandler } from './formats/xorb/handler.js';

/**
 * Every format Binlens reads. Everything else finds formats through this list; each function below
 * also takes another list, the seam test/conformance/addFormat.test.ts adds a throwaway format by.
 */
export const handlers = [benHandler, xorbHandler, binduHandler, idvHandler, fstHandler] as const satisfies readonly FormatHandler[];

/** The format ids, from the handlers themselves: adding a handler above adds its id. */
export type FormatId = (typeof handlers)[number]['id'];

export interface Detection {
  readonly handler: FormatHandler;
  readonly verdict: Exclude<SniffVerdict, 'no'>;
}

export async function probe(src: ByteSource, name?: string): Promise<Probe> {
  const head = await readUpTo(src, 0, PROBE_BYTES);
  const tailStart = Math.max(0, src.size - PROBE_BYTES);
  const tail = await readUpTo(src, tailStart, PROBE_BYTES);
  return { head, tail, size: src.size, name };
}

function extensionOf(name: string | undefined): string {
  if (!name) return '';
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

/**
 * The handlers that recognise the content, best first: a 'yes' beats a 'maybe', and between
 * equals the one registered for the file's extension wins. The extension alone never decides
 * (`.fst` is also OpenFst's and R's, `.idv` is also TeX's).
 */
export function detect(p: Probe, list: readonly FormatHandler[] = handlers): Detection[] {
  const ext = extensionOf(p.name);
  const found: Detection[] = [];
  for (const handler of list) {
    const verdict = handler.sniff(p);
    if (verdict !== 'no') found.push({ handler, verdict });
  }
  const rank = (d: Detection) => (d.verdict === 'yes' ? 2 : 0) + (d.handler.extensions.includes(ext) ? 1 : 0);
  return found.sort((a, b) => rank(b) - rank(a));
}

export function handlerById(id: string, list: readonly FormatHandler[] = handlers): FormatHandler | undefined {
  return list.find((h) => h.id === id);
}

export function handlerForExtension(name: string, list: readonly FormatHandler[] = handlers): FormatHandler | undefined {
  const ext = extensionOf(name);
  return list.find((h) => h.extensions.includes(ext));
}

export interface ImporterChoice {
  readonly handler: FormatHandler;
  readonly importer: Importer;
}

/** Importers that read a file with this name (by extension, or any file for `*`). */
export async function importersFor(name: string, list: readonly FormatHandler[] = handlers): Promise<ImporterChoice[]> {
  const ext = extensionOf(name);
  const lists = await Promise.all(list.map(async (handler) => ({ handler, importers: (await handler.importers?.()) ?? [] })));
  return lists.flatMap(({ handler, importers }) =>
    importers.filter((importer) => importer.accepts.includes(ext) || importer.accepts.includes('*')).map((importer) => ({ handler, importer })),
  );
}

export { extensionOf };
