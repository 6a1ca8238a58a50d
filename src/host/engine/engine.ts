import { installNativeCodecs, type NativeCodecs } from '../../core/codecs/native.js';
import { hexString } from '../../core/describe.js';
import { convertersOf, writeDump } from '../../core/dump.js';
import { describeDamage } from '../../core/integrity.js';
import type { ByteSource } from '../../core/io/byteSource.js';
import { equalBytes } from '../../core/io/bytes.js';
import {
  isLazy,
  type CacheMemory,
  type FormatDocument,
  type FormatHandler,
  type OutputTarget,
  type ScratchSpace,
  type StructNode,
  type Table,
} from '../../core/model.js';
import { openDocument } from '../../core/open.js';
import { convertDocument } from '../../core/ops/read.js';
import { verifyDocument } from '../../core/ops/verify.js';
import { handlers, importersFor } from '../../core/registry.js';
import type { Handlers } from '../../protocol/rpc.js';
import { RpcError } from '../../protocol/rpc.js';
import type { CheckDTO, DocDTO, EngineOps, NodeDTO, TopDTO, VerifySummaryDTO } from '../../protocol/protocol.js';
import { MAX_BYTES_REQUEST, MAX_PAGE } from '../../protocol/protocol.js';
import { checkDTO, fieldDTO, rowDTO, tableDTO } from './dto.js';
import { diffHandlers, type DiffRun } from './diffRuns.js';
import type { IndexStore } from './indexStore.js';

/** What the engine needs from its platform: Node file access in a worker thread, workspace.fs bytes in a browser. */
export interface Platform {
  openPath(path: string): Promise<ByteSource>;
  openBytes(bytes: ArrayBuffer): ByteSource;
  writeOutput<T>(
    out: string,
    opts: { force: boolean; inputs: readonly string[]; kind: 'file' | 'folder' },
    run: (target: OutputTarget) => Promise<T>,
  ): Promise<T>;
  /** Temporary files for imports that sort more than fits in memory; absent = in memory only. */
  scratch?(): Promise<ScratchSpace & { dispose(): Promise<void> }>;
  /** Native codecs the host lends to core (Node's zlib); absent = the portable ones only. */
  readonly codecs?: NativeCodecs;
  /** Lets the engine's thread end once `shutdown` has answered; absent where there is no thread of its own. */
  readonly endThread?: () => void;
  /** Indexes kept between opens of a local file (indexStore.ts); absent = every open walks again. */
  readonly indexes?: Pick<IndexStore, 'load' | 'save'>;
}

interface Session {
  readonly name: string;
  /** The local file, when opened by path: only those have a saved index. */
  readonly path: string | undefined;
  readonly src: ByteSource;
  readonly doc: FormatDocument;
  readonly handler: FormatHandler;
  readonly nodes: Map<string, StructNode>;
  nextNode: number;
  /** Tables made for parameter values (`table` operation), most recent last. */
  readonly derived: Map<string, Table>;
  /** The index bytes last loaded or saved, so an unchanged index is not written again. */
  stored?: Uint8Array;
}

/** What a session keeps only to answer faster: the file's pages (a PageCache source) and what the document decoded. */
function cachesOf(s: Session): CacheMemory[] {
  return [s.src, s.doc.memory].filter(
    (c): c is CacheMemory => typeof (c as Partial<CacheMemory> | undefined)?.bytes === 'function' && typeof (c as CacheMemory).drop === 'function',
  );
}

/** Parameterised views of tables kept per document; older ones are dropped. */
const MAX_DERIVED_TABLES = 16;

/** Lists in the text dump are cut after this many entries, so a 2 GB stream still opens as text. */
const DUMP_LIST_LIMIT = 10000;

/**
 * The open documents of one engine and the operations on them. Everything that touches file
 * content runs here, off the extension host's thread.
 */
