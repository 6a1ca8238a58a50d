import { rethrowUnlessFormatError } from '../../errors.js';
import { describeDamage, SHOW_DAMAGED } from '../../integrity.js';
import type { Cell, Panel, Row, SearchSpec } from '../../model.js';
import { column } from '../../tableSpec.js';
import type { BarsPanelData, LayersPanelData, PanelData } from '../../views.js';
import { ratio, schemeName } from './chunks.js';
import { readChunk } from './decode.js';
import { hashToString, rawHex } from './hash.js';
import { chunkDamageOf, knownChunkDamage } from './integrity.js';
import { CHUNK_HEADER_BYTES, SCHEME_NAMES } from './model.js';
import { guessView, PREVIEW_BYTES, PREVIEW_VIEWS, renderPreview, type PreviewView } from './preview.js';
import type { XorbFile } from './xorbFile.js';

/** Merkle trees over more leaves than this are listed by level instead of drawn. */
const MAX_DRAWN_LEAVES = 128;

const SCHEME_CATEGORIES = [...Object.values(SCHEME_NAMES), 'unknown'];

function text(body: string): PanelData {
  return { kind: 'text', language: 'plain', text: body };
}

/** Uncompressed size (bar), compressed size (inner bar) and ratio (line) of every chunk, by scheme. */
export function chunkChartPanel(x: XorbFile): Panel {
  return {
    id: 'chunk-sizes',
    title: 'Chunk sizes',
    kind: 'bars',
    data: (): Promise<BarsPanelData> =>
      Promise.resolve({
        kind: 'bars',
        xLabel: 'chunk',
        yLabel: 'bytes',
        innerLabel: 'compressed',
        lineLabel: 'ratio',
        categories: SCHEME_CATEGORIES,
        bars: x.chunks.map((c, i) => ({
          label: `chunk ${i}: ${schemeName(c.scheme)}, ${c.uncompressedLength} bytes, ${c.compressedLength} compressed (ratio ${ratio(c) ?? '-'})`,
          value: c.uncompressedLength,
          inner: c.compressedLength,
          line: ratio(c) ?? undefined,
          category: SCHEME_NAMES[c.scheme] === undefined ? SCHEME_CATEGORIES.length - 1 : c.scheme,
        })),
      }),
  };
}

/** The decoded bytes of one chunk as hex, text or float values. */
export function chunkPreviewPanel(x: XorbFile): Panel {
  const last = Math.max(0, x.chunks.length - 1);
  return {
    id: 'chunk-preview',
    title: 'Chunk preview',
    kind: 'text',
    params: [
      { key: 'chunk', label: 'Chunk', type: 'number', default: 0, min: 0, max: last },
      {
        key: 'view',
        label: 'Show as',
        type: 'choice',
        default: 'auto',
        choices: [{ value: 'auto', label: 'auto' }, ...PREVIEW_VIEWS.map((v) => ({ value: v, label: v }))],
      },
      { key: 'from', label: 'From byte', type: 'number', default: 0, min: 0, max: 131071, description: `the preview shows ${PREVIEW_BYTES} bytes from here` },
      SHOW_DAMAGED,
    ],
    async data(params, signal) {
      const i = Math.min(last, Math.max(0, Math.trunc(Number(params.chunk ?? 0))));
      const h = x.chunks[i];
      if (!h) return text('This xorb has no chunks.');
      let bytes: Uint8Array;
      try {
        bytes = await readChunk(x.src, h, x.regionEnd);
      } catch (e) {
        rethrowUnlessFormatError(e);
        return text(`chunk ${i} cannot be decoded: ${e.message}`);
      }
      // Checked before a byte is shown: a damaged chunk's bytes appear only when asked for, labelled.
      const damage = await chunkDamageOf(x, i, bytes, { signal });
      if (damage && params[SHOW_DAMAGED.key] !== true)
        return text(`chunk ${i} is damaged, so its bytes are not shown: ${describeDamage(damage)}\n\n"${SHOW_DAMAGED.label}" shows what it decodes to.`);
      const warning = damage ? `DAMAGED, shown anyway: ${describeDamage(damage)}\n` : '';
      let from = Math.min(bytes.length, Math.max(0, Math.trunc(Number(params.from ?? 0))));
      const asked = String(params.view ?? 'auto');
      let view: PreviewView;
      if ((PREVIEW_VIEWS as readonly string[]).includes(asked)) view = asked as PreviewView;
      else {
        const guess = guessView(bytes.subarray(from, from + PREVIEW_BYTES));
        view = guess.view;
        from += guess.shift;
      }
      const window = bytes.subarray(from, from + PREVIEW_BYTES);
      const head = `chunk ${i} · ${schemeName(h.scheme)} · ${bytes.length} bytes · bytes ${from}–${from + window.length} as ${view}${asked === 'auto' ? ' (guessed)' : ''}`;
      return text(`${warning}${head}\n\n${renderPreview(window, from, view)}`);
    },
  };
}

