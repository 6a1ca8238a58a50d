import { hexString } from '../../core/describe.js';
import { convertersOf } from '../../core/dump.js';
import { openDocument } from '../../core/open.js';
import { wasmMemory } from '../../core/codecs/wasm/module.js';
import { THREAD_MEMORY, type DocDTO, type EngineOps } from '../../protocol/protocol.js';
import type { Handlers } from '../../protocol/rpc.js';
import { checkDTO, fieldDTO, tableDTO } from './dto.js';
import { ROOT_ID } from './nodeIds.js';
import { cachesOf, closeSession, register, type Session, type Sessions } from './sessions.js';

/** The operations that open and close documents, and report and drop what they keep in memory. */
export function documentHandlers(sessions: Sessions): Pick<Handlers<EngineOps>, 'shutdown' | 'forget' | 'memory' | 'trim' | 'open' | 'close'> {
  const { platform, open } = sessions;
  return {
    async shutdown() {
      await sessions.forget('');
      // After the answer has gone out: the thread ends when its event loop is empty.
      if (platform.endThread) setImmediate(platform.endThread);
    },

    forget: ({ prefix }) => sessions.forget(prefix),

    memory() {
      const docs = [...open].map(([doc, s]) => ({ doc, bytes: cachesOf(s).reduce((n, c) => n + c.bytes(), 0) }));
      const thread = wasmMemory.bytes();
      return Promise.resolve(thread > 0 ? [...docs, { doc: THREAD_MEMORY, bytes: thread }] : docs);
    },

    trim({ doc }) {
      if (doc === THREAD_MEMORY) wasmMemory.drop();
      const s = open.get(doc);
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
      const s: Session = { name, path, src, doc: outcome.doc, handler: outcome.handler, nodes: new Map(), derived: new Map() };
      await sessions.restoreIndex(s);
      const old = open.get(doc);
      open.set(doc, s);
      if (old) await closeSession(old);
      return { kind: 'opened', doc: docDTO(s, name) };
    },

    async close({ doc }) {
      const s = open.get(doc);
      open.delete(doc);
      if (s) await sessions.end(s);
    },
  };
}

/** What the webview is first told of a document: its summary, top node, and the ids of its tables, panels, searches and converters. */
function docDTO(s: Session, name: string): DocDTO {
  return {
    fileName: name,
    size: s.src.size,
    format: s.doc.format,
    formatLabel: s.handler.label,
    title: s.doc.title,
    summary: s.doc.summary.map(fieldDTO),
    warnings: s.doc.warnings.map(checkDTO),
    root: register(s, s.doc.structure(), ROOT_ID),
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
  };
}
