import { constants } from 'node:fs';
import { mkdir, open, realpath, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { FormatError } from '../errors.js';
import type { ByteSink, OutputTarget } from '../model.js';

export interface AtomicOutputOptions {
  /** Replace an existing output. Without it, an existing output is an error. */
  readonly force?: boolean;
  /** Input paths the output must not replace. */
  readonly inputs?: readonly string[];
  /** 'folder' outputs are directories of files (one file per chunk, extracted assets). */
  readonly kind: 'file' | 'folder';
}

export class OutputExistsError extends Error {
  override readonly name = 'OutputExistsError';
}

/**
 * Writes a conversion's output next to its final path and renames it into place only when the
 * conversion succeeded, so a cancel, an error or a full disk never leaves a partial output and
 * never touches an existing file. Returns what the conversion returned.
 */
export async function writeAtomically<T>(outPath: string, opts: AtomicOutputOptions, run: (target: OutputTarget) => Promise<T>): Promise<T> {
  const finalPath = resolve(outPath);
  await refuseInputs(finalPath, opts.inputs ?? []);
  const existing = await stat(finalPath).catch(() => undefined);
  if (existing && !opts.force) throw new OutputExistsError(`${finalPath} exists (use --force to replace it)`);
  if (existing && opts.kind === 'file' && !existing.isFile()) throw new OutputExistsError(`${finalPath} exists and is not a file`);

  const tempOf = (path: string) => join(dirname(path), `.${basename(path)}.binlens-${process.pid}-${Date.now()}.tmp`);
  const temp = tempOf(finalPath);
  const handles: FileHandle[] = [];
  /** Files beside the output (final path → temporary path), renamed into place before it. */
  const besides = new Map<string, string>();
  const target: OutputTarget = {
    async file(name?: string): Promise<ByteSink> {
      let path = temp;
      if (opts.kind === 'folder') {
        if (!name || name.includes('/') || name.includes('\\') || name === '.' || name === '..') {
          throw new FormatError('corrupt', `refusing output name ${JSON.stringify(name)}`);
        }
        await mkdir(temp, { recursive: true });
        path = join(temp, name);
      }
      opened = true;
      return sinkAt(path);
    },
    async beside(suffix: string): Promise<ByteSink> {
      if (opts.kind !== 'file' || /[\\/]/.test(suffix)) throw new FormatError('corrupt', `refusing a file beside the output named ${JSON.stringify(suffix)}`);
      const path = finalPath + suffix;
      if (besides.has(path)) throw new FormatError('corrupt', `${path} is written twice`);
      await refuseInputs(path, opts.inputs ?? []);
      if (!opts.force && (await stat(path).catch(() => undefined))) throw new OutputExistsError(`${path} exists (use --force to replace it)`);
      besides.set(path, tempOf(path));
      return sinkAt(besides.get(path)!);
    },
  };
  let opened = false;
  async function sinkAt(path: string): Promise<ByteSink> {
    const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
    handles.push(handle);
    return {
      // Each write is awaited to its last byte.
      releasesChunk: true,
      async write(chunk: Uint8Array): Promise<void> {
        let done = 0;
        while (done < chunk.length) {
          const { bytesWritten } = await handle.write(chunk, done, chunk.length - done);
          done += bytesWritten;
        }
      },
      async patch(offset: number, bytes: Uint8Array): Promise<void> {
        let done = 0;
        while (done < bytes.length) {
          const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, offset + done);
          done += bytesWritten;
        }
      },
    };
  }
  try {
    const result = await run(target);
    if (opts.kind === 'folder') await mkdir(temp, { recursive: true });
    else if (!opened) await (await target.file()).write(new Uint8Array(0));
    for (const h of handles) await h.sync();
    await closeAll(handles);
    // The companions first: an output whose map or graph failed to land would be one nobody can undo.
    for (const [path, t] of besides) await rename(t, path);
    if (existing && opts.force) await rm(finalPath, { recursive: true, force: true });
    await rename(temp, finalPath);
    return result;
  } catch (e) {
    await closeAll(handles);
    await rm(temp, { recursive: true, force: true });
    for (const t of besides.values()) await rm(t, { force: true });
    throw e;
  }
}

async function closeAll(handles: FileHandle[]): Promise<void> {
  for (const h of handles.splice(0)) await h.close().catch(() => undefined);
}

async function refuseInputs(finalPath: string, inputs: readonly string[]): Promise<void> {
  const real = await realpath(finalPath).catch(() => finalPath);
  for (const input of inputs) {
    const realInput = await realpath(resolve(input)).catch(() => resolve(input));
    if (realInput === real) throw new OutputExistsError(`refusing to write the output over its input ${input}`);
  }
}
