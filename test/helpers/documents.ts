import { MemorySource } from '../../src/core/io/byteSource.js';
import type { ByteSink, Check, FormatDocument, FormatHandler, OutputTarget } from '../../src/core/model.js';

/** Opens bytes with one handler, as the registry would after detection. */
export function openWith(handler: FormatHandler, bytes: Uint8Array, name?: string): Promise<FormatDocument> {
  return handler.open(new MemorySource(bytes), { name });
}

/** Every check a document's verification streams. */
export async function verifyAll(doc: FormatDocument): Promise<Check[]> {
  const out: Check[] = [];
  for await (const c of doc.verify({})) out.push(c);
  return out;
}

/** An OutputTarget that keeps the files a conversion writes in memory ('' is the single-file output). */
export function memoryTarget(): OutputTarget & { readonly files: Map<string, Uint8Array> } {
  const parts = new Map<string, Uint8Array[]>();
  const files = new Map<string, Uint8Array>();
  return {
    get files() {
      files.clear();
      for (const [name, list] of parts) files.set(name, Uint8Array.from(Buffer.concat(list)));
      return files;
    },
    async file(name = '') {
      const list: Uint8Array[] = [];
      parts.set(name, list);
      const sink: ByteSink = {
        async write(chunk) {
          list.push(Uint8Array.from(chunk));
        },
      };
      return sink;
    },
  };
}

/** What `binlens cat` would print in one format, as bytes. */
export async function catBytes(
  doc: FormatDocument,
  format: 'raw' | 'jsonl' | 'tsv' | 'csv',
  range: { from?: number; count?: number } = {},
): Promise<Uint8Array> {
  const target = memoryTarget();
  await doc.cat!.run(format, range, await target.file(), {});
  return target.files.get('')!;
}
