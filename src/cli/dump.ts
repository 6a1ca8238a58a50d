import { basename } from 'node:path';
import { writeDump } from '../core/dump.js';
import { writeBriefDump } from '../core/dumpBrief.js';
import { EXIT_OK, EXIT_UNREADABLE, closeOpened, openPath } from './files.js';
import { stdoutSink } from './stdout.js';

const encoder = new TextEncoder();

export async function dumpCommand(path: string, opts: { format?: string; brief?: boolean }): Promise<number> {
  const opened = await openPath(path, opts.format);
  try {
    const { outcome } = opened;
    if (outcome.kind !== 'opened') {
      console.error(`binlens: ${path}: ${outcome.reason}`);
      return EXIT_UNREADABLE;
    }
    const dumpOpts = { fileName: basename(path), size: opened.src.size };
    const write = (text: string) => stdoutSink.write(encoder.encode(text));
    if (opts.brief) await writeBriefDump(outcome.doc, opened.src, dumpOpts, write);
    else await writeDump(outcome.doc, dumpOpts, write);
    return EXIT_OK;
  } finally {
    await closeOpened(opened);
  }
}
