import { basename } from 'node:path';
import { writeDump } from '../core/dump.js';
import { writeBriefDump } from '../core/dumpBrief.js';
import { EXIT_OK, withDocument } from './files.js';
import { stdoutSink } from './stdout.js';

const encoder = new TextEncoder();

export async function dumpCommand(path: string, opts: { format?: string; brief?: boolean }): Promise<number> {
  return withDocument(path, opts.format, async (doc, src) => {
    const dumpOpts = { fileName: basename(path), size: src.size };
    const write = (text: string) => stdoutSink.write(encoder.encode(text));
    if (opts.brief) await writeBriefDump(doc, src, dumpOpts, write);
    else await writeDump(doc, dumpOpts, write);
    return EXIT_OK;
  });
}
