import * as vscode from 'vscode';
import { MemorySource } from '../core/io/byteSource.js';
import type { ByteSink, OutputTarget } from '../core/model.js';
import { RpcClient, RpcServer, memoryChannel } from '../protocol/rpc.js';
import type { EngineOps } from '../protocol/protocol.js';
import { engineHandlers, type Platform } from './engine/engine.js';
import { type Engine, fileNameOf } from './engineClient.js';
import { toErrorDTO } from './errors.js';
import { MemoryIndexStore } from './engine/memoryIndexStore.js';
import { HeldFiles } from './heldFiles.js';

const fileAt = (location: string) => vscode.Uri.parse(location, true);
/** One copy of a file's bytes for every engine that opens it: an editor's, and its Verify's on a job engine. */
const heldFiles = new HeldFiles(
  async (location) => await vscode.workspace.fs.stat(fileAt(location)),
  async (location) => await vscode.workspace.fs.readFile(fileAt(location)),
);

/** Reads and writes through workspace.fs, where the web build (vscode.dev, Codespaces in a browser) keeps files. */
const webPlatform: Platform = {
  async openPath(location) {
    return new MemorySource(await heldFiles.bytes(location));
  },
  openBytes: (bytes) => new MemorySource(new Uint8Array(bytes)),
  // No disk of our own: indexes and panel results (the Ensemble tab's) live as long as the window, for every document in it.
  indexes: new MemoryIndexStore(async (location) => (await vscode.workspace.fs.stat(vscode.Uri.parse(location, true))).mtime),
  async writeOutput(out, opts, run) {
    const final = vscode.Uri.parse(out, true);
    if (opts.inputs.some((i) => vscode.Uri.parse(i, true).toString() === final.toString()))
      throw new Error(`refusing to write the output over its input ${out}`);
    const exists = await vscode.workspace.fs.stat(final).then(
      () => true,
      () => false,
    );
    if (exists && !opts.force) throw new Error(`${out} exists`);
    // Outputs are collected, written under a temporary name and renamed into place, so a failed
    // or cancelled conversion leaves nothing behind and an existing output is only replaced at the end.
    const files = new Map<string, Uint8Array[]>();
    const target: OutputTarget = {
      async file(name?: string): Promise<ByteSink> {
        const key = name ?? '';
        if (opts.kind === 'folder' && (!name || /[\\/]|^\.\.?$/.test(name))) throw new Error(`refusing output name ${JSON.stringify(name)}`);
        const parts: Uint8Array[] = [];
        files.set(key, parts);
        return { write: async (chunk) => void parts.push(chunk.slice()) };
      },
    };
    const result = await run(target);
    const temp = final.with({ path: `${final.path}.binlens-${Date.now()}.tmp` });
    const join = (parts: Uint8Array[]) => {
      const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) (all.set(p, at), (at += p.length));
      return all;
    };
    try {
      if (opts.kind === 'folder') {
        await vscode.workspace.fs.createDirectory(temp);
        for (const [name, parts] of files) await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(temp, name), join(parts));
      } else await vscode.workspace.fs.writeFile(temp, join(files.get('') ?? []));
      await vscode.workspace.fs.rename(temp, final, { overwrite: opts.force });
    } catch (e) {
      await vscode.workspace.fs.delete(temp, { recursive: true }).then(undefined, () => undefined);
      throw e;
    }
    return result;
  },
};

/**
 * The engine in the web extension host, which is itself a worker: the same handlers as the Node
 * worker, over an in-process channel. Long work yields between slices (scanRange), so the host
 * keeps answering.
 */
export function createWebEngine(): Engine {
  const [client, server] = memoryChannel();
  const rpcServer = new RpcServer<EngineOps>(server, engineHandlers(webPlatform), toErrorDTO);
  const rpc = new RpcClient<EngineOps>(client);
  return {
    rpc,
    open: (doc, uri, format) => rpc.call('open', { doc, path: uri.toString(), name: fileNameOf(uri), format }),
    location: (uri) => uri.toString(),
    dispose() {
      rpc.dispose();
      rpcServer.dispose();
    },
  };
}
