import { basename } from 'node:path';
import { writeDump } from '../core/dump.js';
import { EXIT_OK, EXIT_UNREADABLE, closeOpened, openPath } from './files.js';
import { stdoutSink } from './stdout.js';

const encoder = new TextEncoder();

export async function dumpCommand(path: string, opts: { format?: string }): Promise<number> {
  const opened = await openPath(path, opts.format);
  try {
    const { outcome } = opened;
    if (outcome.kind !== 'opened') {
      console.error(`binlens: ${path}: ${outcome.reason}`);
      return EXIT_UNREADABLE;
    }
    await writeDump(outcome.doc, { fileName: basename(path), size: opened.src.size }, (text) => stdoutSink.write(encoder.encode(text)));
    return EXIT_OK;
  } finally {
    await closeOpened(opened);
  }
}
