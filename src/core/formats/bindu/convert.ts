import { hexString } from '../../describe.js';
import { sha256Stream } from '../../codecs/sha256.js';
import type { CatSpec, Converter } from '../../model.js';
import type { ChunkReader, ColumnView } from './columns.js';
import type { Container } from './container.js';
import { isByteStream, writeByteStream, writeRows } from './export.js';

/** Bindu → JSONL, CSV, and a byte stream back to its original bytes; and what `binlens cat` prints. */
export function exportConverters(c: Container, views: readonly ColumnView[], reader: ChunkReader): Converter[] {
  const rows = (format: 'jsonl' | 'csv', label: string): Converter => ({
    id: format,
    label,
    extension: `.${format}`,
    output: 'file',
    async run(target, ctx) {
      const n = await writeRows(format, c, views, reader, {}, await target.file(), ctx);
      return { summary: `${n} rows × ${views.length} columns` };
    },
  });
  const out = [rows('jsonl', 'JSON lines (one object per row)'), rows('csv', 'CSV (header row; null is an empty field, "" an empty string)')];
  if (isByteStream(c)) {
    out.unshift({
      id: 'bytes',
      label: 'Original bytes (byte stream)',
      extension: '.bin',
      output: 'file',
      async run(target, ctx) {
        const sink = await target.file();
        const digest = await sha256Stream();
        const n = await writeByteStream(c, views, reader, { write: (b) => (digest.update(b), sink.write(b)) }, ctx);
        const got = hexString(digest.digest());
        const want = c.header?.sourceDigest ? hexString(c.header.sourceDigest) : undefined;
        return { summary: `${n} bytes${want === got ? ', SHA-256 equals the source digest' : ''}`, warnings: want && want !== got ? [`SHA-256 ${got} differs from the source digest ${want}`] : undefined };
      },
    });
  }
  return out;
}

export function catSpec(c: Container, views: readonly ColumnView[], reader: ChunkReader): CatSpec {
  return {
    formats: isByteStream(c) ? ['jsonl', 'csv', 'raw'] : ['jsonl', 'csv'],
    async run(format, range, out, ctx) {
      if (format === 'raw') await writeByteStream(c, views, reader, out, ctx);
      else await writeRows(format === 'csv' ? 'csv' : 'jsonl', c, views, reader, range, out, ctx);
    },
  };
}
