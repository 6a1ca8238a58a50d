import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScratchFile, ScratchSpace } from '../model.js';
import { NodeFileSource } from './nodeFile.js';
import type { ByteSource } from './byteSource.js';

/** Scratch files in a private temporary folder; `dispose` removes the folder and everything in it. */
export interface DisposableScratch extends ScratchSpace {
  dispose(): Promise<void>;
}

export async function createScratchSpace(): Promise<DisposableScratch> {
  const dir = await mkdtemp(join(tmpdir(), 'binlens-scratch-'));
  const sources: ByteSource[] = [];
  const writing = new Set<FileHandle>();
  let next = 0;
  return {
    async create(): Promise<ScratchFile> {
      const path = join(dir, `${next++}.tmp`);
      const handle = await open(path, 'wx');
      writing.add(handle);
      return {
        async write(chunk: Uint8Array): Promise<void> {
          for (let done = 0; done < chunk.length; ) done += (await handle.write(chunk, done, chunk.length - done)).bytesWritten;
        },
        async finish(): Promise<ByteSource> {
          writing.delete(handle);
          await handle.close();
          const src = await NodeFileSource.open(path);
          sources.push(src);
          return src;
        },
      };
    },
    async dispose(): Promise<void> {
      for (const h of writing) await h.close().catch(() => undefined);
      writing.clear();
      for (const s of sources.splice(0)) await s.close?.().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
