import { hexString } from '../../core/describe.js';
import { isLazy } from '../../core/model.js';
import type { EngineOps } from '../../protocol/protocol.js';
import { MAX_BYTES_REQUEST, MAX_PAGE } from '../../protocol/protocol.js';
import type { Handlers } from '../../protocol/rpc.js';
import { RpcError } from '../../protocol/rpc.js';
import { fieldDTO, rowDTO, tableDTO } from './dto.js';
import { childId, nodeAtPath } from './nodeIds.js';
import { register, tableOf, topDTO, type Sessions } from './sessions.js';

/** Parameterised views of tables kept per document; older ones are dropped. */
const MAX_DERIVED_TABLES = 16;

type ViewHandlers = Pick<Handlers<EngineOps>, 'children' | 'page' | 'table' | 'count' | 'top' | 'bytes' | 'panel' | 'search'>;

/** What an editor shows of an open document, a page at a time: tree nodes, table rows, counts, bytes, panels and search results. */
export function viewHandlers(sessions: Sessions): ViewHandlers {
  return {
    async children({ doc, node, from, count }, { signal }) {
      const s = sessions.get(doc);
      const n = s.nodes.get(node) ?? (await nodeAtPath(s.doc.structure(), node, signal));
      const c = n.children;
      if (c === undefined) return [];
      const list = isLazy(c) ? await c.load(from, Math.min(count, MAX_PAGE), signal) : c.slice(from, from + Math.min(count, MAX_PAGE));
      return list.map((child, i) => register(s, child, childId(node, from + i)));
    },

    async page({ doc, table: id, from, count }, { signal }) {
      const rows = await tableOf(sessions.get(doc), id).page(from, Math.min(count, MAX_PAGE), signal);
      return rows.map(rowDTO);
    },

    async table({ doc, table: id, params }) {
      const s = sessions.get(doc);
      const t = tableOf(s, id);
      if (!t.withParams) throw new RpcError({ message: `table ${id} takes no parameters`, code: 'invalid-request' });
      const view = await t.withParams(params);
      s.derived.delete(view.id);
      s.derived.set(view.id, view);
      for (const key of s.derived.keys()) if (s.derived.size > MAX_DERIVED_TABLES) s.derived.delete(key);
      return tableDTO(view);
    },

    async count({ doc, table: id }, { signal, emit }) {
      const s = sessions.get(doc);
      const t = tableOf(s, id);
      if (t.count && (!t.rowCount().complete || t.countIndexes)) await t.count({ signal, progress: emit });
      const rows = t.rowCount();
      await sessions.storeIndex(s);
      if (!rows.complete) return rows;
      // The count may have settled the document's own counts: its summary and top rows say them now.
      return { ...rows, summary: s.doc.summary.map(fieldDTO), top: topDTO(s) };
    },

    async top({ doc }) {
      return topDTO(sessions.get(doc));
    },

    async bytes({ doc, offset, length }) {
      const s = sessions.get(doc);
      const start = Math.max(0, Math.min(offset, s.src.size));
      const n = Math.max(0, Math.min(length, MAX_BYTES_REQUEST, s.src.size - start));
      return { offset: start, hex: hexString(await s.src.read(start, n)) };
    },

    async panel({ doc, panel, params }, { signal, emit }) {
      const s = sessions.get(doc);
      const p = s.doc.panels?.find((x) => x.id === panel);
      if (!p) throw new RpcError({ message: `no panel ${panel}`, code: 'invalid-request' });
      return p.data(params, signal, { openPath: sessions.platform.openPath, progress: emit, cache: sessions.panelCache(s, panel) });
    },

    async search({ doc, search, params }, { signal, emit }) {
      const q = sessions.get(doc).doc.searches?.find((x) => x.id === search);
      if (!q) throw new RpcError({ message: `no search ${search}`, code: 'invalid-request' });
      return q.run(params, { signal }, (rows) => emit(rows.map(rowDTO)));
    },
  };
}