/** The xorb hash's merkle tree: which group each chunk feeds, level by level. */
export function merklePanel(x: XorbFile): Panel {
  return {
    id: 'merkle',
    title: 'Merkle tree',
    kind: 'layers',
    async data(_params, signal) {
      const { tree, chunks: outcomes } = await x.hashes({ signal });
      if (!tree) {
        const bad = outcomes.findIndex((o) => o.error);
        return text(bad >= 0 ? `No xorb hash: chunk ${bad} cannot be decoded (${outcomes[bad]!.error!.message}).` : 'No xorb hash: the xorb has no chunks.');
      }
      const leaves = outcomes.map((o, i) => ({ hash: o.hash!, size: x.chunks[i]!.uncompressedLength }));
      if (leaves.length > MAX_DRAWN_LEAVES) {
        const lines = tree.levels.map((groups, l) => `level ${l}: ${groups.length} nodes from ${l === 0 ? leaves.length : tree.levels[l - 1]!.length} inputs`);
        return text(
          `${leaves.length} chunks: too many to draw (at most ${MAX_DRAWN_LEAVES}).\n\n${lines.join('\n')}\nroot: ${hashToString(tree.root.hash)} (${tree.root.size} bytes)`,
        );
      }
      const parentOf = (level: number, index: number): string | undefined => {
        const groups = tree.levels[level];
        if (!groups) return undefined;
        const g = groups.findIndex((grp) => index >= grp.from && index < grp.to);
        return `n${level}.${g}`;
      };
      const rows: LayersPanelData['rows'][number][] = [];
      for (let l = tree.levels.length - 1; l >= 0; l--) {
        const top = l === tree.levels.length - 1;
        rows.push({
          title: top ? 'xorb hash' : `level ${l + 1}`,
          nodes: tree.levels[l]!.map((g, j) => ({
            id: `n${l}.${j}`,
            label: hashToString(g.node.hash).slice(0, 8),
            detail: `${top ? 'root (xorb hash)' : `level ${l + 1} node ${j}`}: ${hashToString(g.node.hash)}, ${g.node.size} bytes, from ${l === 0 ? 'chunks' : 'nodes'} ${g.from}–${g.to - 1}`,
            parent: parentOf(l + 1, j),
            group: l,
          })),
        });
      }
      rows.push({
        title: 'chunks',
        nodes: leaves.map((leaf, i) => ({
          id: `c${i}`,
          label: `#${i}`,
          detail: `chunk ${i}: ${hashToString(leaf.hash)}, ${leaf.size} bytes${leaves.length === 1 ? ' (one chunk: its hash is the xorb hash)' : ''}`,
          parent: parentOf(0, i),
          group: tree.levels.length,
        })),
      });
      return {
        kind: 'layers',
        rows,
        note: 'Groups end after a node whose hash has raw byte 24 divisible by 4 (3 to 9 nodes; the tail 1 or 2).',
      };
    },
  };
}

/** Chunks whose hash starts with a prefix, in xet's string form (or, pointed out, raw-byte hex). */
export function hashSearch(x: XorbFile): SearchSpec {
  return {
    id: 'hash-prefix',
    label: 'Chunk hash prefix',
    params: [{ key: 'prefix', label: 'Hash prefix', type: 'string', description: "hex digits of a chunk hash in xet's string form" }],
    columns: [
      column('index', 'number', '#'),
      column('offset', 'number'),
      column('scheme', 'text'),
      column('size', 'number', 'uncompressed'),
      column('hash', 'hex', 'chunk hash'),
      column('matched', 'text'),
    ],
    async run(params, ctx, emit) {
      const prefix = String(params.prefix ?? '')
        .trim()
        .toLowerCase();
      if (!/^[0-9a-f]+$/.test(prefix)) return { count: 0, note: 'enter hex digits' };
      const { chunks } = await x.hashes(ctx);
      const rows: Row[] = [];
      let rawMatches = 0;
      for (const [i, o] of chunks.entries()) {
        const raw = o.hash ?? x.footer?.chunkHashes[i];
        if (!raw) continue;
        const str = hashToString(raw);
        const matched = str.startsWith(prefix) ? 'string form' : rawHex(raw).startsWith(prefix) ? 'raw-byte hex (not the string form)' : undefined;
        if (!matched) continue;
        if (matched !== 'string form') rawMatches++;
        const c = x.chunks[i]!;
        const how = o.hash ? matched : `${matched}, footer hash`;
        // The hash is the search key, so it stays; the row says that the chunk itself is damaged.
        const damage = knownChunkDamage(x, i);
        const note: Cell = damage ? { text: `${how}; chunk damaged`, title: `${damage.unit}: ${damage.detail}`, mark: 'error' } : how;
        rows.push({
          cells: [i, c.offset, schemeName(c.scheme), c.uncompressedLength, str, note],
          range: { offset: c.offset, length: CHUNK_HEADER_BYTES + c.compressedLength },
          mark: damage ? 'error' : undefined,
        });
      }
      emit(rows);
      return { count: rows.length, note: rawMatches ? `${rawMatches} matched the plain hex of the raw bytes, which is not how xet writes hashes` : undefined };
    },
  };
}
