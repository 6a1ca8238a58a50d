import { hexString } from '../../describe.js';
import { sha256Stream } from '../../codecs/sha256.js';
import type { CatSpec, Converter } from '../../model.js';
import { fileConverter } from '../../converterSpec.js';
import { isByteStream, writeByteStream, writeRows, type Readable } from './export.js';

/** Bindu → JSONL, CSV, and a byte stream back to its original bytes; and what `binlens cat` prints. */
export function exportConverters(r: Readable): Converter[] {
  const { c } = r;
  const rows = (format: 'jsonl' | 'csv', label: string): Converter =>
    fileConverter({ id: format, label, extension: `.${format}` }, async (sink, ctx) => {
      const n = await writeRows(format, r, {}, sink, ctx);
      return { summary: `${n.rows} rows × ${n.columns} columns` };
    });
  const out = [rows('jsonl', 'JSON lines (one object per row)'), rows('csv', 'CSV (header row; null is an empty field, "" an empty string)')];
  if (isByteStream(c)) {
    out.unshift(
      fileConverter({ id: 'bytes', label: 'Original bytes (byte stream)', extension: '.bin' }, async (sink, ctx) => {
        const digest = await sha256Stream();
        const n = await writeByteStream(r, { write: (b) => (digest.update(b), sink.write(b)) }, ctx);
        const got = hexString(digest.digest());
        const want = c.header?.sourceDigest ? hexString(c.header.sourceDigest) : undefined;
        return {
          summary: `${n} bytes${want === got ? ', SHA-256 equals the source digest' : ''}`,
          warnings: want && want !== got ? [`SHA-256 ${got} differs from the source digest ${want}`] : undefined,
        };
      }),
    );
  }
  return out;
}

export function catSpec(r: Readable): CatSpec {
  return {
    formats: isByteStream(r.c) ? ['jsonl', 'csv', 'raw'] : ['jsonl', 'csv'],
    async run(format, range, out, ctx) {
      if (format === 'raw') await writeByteStream(r, out, ctx);
      else await writeRows(format === 'csv' ? 'csv' : 'jsonl', r, range, out, ctx);
    },
  };
}
