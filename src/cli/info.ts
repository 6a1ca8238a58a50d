import { basename } from 'node:path';
import { toJson } from './json.js';
import { EXIT_OK, withDocument } from './files.js';

/**
 * `binlens info`: what the file is, with its exact counts; those that need a pass over the data
 * (BEN frames and samples) are counted first unless `fast`, which answers from the headers and
 * leaves them "not counted" (null in JSON, with `"counted": false`).
 */
export async function infoCommand(path: string, opts: { json: boolean; format?: string; fast?: boolean }): Promise<number> {
  const unreadable = (outcome: { reason: string; handler?: { id: string } }) => {
    if (opts.json) console.log(toJson({ file: path, format: outcome.handler?.id ?? null, error: outcome.reason }));
    else console.error(`binlens: ${path}: ${outcome.reason}`);
  };
  return withDocument(
    path,
    opts.format,
    async (doc, src) => {
      if (!opts.fast) await doc.countAll?.({});
      if (opts.json) {
        console.log(
          toJson(
            {
              file: path,
              format: doc.format,
              title: doc.title,
              size: src.size,
              ...doc.info(),
              summary: doc.summary.map((f) => ({ name: f.name, value: f.value, display: f.display, offset: f.range?.offset, length: f.range?.length })),
              warnings: doc.warnings,
            },
            2,
          ),
        );
        return EXIT_OK;
      }
      const lines = [`file: ${basename(path)}`, `format: ${doc.format} (${doc.title})`, `size: ${src.size}`];
      for (const f of doc.summary) lines.push(`${f.name}: ${f.display ?? String(f.value)}${f.note ? `  (${f.note})` : ''}`);
      for (const w of doc.warnings) lines.push(`${w.status === 'fail' ? 'error' : 'warning'}: ${w.name}: ${w.detail}`);
      console.log(lines.join('\n'));
      return EXIT_OK;
    },
    unreadable,
  );
}
