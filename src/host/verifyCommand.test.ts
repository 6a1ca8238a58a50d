import { describe, expect, it, vi } from 'vitest';
import * as vscode from 'vscode';
import { fixture } from '../../test/helpers/fixtures.js';
import type { EngineOps, TopDTO } from '../protocol/protocol.js';
import { memoryChannel, RpcClient, RpcServer } from '../protocol/rpc.js';
import { BinlensDocument } from './editorProvider.js';
import { engineHandlers } from './engine/engine.js';
import { nodePlatform } from './engine/nodePlatform.js';
import type { Engine, EngineUse } from './engineClient.js';
import { toErrorDTO } from './errors.js';
import { verifyUris } from './verifyCommand.js';

vi.mock('vscode', () => import('./vscodeFake.testkit.js'));

/** An engine of its own (its own documents), as a pool lease is, whose operations are written down. */
function recordedEngine(ops: string[]): Engine {
  const [client, server] = memoryChannel();
  const rpcServer = new RpcServer<EngineOps>(server, engineHandlers(nodePlatform), toErrorDTO);
  const rpc = new RpcClient<EngineOps>(client);
  const call: RpcClient<EngineOps>['call'] = (op, params, opts) => (ops.push(op), rpc.call(op, params, opts));
  return {
    rpc: { call },
    open: (doc, uri) => call('open', { doc, path: uri.fsPath, name: uri.path.split('/').pop()! }),
    location: (uri) => uri.fsPath,
    dispose: () => (rpc.dispose(), rpcServer.dispose()),
  };
}

/** The engines a run asks for, by use, each with the operations it was sent. */
function engines() {
  const made: { use: EngineUse; ops: string[] }[] = [];
  const create = (use: EngineUse = 'view') => {
    const ops: string[] = [];
    made.push({ use, ops });
    return recordedEngine(ops);
  };
  return { made, create };
}

function reporting() {
  const problems = new Map<string, readonly vscode.Diagnostic[]>();
  const lines: string[] = [];
  const diagnostics = { set: (uri: vscode.Uri, d: readonly vscode.Diagnostic[]) => void problems.set(uri.toString(), d) } as vscode.DiagnosticCollection;
  const log = {
    info: (t: string) => lines.push(t),
    warn: (t: string) => lines.push(t),
    error: (t: string) => lines.push(t),
  } as unknown as vscode.LogOutputChannel;
  return { problems, lines, diagnostics, log };
}

const damaged = vscode.Uri.file(fixture('fst/corrupt/small.map.fst3.flip-crc.fst'));
const crcRow = (top: TopDTO) => top.children.find((n) => n.label === 'checksum (masked CRC-32C)');

describe("Verify of a file open in an editor (issue 21: a long job never blocks another document's pages)", () => {
  it("runs on a job engine, never `verify` in the editor's engine; what failed then marks the editor's top rows", async () => {
    const { made, create } = engines();
    const editor = await BinlensDocument.open(damaged, create);
    expect(crcRow(await editor.engine.rpc.call('top', { doc: 'doc' }))?.mark).toBeUndefined();
    const marked = new Promise<TopDTO>((resolve) => editor.onDidCheck(resolve));
    const out = reporting();
    const totals = await verifyUris([damaged], { createEngine: create, diagnostics: out.diagnostics, log: out.log, inEditor: () => editor });
    expect(totals).toEqual({ passed: 0, failed: 1, unreadable: 0 });
    const top = await marked;
    // 814414607 and 2961898255 from fixtures/fst/corrupt/EXPECTED.tsv, in hex: the check's detail, as the Problems panel has it.
    expect(crcRow(top)).toMatchObject({ mark: 'error', note: expect.stringContaining('stored 0x308afb0f, computed 0xb08afb0f') });
    expect(top.root.mark).toBe('error');
    const [mine, ...jobs] = made;
    expect(mine!.use).toBe('editor');
    expect(mine!.ops).toEqual(['open', 'top', 'findings']);
    expect(jobs.every((j) => j.use === 'job')).toBe(true);
    expect(jobs.some((j) => j.ops.includes('verify'))).toBe(true);
    editor.dispose();
  });

  it('reports to the Problems panel and the log exactly as for a file no editor has open', async () => {
    const run = async (inEditor: boolean) => {
      const { create } = engines();
      const editor = inEditor ? await BinlensDocument.open(damaged, create) : undefined;
      const out = reporting();
      await verifyUris([damaged], { createEngine: create, diagnostics: out.diagnostics, log: out.log, inEditor: () => editor });
      editor?.dispose();
      const problems = out.problems.get(damaged.toString())!.map((d) => [d.message, d.severity, d.code]);
      return { problems, lines: out.lines };
    };
    const alone = await run(false);
    expect(alone.problems.length).toBeGreaterThan(0);
    expect(await run(true)).toEqual(alone);
  });
});
