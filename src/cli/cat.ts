import type { CatFormat } from '../core/model.js';
import { EXIT_OK, EXIT_UNREADABLE, UsageError, closeOpened, openPath } from './files.js';
import { stdoutSink } from './stdout.js';

export interface CatArgs {
  readonly from?: number;
  readonly count?: number;
  readonly format?: string;
  readonly options: Record<string, string | boolean | number>;
  readonly as?: string;
}

export async function catCommand(path: string, args: CatArgs): Promise<number> {
  const opened = await openPath(path, args.as);
  try {
    const { outcome } = opened;
    if (outcome.kind !== 'opened') {
      console.error(`binlens: ${path}: ${outcome.reason}`);
      return EXIT_UNREADABLE;
    }
    const cat = outcome.doc.cat;
    if (!cat) throw new UsageError(`${outcome.doc.title}: content decoding is not available for this format yet`);
    const format = (args.format ?? cat.formats[0]) as CatFormat;
    if (!cat.formats.includes(format)) throw new UsageError(`--format ${format}: ${outcome.doc.format} prints ${cat.formats.join(', ')}`);
    await cat.run(format, { from: args.from, count: args.count, options: args.options }, stdoutSink, {});
    return EXIT_OK;
  } finally {
    await closeOpened(opened);
  }
}
