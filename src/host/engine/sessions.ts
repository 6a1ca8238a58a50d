import type { ByteSource } from '../../core/io/byteSource.js';
import { equalBytes } from '../../core/io/bytes.js';
import { isLazy, type CacheMemory, type FormatDocument, type FormatHandler, type StructNode, type Table } from '../../core/model.js';
import type { NodeDTO, TopDTO } from '../../protocol/protocol.js';
import { MAX_PAGE } from '../../protocol/protocol.js';
import { RpcError } from '../../protocol/rpc.js';
import type { DiffRun } from './diffRuns.js';
import type { Findings } from './findings.js';
import { childId, ROOT_ID } from './nodeIds.js';
import type { Platform } from './platform.js';

/** One open document and what the engine keeps for it: the nodes the client holds ids of, derived tables, its index. */
export interface Session {
  readonly name: string;
  /** The local file, when opened by path: only those have a saved index. */
  readonly path: string | undefined;
  readonly src: ByteSource;
  readonly doc: FormatDocument;
  readonly handler: FormatHandler;
  /** The nodes the client was given, by id: a node's id is its path from the root (nodeIds.ts), so a reopen can find it again. */
  readonly nodes: Map<string, StructNode>;
  /** Tables made for parameter values (`table` operation), most recent last. */
  readonly derived: Map<string, Table>;
  /** The index bytes last loaded or saved, so an unchanged index is not written again. */
  stored?: Uint8Array;
  /** What a verify of the file elsewhere found (the `findings` operation): the nodes it lies in are marked. */
  findings?: Findings;
}

/** What a session keeps only to answer faster: the file's pages (a PageCache source) and what the document decoded. */
export function cachesOf(s: Session): CacheMemory[] {
  return [s.src, s.doc.memory].filter(
    (c): c is CacheMemory => typeof (c as Partial<CacheMemory> | undefined)?.bytes === 'function' && typeof (c as CacheMemory).drop === 'function',
  );
}

/** A node the client may ask about by the id it is given here: its path (`ROOT_ID`, `childId`). */
export function register(s: Session, node: StructNode, id: string): NodeDTO {
  s.nodes.set(id, node);
  const c = node.children;
  const childCount = c === undefined ? 0 : isLazy(c) ? (c.count() ?? null) : c.length;
  const own = { mark: node.mark, note: node.note };
  const { mark, note } = s.findings?.mark(own, node.range, id === ROOT_ID) ?? own;
  return { id, label: node.label, value: node.value, range: node.range, mark, note, childCount };
}

/** The fresh top rows (shared by count, findings and `top`): getters on the nodes say what the work settled. */
export function topDTO(s: Session): TopDTO {
  const root = s.doc.structure();
  const c = root.children;
  const children = c === undefined || isLazy(c) ? [] : c.slice(0, MAX_PAGE).map((n, i) => register(s, n, childId(ROOT_ID, i)));
  return { root: register(s, root, ROOT_ID), children };
}

/** A document's table, or one made for parameter values. */
export function tableOf(s: Session, id: string): Table {
  const t = s.doc.tables.find((x) => x.id === id) ?? s.derived.get(id);
  if (!t) throw new RpcError({ message: `no table ${id}`, code: 'invalid-request' });
  return t;
}

/** The open documents of one engine and the diffs running between them, by the client's ids. */
export class Sessions {
  readonly open = new Map<string, Session>();
  readonly diffs = new Map<string, DiffRun>();

  constructor(readonly platform: Platform) {}

  get(doc: string): Session {
    const s = this.open.get(doc);
    if (!s) throw new RpcError({ message: `document ${doc} is not open`, code: 'invalid-request' });
    return s;
  }

  /** Starts a local file's document from the index a previous open saved, if the file is unchanged. */
  async restoreIndex(s: Session): Promise<void> {
    const { indexes } = this.platform;
    if (!indexes || s.path === undefined || !s.doc.savedIndex) return;
    const bytes = await indexes.load(s.path, s.src);
    if (bytes && s.doc.savedIndex.restore(bytes)) s.stored = bytes;
  }

  async storeIndex(s: Session): Promise<void> {
    const { indexes } = this.platform;
    if (!indexes || s.path === undefined || !s.doc.savedIndex) return;
    const bytes = s.doc.savedIndex.save();
    if (!bytes || (s.stored && equalBytes(bytes, s.stored))) return;
    await indexes.save(s.path, s.src, bytes);
    s.stored = bytes;
  }

  /** A panel's results kept beside the document's saved index (same file identity), under `panel:key`. */
  panelCache(s: Session, panel: string) {
    const { indexes } = this.platform;
    const path = s.path;
    if (!indexes || path === undefined) return undefined;
    return {
      load: (key: string) => indexes.load(path, s.src, `${panel}:${key}`),
      save: (key: string, bytes: Uint8Array) => indexes.save(path, s.src, bytes, `${panel}:${key}`),
    };
  }

  /** A document closed by its client: its index is kept for the next open. */
  async end(s: Session): Promise<void> {
    await this.storeIndex(s);
    await closeSession(s);
  }

  /** Ends the documents and diffs whose ids start with `prefix` ('' for all). */
  async forget(prefix: string): Promise<void> {
    for (const [id, run] of this.diffs) if (id.startsWith(prefix)) (run.stop.abort(), this.diffs.delete(id));
    for (const [id, s] of this.open) {
      if (!id.startsWith(prefix)) continue;
      this.open.delete(id);
      await this.end(s);
    }
  }
}

/** Closes a document and its file without saving its index (one replaced by a new open of the same id). */
export async function closeSession(s: Session): Promise<void> {
  await s.doc.close?.();
  await s.src.close?.();
}
