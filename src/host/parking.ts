import type { EngineOps } from '../protocol/protocol.js';
import { RpcError } from '../protocol/rpc.js';
import type { EngineLease, EngineRpc } from './enginePool.js';

type OpenParams = EngineOps['open']['params'];
type TableParams = EngineOps['table']['params'];
type FindingsParams = EngineOps['findings']['params'];

/** Parameterised tables replayed after a reopen: the engine keeps as many (viewOps.ts). */
const MAX_REPLAYED_TABLES = 16;

export interface ParkingOptions {
  /** A fresh share of the pool: at the start, and at the first request after each close. */
  readonly lease: () => EngineLease;
  /** Nothing asked for this long (ms): the documents are closed in their thread. */
  readonly closeAfterMs: number;
  /** The file's size and mtime as one string; undefined when it cannot be read (gone, no access). */
  readonly identity: (path: string) => Promise<string | undefined>;
}

export interface ParkingLease extends EngineLease {
  /**
   * A document closed while idle found its file changed at the next request: that request fails
   * ('file changed', cancelled) and the listener opens the file again as for any change on disk.
   */
  onStale(listener: () => void): void;
  /** The documents are closed in their thread and the lease given back. */
  readonly parked: boolean;
}

/** What is needed to open a document again as it was: its open, its identity then, its parameterised tables, what a verify found. */
interface Kept {
  readonly open: OpenParams & { path: string };
  readonly identity: string | undefined;
  readonly tables: TableParams[];
  findings?: FindingsParams;
}

function keepTable(tables: TableParams[] | undefined, params: TableParams): void {
  if (!tables) return;
  tables.push(params);
  if (tables.length > MAX_REPLAYED_TABLES) tables.shift();
}

/** Opens a kept document again as it was: its parameterised tables, and what a verify found in it. */
async function replay(rpc: EngineRpc, k: Kept): Promise<void> {
  await rpc.call('open', k.open);
  for (const t of k.tables) await rpc.call('table', t);
  if (k.findings) await rpc.call('findings', k.findings);
}

/** The documents whose file is not as it was when opened (or cannot be read now). */
async function changedFiles(kept: ReadonlyMap<string, Kept>, identity: ParkingOptions['identity'], skip?: unknown): Promise<string[]> {
  const changed: string[] = [];
  for (const [doc, k] of kept) if (doc !== skip && (k.identity === undefined || (await identity(k.open.path)) !== k.identity)) changed.push(doc);
  return changed;
}

/**
 * An editor's lease that lets go of its thread when idle (issue 21: caches go first, after
 * `idleCachesMs`; the document's worker state second, after `closeAfterMs`). Closing stores the
 * document's index (the engine's `forget`), and a thread left with no documents ends as the pool
 * ends any. The next request takes a lease again, opens the documents from their saved indexes,
 * replays their parameterised tables and then goes through: node ids are paths (nodeIds.ts), so
 * the webview's ids, pages and selection hold, and it is told nothing. Requests arriving
 * meanwhile wait for the one reopen. A file whose size or mtime changed is not served silently:
 * `onStale` reports it. Documents opened from bytes (a non-file URI) cannot be read again and
 * keep their lease.
 */
export function parkingLease(options: ParkingOptions): ParkingLease {
  let current: EngineLease | undefined = options.lease();
  const kept = new Map<string, Kept>();
  let pinned = false;
  let inFlight = 0;
  let uses = 0;
  let released = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let resuming: Promise<void> | undefined;
  const stale: (() => void)[] = [];

  const remember = async (op: string, params: Record<string, unknown>): Promise<void> => {
    const doc = params.doc as string;
    if (op === 'close') kept.delete(doc);
    else if (op === 'table') keepTable(kept.get(doc)?.tables, params as TableParams);
    else if (op === 'findings' && kept.has(doc)) kept.get(doc)!.findings = params as FindingsParams;
    else if (op === 'open' && typeof params.path === 'string') {
      const open = { ...(params as OpenParams), path: params.path };
      kept.set(doc, { open, identity: await options.identity(params.path), tables: [] });
    } else if (op === 'open') pinned = true;
  };

  const reopen = async (skip: unknown): Promise<void> => {
    const lease = options.lease();
    const changed = await changedFiles(kept, options.identity, skip);
    try {
      for (const [doc, k] of kept) {
        if (doc === skip || changed.includes(doc)) continue;
        await replay(lease.rpc, k);
      }
    } catch (e) {
      lease.release();
      throw e;
    }
    current = lease;
    if (changed.length === 0) return;
    for (const doc of changed) kept.delete(doc);
    for (const listener of stale) listener();
    throw new RpcError({ message: 'file changed', code: 'cancelled' });
  };

  const park = async (): Promise<void> => {
    const seen = uses;
    if (!current || pinned || released || inFlight > 0 || kept.size === 0) return;
    // The file may have changed since the open, unseen: closing now would reopen it silently.
    if ((await changedFiles(kept, options.identity)).length > 0) return;
    if (uses !== seen || inFlight > 0 || !current) return;
    current.release();
    current = undefined;
  };

  const arm = () => {
    clearTimeout(timer);
    if (!released && current && inFlight === 0 && options.closeAfterMs > 0) timer = setTimeout(() => void park(), options.closeAfterMs);
  };

  const call = async (op: string, params: Record<string, unknown>, opts?: Parameters<EngineRpc['call']>[2]): Promise<unknown> => {
    if (released) throw new Error('engine lease released');
    uses++;
    inFlight++;
    clearTimeout(timer);
    try {
      if (!current) await (resuming ??= reopen(op === 'open' ? params.doc : undefined).finally(() => (resuming = undefined)));
      const result = await current!.rpc.call(op as 'open', params as OpenParams, opts);
      await remember(op, params);
      return result;
    } finally {
      inFlight--;
      arm();
    }
  };

  return {
    rpc: { call: call as EngineRpc['call'] },
    release() {
      released = true;
      clearTimeout(timer);
      current?.release();
      current = undefined;
    },
    abandon: () => current?.abandon(),
    onStale: (listener) => void stale.push(listener),
    get parked() {
      return current === undefined && !released;
    },
  };
}
