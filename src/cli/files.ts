import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { openFile } from '../core/io/nodeFile.js';
import { openDocument, type OpenOutcome } from '../core/open.js';
import type { ByteSource } from '../core/io/byteSource.js';
import type { FormatDocument } from '../core/model.js';
import { handlers } from '../core/registry.js';

/** Exit codes of the CLI contract. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_UNREADABLE = 2;

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface Opened {
  readonly src: ByteSource;
  readonly outcome: OpenOutcome;
}

/** Opens `path` with `source` (a paged file by default) and the reader its content names. */
export async function openPath(path: string, format?: string, source: (path: string) => Promise<ByteSource> = openFile): Promise<Opened> {
  const src = await source(path);
  try {
    return { src, outcome: await openDocument(src, { name: basename(path), format }) };
  } catch (e) {
    await src.close?.();
    throw e;
  }
}

/**
 * Opens `path`, runs `run` on its document and closes it, whatever happens. A file no format
 * recognises is reported (on stderr, or by `unreadable`) and gives exit 2.
 */
export async function withDocument(
  path: string,
  format: string | undefined,
  run: (doc: FormatDocument, src: ByteSource) => Promise<number>,
  unreadable: (outcome: Exclude<OpenOutcome, { kind: 'opened' }>) => void = (o) => console.error(`binlens: ${path}: ${o.reason}`),
): Promise<number> {
  const opened = await openPath(path, format);
  try {
    if (opened.outcome.kind !== 'opened') {
      unreadable(opened.outcome);
      return EXIT_UNREADABLE;
    }
    return await run(opened.outcome.doc, opened.src);
  } finally {
    await closeOpened(opened);
  }
}

export async function closeOpened(o: Opened): Promise<void> {
  if (o.outcome.kind === 'opened') await o.outcome.doc.close?.();
  await o.src.close?.();
}

const knownExtensions = new Set(handlers.flatMap((h) => h.extensions));

/** Files named on the command line; folders contribute their Binlens files, recursively, sorted. */
export async function expandPaths(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const s = await stat(p);
    if (s.isDirectory()) out.push(...(await walk(p)));
    else out.push(p);
  }
  return out;
}

async function walk(dir: string): Promise<string[]> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: string[] = [];
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(p)));
    else if (e.isFile() && knownExtensions.has(extOf(e.name))) out.push(p);
  }
  return out;
}

function extOf(name: string): string {
  const i = name.lastIndexOf('.');
  return i < 0 ? '' : name.slice(i).toLowerCase();
}
