import { range } from '../../describe.js';
import { damagedCell, SHOW_DAMAGED } from '../../integrity.js';
import type { Cell, OptionValues, Row, Table } from '../../model.js';
import { ratio, schemeName } from './chunks.js';
import type { ChunkOutcome } from './decode.js';
import { hashToString, sameHash } from './hash.js';
import { knownChunkDamage } from './integrity.js';
import { CHUNK_HEADER_BYTES } from './model.js';
import type { XorbFile } from './xorbFile.js';

/** The hash cell of an intact chunk: computed, or the footer's until the chunks are hashed. */
function hashCell(outcome: ChunkOutcome | undefined, stored: Uint8Array | undefined): Cell {
  if (!outcome) return stored ? { text: hashToString(stored), title: 'from the footer (not recomputed yet)' } : null;
  if (outcome.error) return { text: 'not decodable', title: outcome.error.message, mark: 'error' };
  const text = hashToString(outcome.hash);
  if (stored && !sameHash(stored, outcome.hash)) return { text, title: `the footer says ${hashToString(stored)}`, mark: 'error' };
  return text;
}

/**
 * One row per chunk. A damaged chunk (it does not decode, or hashes to another hash than the
 * footer's) keeps its index and offset, so it can be found, but its header values and hash show
 * as damaged; SHOW_DAMAGED shows them anyway, labelled.
 */
export function chunkTable(x: XorbFile, showDamaged = false): Table {
  const chunks = x.chunks;
  return {
    id: showDamaged ? `chunks?${SHOW_DAMAGED.key}` : 'chunks',
    title: 'Chunks',
    columns: [
      { key: 'index', title: '#', type: 'number' },
      { key: 'offset', title: 'offset', type: 'number' },
      { key: 'scheme', title: 'scheme', type: 'text' },
      { key: 'compressed', title: 'compressed', type: 'number' },
      { key: 'uncompressed', title: 'uncompressed', type: 'number' },
      { key: 'ratio', title: 'ratio', type: 'number', description: 'uncompressed / compressed' },
      { key: 'hash', title: 'chunk hash', type: 'hex', description: "keyed BLAKE3 of the decoded bytes, in xet's string form" },
    ],
    rowCount: () => ({ known: chunks.length, complete: true }),
    params: [SHOW_DAMAGED],
    withParams: (values: OptionValues) => Promise.resolve(chunkTable(x, values[SHOW_DAMAGED.key] === true)),
    page: async (from, count) => {
      const outcomes = x.known?.chunks;
      return chunks.slice(from, from + count).map((c, k): Row => {
        const i = from + k;
        const outcome = outcomes?.[i];
        const hash = hashCell(outcome, x.footer?.chunkHashes[i]);
        const values: Cell[] = [schemeName(c.scheme), c.compressedLength, c.uncompressedLength, ratio(c), hash];
        const damage = knownChunkDamage(x, i);
        const detail = damage && `${damage.unit}: ${damage.detail}`;
        const shown =
          detail === undefined ? values : values.map((v) => damagedCell(detail, showDamaged ? (v !== null && typeof v === 'object' ? v.text : v) : undefined));
        return { cells: [i, c.offset, ...shown], range: range(c.offset, CHUNK_HEADER_BYTES + c.compressedLength), mark: damage ? 'error' : undefined };
      });
    },
  };
}