export function engineHandlers(platform: Platform): Handlers<EngineOps> {
  if (platform.codecs) installNativeCodecs(platform.codecs);
  const sessions = new Map<string, Session>();

  const session = (doc: string): Session => {
    const s = sessions.get(doc);
    if (!s) throw new RpcError({ message: `document ${doc} is not open`, code: 'invalid-request' });
    return s;
  };

  const register = (s: Session, node: StructNode): NodeDTO => {
    const id = String(s.nextNode++);
    s.nodes.set(id, node);
    const c = node.children;
    const childCount = c === undefined ? 0 : isLazy(c) ? (c.count() ?? null) : c.length;
    return { id, label: node.label, value: node.value, range: node.range, mark: node.mark, note: node.note, childCount };
  };

  /** The fresh top rows (shared by count, verify and `top`): getters on the nodes say what the work settled. */
  const topDTO = (s: Session): TopDTO => {
    const root = s.doc.structure();
    const c = root.children;
    const children = c === undefined || isLazy(c) ? [] : c.slice(0, MAX_PAGE).map((n) => register(s, n));
    return { root: register(s, root), children };
  };

  const docDTO = (s: Session, name: string): DocDTO => ({
    fileName: name,
    size: s.src.size,
    format: s.doc.format,
    formatLabel: s.handler.label,
    title: s.doc.title,
    summary: s.doc.summary.map(fieldDTO),
    warnings: s.doc.warnings.map(checkDTO),
    root: register(s, s.doc.structure()),
    tables: s.doc.tables.map(tableDTO),
    panels: (s.doc.panels ?? []).map((p) => ({ id: p.id, title: p.title, kind: p.kind, params: p.params ?? [] })),
    searches: (s.doc.searches ?? []).map((q) => ({ id: q.id, label: q.label, params: q.params, columns: q.columns })),
    converters: convertersOf(s.doc, name, s.src.size).map((c) => ({
      id: c.id,
      label: c.label,
      extension: c.extension,
      output: c.output,
      options: c.options ?? [],
    })),
  });

  const table = (s: Session, id: string) => {
    const t = s.doc.tables.find((x) => x.id === id) ?? s.derived.get(id);
    if (!t) throw new RpcError({ message: `no table ${id}`, code: 'invalid-request' });
    return t;
  };

  /** Starts a local file's document from the index a previous open saved, if the file is unchanged. */
  const restoreIndex = async (s: Session) => {
    if (!platform.indexes || s.path === undefined || !s.doc.savedIndex) return;
    const bytes = await platform.indexes.load(s.path, s.src);
    if (bytes && s.doc.savedIndex.restore(bytes)) s.stored = bytes;
  };

  const storeIndex = async (s: Session) => {
    if (!platform.indexes || s.path === undefined || !s.doc.savedIndex) return;
    const bytes = s.doc.savedIndex.save();
    if (!bytes || (s.stored && equalBytes(bytes, s.stored))) return;
    await platform.indexes.save(s.path, s.src, bytes);
    s.stored = bytes;
  };

  /** A panel's results kept beside the document's saved index (same file identity), under `panel:key`. */
  const panelCache = (s: Session, panel: string) => {
    const { indexes } = platform;
    const path = s.path;
    if (!indexes || path === undefined) return undefined;
    return {
      load: (key: string) => indexes.load(path, s.src, `${panel}:${key}`),
      save: (key: string, bytes: Uint8Array) => indexes.save(path, s.src, bytes, `${panel}:${key}`),
    };
  };

  /** A document closed by its client: its index is kept for the next open. */
  const endSession = async (s: Session) => {
    await storeIndex(s);
    await closeSession(s);
  };

  const diffs = new Map<string, DiffRun>();

  /** Ends the documents and diffs whose ids start with `prefix` ('' for all). */
  const forget = async (prefix: string) => {
    for (const [id, run] of diffs) if (id.startsWith(prefix)) (run.stop.abort(), diffs.delete(id));
    for (const [id, s] of sessions) {
      if (!id.startsWith(prefix)) continue;
      sessions.delete(id);
      await endSession(s);
    }
  };

  return {
    ...diffHandlers((doc) => {
      const s = session(doc);
      return { doc: s.doc, name: s.name, size: s.src.size };
    }, diffs),

    async shutdown() {
      await forget('');
      // After the answer has gone out: the thread ends when its event loop is empty.
      if (platform.endThread) setImmediate(platform.endThread);
    },

    forget: ({ prefix }) => forget(prefix),

    memory: () => Promise.resolve([...sessions].map(([doc, s]) => ({ doc, bytes: cachesOf(s).reduce((n, c) => n + c.bytes(), 0) }))),

    trim({ doc }) {
      const s = sessions.get(doc);
      if (s) for (const c of cachesOf(s)) c.drop();
      return Promise.resolve();
    },

    async open({ doc, path, bytes, name, format }) {
      const src = path !== undefined ? await platform.openPath(path) : platform.openBytes(bytes ?? new ArrayBuffer(0));
      const outcome = await openDocument(src, { name, format });
      if (outcome.kind === 'unrecognised') {
        const head = hexString(await src.read(0, Math.min(256, src.size)));
        await src.close?.();
        return {
          kind: 'unrecognised',
          fileName: name,
          size: src.size,
          reason: outcome.reason,
          format: outcome.handler?.id,
          offset: outcome.error?.offset,
          head,
        };
      }
      const s: Session = { name, path, src, doc: outcome.doc, handler: outcome.handler, nodes: new Map(), nextNode: 1, derived: new Map() };
      await restoreIndex(s);
      const old = sessions.get(doc);
      sessions.set(doc, s);
      if (old) await closeSession(old);
      return { kind: 'opened', doc: docDTO(s, name) };
    },

    async close({ doc }) {
      const s = sessions.get(doc);
      sessions.delete(doc);
      if (s) await endSession(s);
    },

    async children({ doc, node, from, count }, { signal }) {
      const s = session(doc);
      const n = s.nodes.get(node);
      if (!n) throw new RpcError({ message: `no node ${node}`, code: 'invalid-request' });
      const c = n.children;
      if (c === undefined) return [];
      const list = isLazy(c) ? await c.load(from, Math.min(count, MAX_PAGE), signal) : c.slice(from, from + Math.min(count, MAX_PAGE));
      return list.map((child) => register(s, child));
    },

    async page({ doc, table: id, from, count }, { signal }) {
      const rows = await table(session(doc), id).page(from, Math.min(count, MAX_PAGE), signal);
      return rows.map(rowDTO);
    },

    async table({ doc, table: id, params }) {
      const s = session(doc);
      const t = table(s, id);
      if (!t.withParams) throw new RpcError({ message: `table ${id} takes no parameters`, code: 'invalid-request' });
      const view = await t.withParams(params);
      s.derived.delete(view.id);
      s.derived.set(view.id, view);
      for (const key of s.derived.keys()) if (s.derived.size > MAX_DERIVED_TABLES) s.derived.delete(key);
      return tableDTO(view);
    },

    async count({ doc, table: id }, { signal, emit }) {
      const s = session(doc);
      const t = table(s, id);
      if (t.count && (!t.rowCount().complete || t.countIndexes)) await t.count({ signal, progress: emit });
      const rows = t.rowCount();
      await storeIndex(s);
      if (!rows.complete) return rows;
      // The count may have settled the document's own counts: its summary and top rows say them now.
      return { ...rows, summary: s.doc.summary.map(fieldDTO), top: topDTO(s) };
    },

    async top({ doc }) {
      return topDTO(session(doc));
    },

    async bytes({ doc, offset, length }) {
      const s = session(doc);
      const start = Math.max(0, Math.min(offset, s.src.size));
      const n = Math.max(0, Math.min(length, MAX_BYTES_REQUEST, s.src.size - start));
      return { offset: start, hex: hexString(await s.src.read(start, n)) };
    },

    async panel({ doc, panel, params }, { signal, emit }) {
      const s = session(doc);
      const p = s.doc.panels?.find((x) => x.id === panel);
      if (!p) throw new RpcError({ message: `no panel ${panel}`, code: 'invalid-request' });
      return p.data(params, signal, { openPath: platform.openPath, progress: emit, cache: panelCache(s, panel) });
    },

    async search({ doc, search, params }, { signal, emit }) {
      const q = session(doc).doc.searches?.find((x) => x.id === search);
      if (!q) throw new RpcError({ message: `no search ${search}`, code: 'invalid-request' });
      return q.run(params, { signal }, (rows) => emit(rows.map(rowDTO)));
    },

    async verify({ doc }, { signal, emit }) {
      const s = session(doc);
      const counts = { pass: 0, fail: 0, warn: 0, info: 0 };
      const report = (c: CheckDTO) => {
        counts[c.status]++;
        emit({ check: c });
      };
      for await (const c of verifyDocument(s.doc, { signal, progress: (progress) => emit({ progress }) })) report(checkDTO(c));
      // The checks may have found damage the tree shows (a failed CRC): its top rows say it now.
      const summary: VerifySummaryDTO = { format: s.doc.format, ok: counts.fail === 0, unreadable: false, counts, top: topDTO(s) };
      return summary;
    },

    async dump({ doc, maxChildren }, { signal }) {
      const s = session(doc);
      let text = '';
      await writeDump(s.doc, { fileName: s.name, size: s.src.size, signal, maxChildren: maxChildren ?? DUMP_LIST_LIMIT }, (t) => {
        text += t;
      });
      return text;
    },

    async convert({ doc, converter, out, options, force, input, salvage }, { signal, emit }) {
      const s = session(doc);
      const c = convertersOf(s.doc, s.name, s.src.size).find((x) => x.id === converter);
      if (!c) throw new RpcError({ message: `no converter ${converter}`, code: 'invalid-request' });
      const outcome = await convertDocument(c, options, { salvage }, (run) => platform.writeOutput(out, { force, inputs: [input], kind: c.output }, run), {
        signal,
        progress: emit,
        openPath: platform.openPath,
      });
      return {
        summary: outcome.report.summary,
        warnings: outcome.report.warnings ?? [],
        damaged: outcome.damage.map(describeDamage),
        omitted: [...outcome.omissions],
      };
    },

    async importers({ name }) {
      return (await importersFor(name)).map(({ handler, importer }) => ({
        id: importer.id,
        label: importer.label,
        extension: importer.extension,
        output: importer.output,
        options: importer.options ?? [],
        format: handler.id,
      }));
    },

    async formats() {
      return handlers.map((h) => ({ id: h.id, label: h.label, extensions: [...h.extensions] }));
    },

    async import({ input, importer, out, options, force }, { signal, emit }) {
      const choice = (await importersFor(baseName(input))).find((c) => c.importer.id === importer);
      if (!choice) throw new RpcError({ message: `no importer ${importer} for ${input}`, code: 'invalid-request' });
      const src = await platform.openPath(input);
      const scratch = await platform.scratch?.();
      try {
        const report = await platform.writeOutput(out, { force, inputs: [input], kind: choice.importer.output }, (target) =>
          choice.importer.run(src, target, { signal, progress: emit, scratch, openPath: platform.openPath }, options),
        );
        return { summary: report.summary, warnings: report.warnings ?? [] };
      } finally {
        await src.close?.();
        await scratch?.dispose();
      }
    },
  };
}

async function closeSession(s: Session): Promise<void> {
  await s.doc.close?.();
  await s.src.close?.();
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
