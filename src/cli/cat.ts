import type { CatFormat } from '../core/model.js';
import { catDocument } from '../core/ops/read.js';
import { UsageError, withDocument } from './files.js';
import { reportOutcome, reportReadError } from './integrity.js';
import { stdoutSink } from './stdout.js';

export interface CatArgs {
  readonly from?: number;
  readonly count?: number;
  readonly format?: string;
  readonly options: Record<string, string | boolean | number>;
  readonly as?: string;
  readonly salvage: boolean;
  readonly strict: boolean;
}

export async function catCommand(path: string, args: CatArgs): Promise<number> {
  return withDocument(path, args.as, async (doc) => {
    const cat = doc.cat;
    if (!cat) throw new UsageError(`${doc.title}: content decoding is not available for this format yet`);
    const format = (args.format ?? cat.formats[0]) as CatFormat;
    if (!cat.formats.includes(format)) throw new UsageError(`--format ${format}: ${doc.format} prints ${cat.formats.join(', ')}`);
    try {
      const read = await catDocument(doc, format, { from: args.from, count: args.count, options: args.options }, stdoutSink, { salvage: args.salvage });
      return reportOutcome(path, read, args.strict);
    } catch (e) {
      return reportReadError(path, doc.format, e, 'cat');
    }
  });
}
